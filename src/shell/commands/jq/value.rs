//! jq's values: jaq's JSON value wrapped (`V`) with jq's update semantics,
//! arithmetic and messages, and the `ValT` interfaces jaq runs over.

use super::*;

// ---------------------------------------------------------------------------
// Values with jq's update semantics

/// jaq's JSON value with jq's update semantics: assigning into `null`
/// creates the object or array (`jq -n '.a.b = 1'`), and assigning past an
/// array's end pads it with nulls; jaq-json refuses both.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct V(pub(super) Val);

/// The longest an array may grow by assigning past its end.
pub(super) const MAX_PADDED_LEN: usize = 10_000_000;

pub(super) fn conv_err(error: jaq_core::Error<Val>) -> jaq_core::Error<V> {
    jaq_core::Error::<V>::new(V(error.into_val()))
}

pub(super) fn conv(result: jaq_core::ValR<Val>) -> jaq_core::ValR<V> {
    result.map(V).map_err(conv_err)
}

pub(super) fn unwrap_or_clone<T: Clone>(rc: Rc<T>) -> T {
    Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone())
}

impl V {
    pub(super) fn inner(&self) -> &Val {
        &self.0
    }

    pub(super) fn into_inner(self) -> Val {
        self.0
    }
}

impl std::fmt::Display for V {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

macro_rules! from_for_v {
    ($($t:ty),*) => {$(
        impl From<$t> for V {
            fn from(x: $t) -> Self {
                V(Val::from(x))
            }
        }
    )*};
}
from_for_v!(bool, isize, usize, f64, String);

impl From<jaq_core::val::Range<V>> for V {
    fn from(range: jaq_core::val::Range<V>) -> Self {
        V(Val::from(range.start.map(|v| v.0)..range.end.map(|v| v.0)))
    }
}

impl FromIterator<V> for V {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        // Counted as collected: `[range(1e9)]` stops at the budget, not
        // after it built the array (collecting cannot fail in jaq's
        // interface, hence the flag the next check unwinds on).
        let budget = memory_budget();
        let mut total = VALUE_BYTES;
        let mut items = Vec::new();
        for item in iter {
            if poll() {
                break;
            }
            let (item, bytes) = nestable_sized(item.0, budget.saturating_sub(total));
            total = total.saturating_add(bytes);
            if total > budget {
                too_big("an array");
                break;
            }
            items.push(item);
        }
        V(Val::Arr(Rc::new(items)))
    }
}

thread_local! {
    /// Set when the filter built a value nested deeper than [`MAX_DEPTH`]:
    /// the part too deep became null, and the run ends with an error before
    /// anything built from it is printed. (Array construction cannot fail in
    /// jaq's interface, hence a flag.)
    pub(super) static TOO_DEEP: Cell<bool> = const { Cell::new(false) };
}

/// A value about to be put inside an array or object: null (and the
/// [`TOO_DEEP`] flag) when that would nest deeper than [`MAX_DEPTH`], so
/// that no value deep enough to exhaust the stack (in jaq's recursive
/// comparisons and drops) is ever built; null (and the [`TOO_BIG`] flag)
/// when it holds more than the run's memory budget.
pub(super) fn nestable(value: Val) -> Val {
    nestable_sized(value, memory_budget()).0
}

/// [`nestable`], with the bytes the value holds (see [`measure`]) when at
/// most `room`; past `room`, null and a count above it.
pub(super) fn nestable_sized(value: Val, room: usize) -> (Val, usize) {
    let (deep, bytes) = measure(&value, MAX_DEPTH - 1, room);
    if deep {
        TOO_DEEP.with(|flag| flag.set(true));
        drop_deep(value);
        (Val::Null, VALUE_BYTES)
    } else if bytes > room {
        too_big("a value");
        drop_deep(value);
        (Val::Null, bytes)
    } else {
        (value, bytes)
    }
}

/// `a + b` for two arrays or two objects: refused before it is built when
/// the result would pass the budget.
pub(super) fn add_containers(left: Val, right: Val) -> jaq_core::ValR<V> {
    let budget = memory_budget();
    let left_bytes = container_bytes(&left);
    let right_bytes = measure(&right, usize::MAX, budget.saturating_add(1)).1;
    let total = left_bytes.saturating_add(right_bytes).saturating_sub(VALUE_BYTES);
    if total > budget {
        return memory_error(if matches!(left, Val::Arr(_)) { "an array" } else { "an object" });
    }
    let result = conv(left + right)?;
    // Replaced keys are counted twice: an over-count, never an under-count.
    grown(&result.0, total);
    Ok(result)
}

macro_rules! binop_for_v {
    ($($op:ident $method:ident),*) => {$(
        impl std::ops::$op for V {
            type Output = jaq_core::ValR<V>;
            fn $method(self, rhs: V) -> Self::Output {
                conv(std::ops::$op::$method(self.0, rhs.0))
            }
        }
    )*};
}
binop_for_v!(Sub sub);

impl std::ops::Add for V {
    type Output = jaq_core::ValR<V>;
    fn add(self, rhs: V) -> Self::Output {
        match (&self.0, &rhs.0) {
            (Val::TStr(l) | Val::BStr(l), Val::TStr(r) | Val::BStr(r))
                if l.len().saturating_add(r.len()) > memory_budget() =>
            {
                return memory_error("a string");
            }
            (Val::Arr(_), Val::Arr(_)) | (Val::Obj(_), Val::Obj(_)) => return add_containers(self.0, rhs.0),
            _ => {}
        }
        conv(self.0 + rhs.0)
    }
}

impl std::ops::Mul for V {
    type Output = jaq_core::ValR<V>;
    fn mul(self, rhs: V) -> Self::Output {
        // `"ab" * 1e9`: the repeated string's length is known before.
        if let (Val::TStr(s) | Val::BStr(s), Val::Num(_)) | (Val::Num(_), Val::TStr(s) | Val::BStr(s)) =
            (&self.0, &rhs.0)
        {
            let (text, number) = if matches!(self.0, Val::Num(_)) { (&rhs.0, &self.0) } else { (&self.0, &rhs.0) };
            let times = jaq_std::ValT::as_f64(number).unwrap_or(0.0);
            if s.len() as f64 * times.trunc() > memory_budget() as f64 {
                return memory_error("a string");
            }
            // jq repeats the string the number's integer part times (jaq
            // refuses a number that is not an integer).
            if !jaq_std::ValT::is_int(number) {
                let times = if times.is_nan() { 0 } else { times as isize };
                return conv(text.clone() * Val::from(times));
            }
        }
        conv(self.0 * rhs.0)
    }
}

/// `number (1) and number (0) cannot be divided because the divisor is zero`.
pub(super) fn zero_divisor(left: &Val, right: &Val, verb: &str) -> jaq_core::Error<V> {
    jaq_core::Error::str(format!(
        "{} ({}) and {} ({}) cannot be {verb} because the divisor is zero",
        type_name(left),
        truncated(left),
        type_name(right),
        truncated(right)
    ))
}

impl std::ops::Div for V {
    type Output = jaq_core::ValR<V>;
    fn div(self, rhs: V) -> Self::Output {
        // jq refuses to divide by zero where jaq gives infinity.
        if matches!(self.0, Val::Num(_)) && jaq_std::ValT::as_f64(&rhs.0) == Some(0.0) {
            return Err(zero_divisor(&self.0, &rhs.0, "divided"));
        }
        conv(self.0 / rhs.0)
    }
}

impl std::ops::Rem for V {
    type Output = jaq_core::ValR<V>;
    fn rem(self, rhs: V) -> Self::Output {
        // jq takes the remainder of the operands truncated to integers.
        let as_int = |v: &Val| match v {
            Val::Num(_) => jaq_std::ValT::as_f64(v).filter(|f| f.is_finite() && f.abs() < 9.0e18).map(|f| f as i64),
            _ => None,
        };
        match (as_int(&self.0), as_int(&rhs.0)) {
            (Some(_), Some(0)) => Err(zero_divisor(&self.0, &rhs.0, "divided (remainder)")),
            (Some(a), Some(b)) => Ok(V(Val::from(a.wrapping_rem(b) as isize))),
            _ => conv(self.0 % rhs.0),
        }
    }
}

impl std::ops::Neg for V {
    type Output = jaq_core::ValR<V>;
    fn neg(self) -> Self::Output {
        conv(-self.0)
    }
}

/// A number as an array index or slice bound (jq floors fractions).
pub(super) fn index_of(value: &Val) -> Option<isize> {
    match value {
        Val::Num(_) => jaq_std::ValT::as_f64(value).filter(|f| f.is_finite()).map(|f| f.floor() as isize),
        _ => None,
    }
}

impl jaq_core::ValT for V {
    fn from_num(n: &str) -> jaq_core::ValR<V> {
        conv(<Val as jaq_core::ValT>::from_num(n))
    }

    fn from_map<I: IntoIterator<Item = (V, V)>>(iter: I) -> jaq_core::ValR<V> {
        let budget = memory_budget();
        let mut total = VALUE_BYTES;
        let mut map = Map::default();
        for (key, value) in iter {
            if string_bytes(&key.0).is_none() {
                let message = format!("Cannot use {} ({}) as object key", type_name(&key.0), truncated(&key.0));
                return Err(jaq_core::Error::str(message));
            }
            let key_bytes = VALUE_BYTES + string_bytes(&key.0).map_or(0, <[u8]>::len);
            let (value, bytes) = nestable_sized(value.0, budget.saturating_sub(total.saturating_add(key_bytes)));
            total = total.saturating_add(key_bytes).saturating_add(bytes);
            if total > budget {
                return memory_error("an object");
            }
            map.insert(key.0, value);
        }
        Ok(V(Val::obj(map)))
    }

    fn key_values(self) -> jaq_core::box_iter::BoxIter<'static, jaq_core::ValR<(V, V), V>> {
        Box::new(
            jaq_core::ValT::key_values(self.0)
                .map(|r| r.map(|(k, v)| (V(k), V(v))).map_err(conv_err))
                .take_while(|_| !poll()),
        )
    }

    fn values(self) -> Box<dyn Iterator<Item = jaq_core::ValR<V>>> {
        Box::new(jaq_core::ValT::values(self.0).map(conv).take_while(|_| !poll()))
    }

    fn index(self, index: &V) -> jaq_core::ValR<V> {
        // jaq gives null for `{} | .[0]`; jq refuses a non-string key.
        match (&self.0, &index.0) {
            (Val::Obj(_), Val::Num(_) | Val::Arr(_) | Val::Bool(_)) => {
                return Err(jaq_core::Error::index(self, index.clone()));
            }
            // jq truncates a fractional index and gives null for nan.
            (Val::Arr(items), Val::Num(_)) if !jaq_std::ValT::is_int(&index.0) => {
                let at = index_of(&index.0).map(|i| if i < 0 { i + items.len() as isize } else { i });
                let item = at.and_then(|i| usize::try_from(i).ok()).and_then(|i| items.get(i));
                return Ok(V(item.cloned().unwrap_or_default()));
            }
            _ => {}
        }
        conv(jaq_core::ValT::index(self.0, &index.0))
    }

    fn range(self, range: jaq_core::val::Range<&V>) -> jaq_core::ValR<V> {
        conv(jaq_core::ValT::range(self.0, range.start.map(|v| &v.0)..range.end.map(|v| &v.0)))
    }

    fn map_values<'a, I: Iterator<Item = ValX<'a, V>>>(
        self,
        opt: jaq_core::path::Opt,
        f: impl Fn(V) -> I,
    ) -> ValX<'a, V> {
        match self.0 {
            Val::Arr(items) => {
                let items: Result<Vec<V>, _> = unwrap_or_clone(items).into_iter().flat_map(|x| f(V(x))).collect();
                Ok(items?.into_iter().collect())
            }
            Val::Obj(map) => {
                let mut out = Map::default();
                for (key, value) in unwrap_or_clone(map) {
                    if let Some(y) = f(V(value)).next() {
                        out.insert(key, nestable(y?.0));
                    }
                }
                Ok(V(Val::obj(out)))
            }
            Val::Null => Ok(V(Val::Null)),
            other => opt.fail(V(other), |v| Exn::from(jaq_core::Error::typ(v, "iterable (array or object)"))),
        }
    }

    fn map_index<'a, I: Iterator<Item = ValX<'a, V>>>(
        self,
        index: &V,
        opt: jaq_core::path::Opt,
        f: impl Fn(V) -> I,
    ) -> ValX<'a, V> {
        let target = match (self.0, &index.0) {
            (Val::Null, Val::TStr(_) | Val::BStr(_)) => Val::obj(Map::default()),
            (Val::Null, Val::Num(_) | Val::Obj(_)) => Val::Arr(Rc::new(Vec::new())),
            (target, _) => target,
        };
        match (target, &index.0) {
            (Val::Obj(map), Val::TStr(_) | Val::BStr(_)) => {
                let before = container_bytes(&Val::Obj(map.clone()));
                let mut map = unwrap_or_clone(map);
                // Taken out rather than cloned, so that an update deeper
                // down (`.a[$k] = v`) finds it unshared and grows it in place.
                let old = map.get_mut(&index.0).map(std::mem::take);
                let present = old.is_some();
                let key_bytes = VALUE_BYTES + string_bytes(&index.0).map_or(0, <[u8]>::len);
                let old_bytes = old.as_ref().map_or(0, |old| key_bytes + value_bytes(old));
                let mut after = before.saturating_sub(old_bytes);
                match f(V(old.unwrap_or_default())).next().transpose()? {
                    Some(y) => {
                        let room = memory_budget().saturating_sub(after.saturating_add(key_bytes));
                        let (y, bytes) = nestable_sized(y.0, room);
                        if bytes > room {
                            return Err(Exn::from(memory_error::<()>("an object").unwrap_err()));
                        }
                        after = after.saturating_add(key_bytes + bytes);
                        map.insert(index.0.clone(), y);
                    }
                    None if present => {
                        map.shift_remove(&index.0);
                    }
                    None => {}
                }
                let result = Val::obj(map);
                grown(&result, after);
                Ok(V(result))
            }
            (Val::Arr(items), Val::Obj(bounds)) => {
                let start = bounds.get(&str_val("start")).cloned().map(V);
                let end = bounds.get(&str_val("end")).cloned().map(V);
                V(Val::Arr(items)).map_range(start.as_ref()..end.as_ref(), opt, f)
            }
            (Val::Arr(items), Val::Num(_)) => {
                let Some(i) = index_of(&index.0) else {
                    return opt.fail(V(Val::Arr(items)), |v| Exn::from(jaq_core::Error::index(v, index.clone())));
                };
                let before = container_bytes(&Val::Arr(items.clone()));
                let mut items = unwrap_or_clone(items);
                let at = if i < 0 { i + items.len() as isize } else { i };
                if at < 0 {
                    return Err(Exn::from(jaq_core::Error::<V>::str("Out of bounds negative array index")));
                }
                let at = at as usize;
                if at >= MAX_PADDED_LEN {
                    return Err(Exn::from(jaq_core::Error::<V>::str("Array index too large")));
                }
                let present = at < items.len();
                let old = items.get_mut(at).map(std::mem::take).unwrap_or_default();
                let old_bytes = if present { value_bytes(&old) } else { 0 };
                let padding = (at + 1).saturating_sub(items.len()) * VALUE_BYTES;
                let mut after = before.saturating_sub(old_bytes).saturating_add(padding);
                match f(V(old)).next().transpose()? {
                    Some(y) => {
                        let room = memory_budget().saturating_sub(after);
                        let (y, bytes) = nestable_sized(y.0, room);
                        if bytes > room {
                            return Err(Exn::from(memory_error::<()>("an array").unwrap_err()));
                        }
                        if !present {
                            items.resize(at + 1, Val::Null);
                        }
                        after = after.saturating_add(bytes).saturating_sub(if present { 0 } else { VALUE_BYTES });
                        items[at] = y;
                    }
                    None if present => {
                        items.remove(at);
                    }
                    None => {}
                }
                let result = Val::Arr(Rc::new(items));
                grown(&result, after);
                Ok(V(result))
            }
            (target, _) => opt.fail(V(target), |v| Exn::from(jaq_core::Error::index(v, index.clone()))),
        }
    }

    fn map_range<'a, I: Iterator<Item = ValX<'a, V>>>(
        self,
        range: jaq_core::val::Range<&V>,
        opt: jaq_core::path::Opt,
        f: impl Fn(V) -> I,
    ) -> ValX<'a, V> {
        let items = match self.0 {
            Val::Arr(items) => unwrap_or_clone(items),
            Val::Null => Vec::new(),
            other => return opt.fail(V(other), |v| Exn::from(jaq_core::Error::typ(v, "array"))),
        };
        let len = items.len() as isize;
        let bound = |b: Option<&V>, default: isize| -> Result<usize, Exn<'a, V>> {
            let i = match b.map(|v| &v.0) {
                None | Some(Val::Null) => default,
                Some(v) => index_of(v).ok_or_else(|| {
                    Exn::from(jaq_core::Error::<V>::str("Start and end indices of an array slice must be numbers"))
                })?,
            };
            let i = if i < 0 { i + len } else { i };
            Ok(i.clamp(0, len) as usize)
        };
        let start = bound(range.start, 0)?;
        let end = bound(range.end, len)?.max(start);
        let slice: V = items[start..end].iter().cloned().map(V).collect();
        let mut items = items;
        match f(slice).next().transpose()? {
            Some(V(Val::Arr(new))) => {
                items.splice(start..end, unwrap_or_clone(new).into_iter().map(nestable));
            }
            Some(other) => {
                return Err(Exn::from(jaq_core::Error::<V>::str(format!(
                    "A slice of an array can only be assigned another array, not {}",
                    type_name(&other.0)
                ))))
            }
            None => {
                items.drain(start..end);
            }
        }
        Ok(V(Val::Arr(Rc::new(items))))
    }

    fn as_bool(&self) -> bool {
        poll();
        jaq_core::ValT::as_bool(&self.0)
    }

    fn into_string(self) -> V {
        V(jaq_core::ValT::into_string(self.0))
    }
}

impl jaq_std::ValT for V {
    fn into_seq<S: FromIterator<Self>>(self) -> Result<S, Self> {
        match self.0 {
            Val::Arr(items) => Ok(unwrap_or_clone(items).into_iter().map(V).collect()),
            other => Err(V(other)),
        }
    }

    fn is_int(&self) -> bool {
        jaq_std::ValT::is_int(&self.0)
    }

    fn as_isize(&self) -> Option<isize> {
        jaq_std::ValT::as_isize(&self.0)
    }

    fn as_f64(&self) -> Option<f64> {
        jaq_std::ValT::as_f64(&self.0)
    }

    fn is_utf8_str(&self) -> bool {
        jaq_std::ValT::is_utf8_str(&self.0)
    }

    fn as_bytes(&self) -> Option<&[u8]> {
        jaq_std::ValT::as_bytes(&self.0)
    }

    fn as_sub_str(&self, sub: &[u8]) -> Self {
        V(jaq_std::ValT::as_sub_str(&self.0, sub))
    }

    fn from_utf8_bytes(b: impl AsRef<[u8]> + Send + 'static) -> Self {
        V(<Val as jaq_std::ValT>::from_utf8_bytes(b))
    }
}

/// `length`, as jq: the absolute value of a number, the characters of a string.
pub(super) fn length(value: &Val) -> Result<Val, String> {
    Ok(match value {
        Val::Null => Val::from(0usize),
        Val::Bool(_) => return Err(format!("{} ({}) has no length", type_name(value), truncated(value))),
        Val::Num(Num::Int(i)) => Val::from(i.unsigned_abs()),
        Val::Num(_) => match jaq_std::ValT::as_f64(value) {
            Some(f) if f < 0.0 => Val::from(-f),
            _ => value.clone(),
        },
        Val::TStr(s) | Val::BStr(s) => Val::from(String::from_utf8_lossy(s).chars().count()),
        Val::Arr(items) => Val::from(items.len()),
        Val::Obj(map) => Val::from(map.len()),
    })
}

/// jq's `contains`.
pub(super) fn contains(a: &Val, b: &Val) -> Result<bool, String> {
    match (a, b) {
        (Val::Obj(a), Val::Obj(b)) => {
            for (key, bv) in b.iter() {
                match a.get(key) {
                    Some(av) if contains(av, bv)? => {}
                    _ => return Ok(false),
                }
            }
            Ok(true)
        }
        (Val::Arr(a), Val::Arr(b)) => {
            for bv in b.iter() {
                let mut found = false;
                for av in a.iter() {
                    if contains(av, bv)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (Val::TStr(a) | Val::BStr(a), Val::TStr(b) | Val::BStr(b)) => Ok(memchr::memmem::find(a, b).is_some()),
        _ if type_name(a) == type_name(b) => Ok(a == b),
        _ => Err(format!(
            "{} ({}) and {} ({}) cannot have their containment checked",
            type_name(a),
            truncated(a),
            type_name(b),
            truncated(b)
        )),
    }
}

/// jq's `has`.
pub(super) fn has(value: &Val, key: &Val) -> Result<bool, String> {
    match (value, key) {
        (Val::Obj(map), Val::TStr(_) | Val::BStr(_)) => Ok(map.contains_key(key)),
        (Val::Arr(items), Val::Num(_)) => Ok(index_of(key).is_some_and(|i| i >= 0 && (i as usize) < items.len())),
        _ => Err(format!("Cannot check whether {} has a {} key", type_name(value), type_name(key))),
    }
}

/// jq's `indices` (`_indices`): positions of a substring, a sub-array or an element.
pub(super) fn indices(value: &Val, x: &Val) -> Result<Val, String> {
    let found: Vec<usize> = match (value, x) {
        (Val::Null, _) | (_, Val::Null) => return Ok(Val::Null),
        (Val::TStr(s) | Val::BStr(s), Val::TStr(t) | Val::BStr(t)) => {
            if t.is_empty() {
                Vec::new()
            } else {
                let text = String::from_utf8_lossy(s);
                let needle = String::from_utf8_lossy(t);
                // Positions in characters, counted as the scan goes (once
                // counted from the start for each match: quadratic).
                let mut found = Vec::new();
                for (chars, (at, _)) in text.char_indices().enumerate() {
                    if text[at..].starts_with(&*needle) {
                        if (found.len() + 1) * VALUE_BYTES > memory_budget() {
                            too_big("an array");
                            return Err("memory limit reached (an array too large)".into());
                        }
                        found.push(chars);
                    }
                }
                found
            }
        }
        (Val::Arr(items), Val::Arr(sub)) => {
            if sub.is_empty() {
                Vec::new()
            } else {
                items.windows(sub.len()).enumerate().filter(|(_, w)| *w == &sub[..]).map(|(i, _)| i).collect()
            }
        }
        (Val::Arr(items), x) => items.iter().enumerate().filter(|(_, item)| *item == x).map(|(i, _)| i).collect(),
        _ => return Err(format!("Cannot determine indices of {} in {}", type_name(x), type_name(value))),
    };
    Ok(Val::Arr(Rc::new(found.into_iter().map(Val::from).collect())))
}
