//! `jq`: the jq 1.7 command line, over jaq (jaq-core's parser, compiler and
//! interpreter, jaq-std's and jaq-json's definitions) as the engine.
//!
//! What is ours rather than jaq's, so that the output is jq's: reading the
//! input (an iterative JSON parser that refuses nesting deeper than
//! [`MAX_DEPTH`], jq's messages and `(at <stdin>:N)` line numbers), printing
//! (jq's indentation, number format and string escapes), `tostring`,
//! `tojson`, `fromjson`, string interpolation, the `@` formats, regular
//! expressions (over the `regex` crate), dates, math, `range`, `repeat`,
//! `recurse`, `while`, `until`, `from_entries`, `walk`, `join`, `env`.
//!
//! Differences from jq 1.7, on purpose or not yet done:
//! - `$ENV` and `env` hold only the shell variables whose names appear in the
//!   filter (the shell cannot list its exported variables to a command).
//! - `localtime`, `strflocaltime` and `mktime` work in UTC; `strftime` and
//!   `strptime` know the common conversions (`%Y %m %d %H %M %S %j %a %b %Z
//!   %z %e %T %D %F %s %%` and a few more), not every one of glibc's.
//! - Input nested deeper than 512 levels is refused (jq allows 10000), and
//!   so is building a value deeper than that (`Exceeds depth limit of 512
//!   building a value`): jaq recurses on the native stack over values.
//! - jaq also recurses on the native stack for each call of a jq function
//!   that is not a tail call: a run may use 1 MiB of stack past where it
//!   began, then fails with `Exceeds the stack budget (recursion too deep)`
//!   (some hundreds of levels in a release build, about 40 in a debug
//!   build), so that `def f: 1 + f; f` cannot overflow the host's stack.
//! - Integer arithmetic is exact past 2^53 (jq rounds to doubles).
//! - `limit` with a negative count gives nothing (jq 1.7 gives everything),
//!   and `?//` (destructuring alternatives) and `$__loc__` are not known.
//! - Error messages follow jq's wording for the common cases (indexing,
//!   iterating, arithmetic, `length`, JSON parse errors); others are jaq's.
//! - Regular expressions are the `regex` crate's syntax, not Oniguruma's
//!   (no look-around, no backreferences).
//! - `--stream`, `--seq`, `-C` (colour), `-L` and modules are not supported.
//! - Invalid JSON input ends the run with `jq: parse error: …` and status 5,
//!   as jq 1.7 does (jq 1.6 used 2 or 4).
//! - Generators (`range`, `repeat`, `recurse`, `while`, `until`, `inputs`)
//!   call the shell's check on every value and stop after 10 million values
//!   (the loop-iteration limit); loops inside jaq (`.[]`, `[…]`, `if`) run
//!   it every 1,024 steps.
//! - No value may hold more than the run's memory budget (see "The memory
//!   budget" below): `"a" * 1e9`, doubling a string, `[range(1e9)]` end
//!   with the shell's memory limit before the value is built.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;

use jaq_core::box_iter::box_once;
use jaq_core::load::{self, Arena, File, Loader};
use jaq_core::native::{run, v, Fun};
use jaq_core::{Bind, Compiler, Ctx, Cv as JCv, DataT, Exn, ValX, ValXs, Vars};
use jaq_json::{Map, Num, Rc, Val};
use jaq_std::input::{HasInputs, Inputs, RcIter};
use jaq_std::ValT as _;

use crate::shell::command::{CommandFn, Context};
use crate::shell::LimitHit;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("jq", jq_command)];

/// The deepest nesting of arrays and objects jq reads or prints.
const MAX_DEPTH: usize = 512;

/// Values the checked generators may produce in one `jq` run.
const GENERATOR_BUDGET: u64 = 10_000_000;

/// Exit statuses, as jq 1.7 uses them.
const STATUS_FALSE: i32 = 1;
const STATUS_USAGE: i32 = 2;
const STATUS_COMPILE: i32 = 3;
const STATUS_NO_OUTPUT: i32 = 4;
const STATUS_RUNTIME: i32 = 5;

/// The halt code a checked generator uses to unwind jaq when a limit hits.
const HALT_LIMIT: i32 = i32::MIN;

// ---------------------------------------------------------------------------
// Command line

mod args;
use args::{parse_args, Options, Parsed, Style};

mod read;
mod write;
use read::*;
use write::*;

// ---------------------------------------------------------------------------
// Error messages

mod errors;
use errors::{compile_report, line_of, load_errors, runtime_error, truncated, type_name};

// ---------------------------------------------------------------------------
// Values with jq's update semantics

/// jaq's JSON value with jq's update semantics: assigning into `null`
/// creates the object or array (`jq -n '.a.b = 1'`), and assigning past an
/// array's end pads it with nulls; jaq-json refuses both.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct V(Val);

/// The longest an array may grow by assigning past its end.
const MAX_PADDED_LEN: usize = 10_000_000;

fn conv_err(error: jaq_core::Error<Val>) -> jaq_core::Error<V> {
    jaq_core::Error::<V>::new(V(error.into_val()))
}

fn conv(result: jaq_core::ValR<Val>) -> jaq_core::ValR<V> {
    result.map(V).map_err(conv_err)
}

fn unwrap_or_clone<T: Clone>(rc: Rc<T>) -> T {
    Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone())
}

impl V {
    fn inner(&self) -> &Val {
        &self.0
    }

    fn into_inner(self) -> Val {
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
    static TOO_DEEP: Cell<bool> = const { Cell::new(false) };
}

/// A value about to be put inside an array or object: null (and the
/// [`TOO_DEEP`] flag) when that would nest deeper than [`MAX_DEPTH`], so
/// that no value deep enough to exhaust the stack (in jaq's recursive
/// comparisons and drops) is ever built; null (and the [`TOO_BIG`] flag)
/// when it holds more than the run's memory budget.
fn nestable(value: Val) -> Val {
    nestable_sized(value, memory_budget()).0
}

/// [`nestable`], with the bytes the value holds (see [`measure`]) when at
/// most `room`; past `room`, null and a count above it.
fn nestable_sized(value: Val, room: usize) -> (Val, usize) {
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

// ---------------------------------------------------------------------------
// The memory budget
//
// jaq builds strings, arrays and objects in its own code, so every place a
// value grows is checked here before (or, for collections, as) it is built:
// string `+` and `*`, array and object `+`, collecting `[…]` and `{…}`,
// assigning into an array or object, `tojson` and printing, the `@` formats
// and `indices`. A value is counted as [`measure`] does: 16 bytes for each
// value plus the bytes of every string, a shared part once for each place it
// appears (as it would print). No single value may pass the budget; a run
// that tries ends with the shell's memory limit.

/// What one value takes besides its strings' bytes (jaq's `Val` is 16 bytes).
const VALUE_BYTES: usize = 16;

thread_local! {
    /// The running filter's memory budget (the shell's `max_memory`).
    static MEMORY_BUDGET: Cell<usize> = const { Cell::new(usize::MAX) };
    /// What passed the budget, when something did: the run ends with
    /// [`LimitHit::Memory`] (checked like [`TOO_DEEP`]).
    static TOO_BIG: Cell<Option<&'static str>> = const { Cell::new(None) };
    /// The last arrays and objects grown by `+` or an assignment: (address,
    /// length, bytes), so that growing an accumulator in `reduce` (or the
    /// containers along a path into it) does not measure it again at every
    /// step.
    static LAST_GROWN: Cell<[(usize, usize, usize); GROWN_SLOTS]> = const { Cell::new([(0, 0, 0); GROWN_SLOTS]) };
    static NEXT_SLOT: Cell<usize> = const { Cell::new(0) };
}

thread_local! {
    /// The shell's check (clock, cancellation) while a `jq` runs, for the
    /// loops inside jaq that call no function of ours with the run's data
    /// (iterating `.[]`, collecting `[…]`, `if`): see [`poll`].
    static RUN_CHECK: Cell<Option<&'static dyn Fn() -> Result<(), LimitHit>>> = const { Cell::new(None) };
    /// Calls of [`poll`] since the check last ran, and the limit it hit.
    static POLLS: Cell<u32> = const { Cell::new(0) };
    static STOPPED: Cell<Option<LimitHit>> = const { Cell::new(None) };
}

/// Clears [`RUN_CHECK`] when the run ends, unwinding or not.
struct RunCheckGuard;

impl Drop for RunCheckGuard {
    fn drop(&mut self) {
        RUN_CHECK.with(|check| check.set(None));
    }
}

/// Makes `check` reachable from [`poll`] until the guard is dropped.
fn install_run_check(check: &dyn Fn() -> Result<(), LimitHit>) -> RunCheckGuard {
    // SAFETY: only the lifetime is changed. The reference is stored until
    // the returned guard is dropped (also on unwind), the guard lives in
    // `jq_command`'s frame, which `check` (borrowed from its caller)
    // outlives, and `jq` runs nothing else on this thread meanwhile.
    let check: &'static dyn Fn() -> Result<(), LimitHit> = unsafe {
        std::mem::transmute::<&dyn Fn() -> Result<(), LimitHit>, &'static dyn Fn() -> Result<(), LimitHit>>(check)
    };
    RUN_CHECK.with(|cell| cell.set(Some(check)));
    RunCheckGuard
}

/// One step of a loop inside jaq: every 1024th runs the shell's check.
/// True when the run must stop (the limit is kept in [`STOPPED`], and the
/// next [`Global::tick`] or printed value ends the run).
fn poll() -> bool {
    if STOPPED.with(Cell::get).is_some() {
        return true;
    }
    let polls = POLLS.with(|polls| {
        let next = polls.get().wrapping_add(1);
        polls.set(next);
        next
    });
    if !polls.is_multiple_of(1024) {
        return false;
    }
    let hit = RUN_CHECK.with(Cell::get).and_then(|check| check().err());
    if let Some(hit) = hit {
        STOPPED.with(|stopped| stopped.set(Some(hit)));
        return true;
    }
    false
}

/// How many grown containers [`LAST_GROWN`] remembers.
const GROWN_SLOTS: usize = 8;

fn memory_budget() -> usize {
    MEMORY_BUDGET.with(Cell::get)
}

/// Records that `what` would pass the budget.
fn too_big(what: &'static str) {
    TOO_BIG.with(|flag| {
        if flag.get().is_none() {
            flag.set(Some(what));
        }
    });
}

fn is_too_big() -> bool {
    TOO_BIG.with(|flag| flag.get().is_some())
}

/// The error a builder returns when its result would pass the budget.
fn memory_error<T>(what: &'static str) -> Result<T, jaq_core::Error<V>> {
    too_big(what);
    Err(jaq_core::Error::str(format!("memory limit reached ({what} too large)")))
}

/// Whether `value` nests containers deeper than `depth_limit`, and the
/// bytes it holds (16 for each value, plus string bytes), counted until
/// they pass `cap` (then some count above `cap`).
fn measure(value: &Val, depth_limit: usize, cap: usize) -> (bool, usize) {
    let string_len = |v: &Val| string_bytes(v).map_or(0, <[u8]>::len);
    let mut bytes = VALUE_BYTES + string_len(value);
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if bytes > cap {
            return (false, bytes);
        }
        match value {
            Val::Arr(items) if !items.is_empty() => {
                if depth >= depth_limit {
                    return (true, bytes);
                }
                for item in items.iter() {
                    bytes = bytes.saturating_add(VALUE_BYTES + string_len(item));
                    if matches!(item, Val::Arr(_) | Val::Obj(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            Val::Obj(map) if !map.is_empty() => {
                if depth >= depth_limit {
                    return (true, bytes);
                }
                for (key, item) in map.iter() {
                    bytes = bytes.saturating_add(2 * VALUE_BYTES + string_len(key) + string_len(item));
                    if matches!(item, Val::Arr(_) | Val::Obj(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            _ => {}
        }
    }
    (false, bytes)
}

/// The address and length of an array's or object's items.
fn container_key(value: &Val) -> Option<(usize, usize)> {
    match value {
        Val::Arr(items) => Some((Rc::as_ptr(items) as *const u8 as usize, items.len())),
        Val::Obj(map) => Some((Rc::as_ptr(map) as *const u8 as usize, map.len())),
        _ => None,
    }
}

/// The bytes an array or object holds: remembered for the one grown last
/// (a `reduce` accumulator), measured otherwise (up to just past the budget).
fn container_bytes(value: &Val) -> usize {
    if let Some((at, len)) = container_key(value) {
        let slots = LAST_GROWN.with(Cell::get);
        if let Some(&(_, _, bytes)) = slots.iter().find(|slot| (slot.0, slot.1) == (at, len) && at != 0) {
            return bytes;
        }
    }
    measure(value, usize::MAX, memory_budget().saturating_add(1)).1
}

/// The bytes any value holds ([`container_bytes`] for arrays and objects).
fn value_bytes(value: &Val) -> usize {
    match value {
        Val::Arr(_) | Val::Obj(_) => container_bytes(value),
        other => VALUE_BYTES + string_bytes(other).map_or(0, <[u8]>::len),
    }
}

/// Remembers the bytes of the container just grown (see [`LAST_GROWN`]).
fn grown(value: &Val, bytes: usize) {
    if let Some((at, len)) = container_key(value) {
        let mut slots = LAST_GROWN.with(Cell::get);
        // The same address again (an accumulator rebuilt in place) takes
        // its old slot; a new one the oldest.
        let slot = match slots.iter().position(|slot| slot.0 == at) {
            Some(slot) => slot,
            None => NEXT_SLOT.with(|next| {
                let slot = next.get();
                next.set((slot + 1) % GROWN_SLOTS);
                slot
            }),
        };
        slots[slot] = (at, len, bytes);
        LAST_GROWN.with(|last| last.set(slots));
    }
}

/// `a + b` for two arrays or two objects: refused before it is built when
/// the result would pass the budget.
fn add_containers(left: Val, right: Val) -> jaq_core::ValR<V> {
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
fn zero_divisor(left: &Val, right: &Val, verb: &str) -> jaq_core::Error<V> {
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
fn index_of(value: &Val) -> Option<isize> {
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
fn length(value: &Val) -> Result<Val, String> {
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
fn contains(a: &Val, b: &Val) -> Result<bool, String> {
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
fn has(value: &Val, key: &Val) -> Result<bool, String> {
    match (value, key) {
        (Val::Obj(map), Val::TStr(_) | Val::BStr(_)) => Ok(map.contains_key(key)),
        (Val::Arr(items), Val::Num(_)) => Ok(index_of(key).is_some_and(|i| i >= 0 && (i as usize) < items.len())),
        _ => Err(format!("Cannot check whether {} has a {} key", type_name(value), type_name(key))),
    }
}

/// jq's `indices` (`_indices`): positions of a substring, a sub-array or an element.
fn indices(value: &Val, x: &Val) -> Result<Val, String> {
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

// ---------------------------------------------------------------------------
// The engine: jaq with our data, natives and definitions

struct JqData;

impl DataT for JqData {
    type V<'a> = V;
    type Data<'a> = &'a Global<'a>;
}

/// What natives see while the filter runs.
struct Global<'a> {
    lut: &'a jaq_core::Lut<JqData>,
    inputs: Inputs<'a, V>,
    check: &'a dyn Fn() -> Result<(), LimitHit>,
    budget: Cell<u64>,
    /// The limit that stopped the run (the natives unwind with a halt).
    limit: &'a Cell<Option<LimitHit>>,
    /// What `debug`, `stderr` and `halt_error` wrote.
    stderr: RefCell<Vec<u8>>,
    location: &'a RefCell<Location>,
    regexes: RefCell<Vec<(String, String, std::rc::Rc<regex::bytes::Regex>)>>,
    /// Where the stack was when the run began (see [`stack_position`]).
    stack_base: usize,
}

/// How much native stack a run may use past where it began.
const STACK_BUDGET: usize = 1 << 20;

/// The address of a local: how deep the native stack is, roughly.
#[inline(never)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl<'a> jaq_core::data::HasLut<'a, JqData> for &'a Global<'a> {
    fn lut(&self) -> &'a jaq_core::Lut<JqData> {
        self.lut
    }
}

impl<'a> HasInputs<'a, V> for &'a Global<'a> {
    fn inputs(&self) -> Inputs<'a, V> {
        self.inputs
    }
}

impl Global<'_> {
    /// One step of a generator: the shell's check and the value budget.
    fn tick<'e>(&self) -> Result<(), Exn<'e, V>> {
        // A value got too deep: unwind now rather than loop on.
        if TOO_DEEP.with(Cell::get) {
            return Err(Exn::halt(HALT_LIMIT));
        }
        if is_too_big() {
            self.limit.set(Some(LimitHit::Memory));
            return Err(Exn::halt(HALT_LIMIT));
        }
        if let Some(hit) = STOPPED.with(Cell::get) {
            self.limit.set(Some(hit));
            return Err(Exn::halt(HALT_LIMIT));
        }
        // jaq recurses on the native stack for every call of a jq function:
        // refuse to go deeper than a budget rather than overflow it.
        if stack_position().abs_diff(self.stack_base) > STACK_BUDGET || crate::shell::stack::too_deep() {
            return Err(Exn::from(jaq_core::Error::str("Exceeds the stack budget (recursion too deep)")));
        }
        let left = self.budget.get();
        let hit = if left == 0 { Some(LimitHit::LoopIterations) } else { (self.check)().err() };
        self.budget.set(left.saturating_sub(1));
        match hit {
            None => Ok(()),
            Some(hit) => {
                self.limit.set(Some(hit));
                Err(Exn::halt(HALT_LIMIT))
            }
        }
    }
}

/// The run's [`Global`] from a native's context.
fn global_of<'a>(ctx: &Ctx<'a, JqData>) -> &'a Global<'a> {
    ctx.data()
}

fn fail<'a>(message: impl Into<String>) -> ValXs<'a, V> {
    box_once(Err(Exn::from(jaq_core::Error::str(message.into()))))
}

fn ok<'a>(value: Val) -> ValXs<'a, V> {
    box_once(Ok(V(value)))
}

fn text_of(value: &Val) -> Option<String> {
    string_bytes(value).map(|s| String::from_utf8_lossy(s).into_owned())
}

fn str_val(text: impl Into<String>) -> Val {
    Val::from(text.into())
}

fn tostring(value: &Val) -> Result<String, String> {
    match text_of(value) {
        Some(text) => Ok(text),
        None => to_json(value).map_err(|_| "value nested too deeply".to_string()),
    }
}

/// The jq definitions we add or replace (jq 1.7's, with checks in the
/// generators).
const PRELUDE: &str = r#"
def range($upto): range(0; $upto; 1);
def range($from; $upto): range($from; $upto; 1);
def repeat(f): def _repeat: _check | (f, _repeat); _repeat;
def getpath($p): _check | if $p == [] then . else .[$p[0]] | getpath($p[1:]) end;
def delpaths($ps): reduce ($ps | sort | reverse)[] as $p (.; getpath($p) |= empty);
def del(f): delpaths([path(f)]);
def recurse(f): def _recurse: _check | (., (f | _recurse)); _recurse;
def recurse(f; cond): def _recurse: _check | (., (f | select(cond) | _recurse)); _recurse;
def recurse: recurse(.[]?);
def while(cond; update): def _while: _check | if cond then ., (update | _while) else empty end; _while;
def until(cond; update): def _until: _check | if cond then . else (update | _until) end; _until;
def nan: _nan;
def infinite: _infinite;
def isnan: . < nan and nan < .;
def isinfinite: . == infinite or . == -infinite;
def isfinite: isnumber and (isinfinite | not);
def isnormal: isnumber and ((. == 0 or isnan or isinfinite) | not);
def finites: select(isfinite);
def normals: select(isnormal);
def tostring: _tostring;
def @text: _tostring;
def @json: tojson;
def @html: _format("html");
def @uri: _format("uri");
def @sh: _format("sh");
def @csv: _format("csv");
def @tsv: _format("tsv");
def @base64: _format("base64");
def @base64d: _format("base64d");
def @base32: _format("base32");
def @base32d: _format("base32d");
def join($x): reduce .[] as $i (null;
  (if . == null then "" else . + $x end) +
  ($i | if . == null then "" elif type == "string" then . else tojson end)) // "";
def from_entries: reduce .[] as $x ({};
  . + { ($x | if .key == null then .k // .name // .Name // .K // .Key else .key end
          | if type == "string" then . else tojson end):
        ($x | if has("value") then .value else .v end) });
def with_entries(f): to_entries | map(f) | from_entries;
def walk(f): def w: _check | if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def env: $ENV;
def leaf_paths: paths(scalars);
def flatten($d): _check | if $d < 0 then error("flatten depth must not be negative")
  else reduce .[] as $x ([]; if $x | type == "array" and $d > 0 then . + ($x | flatten($d - 1)) else . + [$x] end) end;
def flatten: flatten(1e9);
def toarray: if type == "array" then . else [.] end;
def ascii: [.] | implode;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def halt_error($code): _halt_message, halt($code);
def halt_error: halt_error(5);
def have_literal_numbers: true;
def have_decnum: false;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def localtime: gmtime;
def strflocaltime(f): strftime(f);
def sqrt: _math1("sqrt");
def cbrt: _math1("cbrt");
def fabs: _math1("fabs");
def exp: _math1("exp");
def exp2: _math1("exp2");
def exp10: _math1("exp10");
def pow10: _math1("exp10");
def expm1: _math1("expm1");
def log: _math1("log");
def log2: _math1("log2");
def log10: _math1("log10");
def log1p: _math1("log1p");
def sin: _math1("sin");
def cos: _math1("cos");
def tan: _math1("tan");
def asin: _math1("asin");
def acos: _math1("acos");
def atan: _math1("atan");
def sinh: _math1("sinh");
def cosh: _math1("cosh");
def tanh: _math1("tanh");
def asinh: _math1("asinh");
def acosh: _math1("acosh");
def atanh: _math1("atanh");
def trunc: _math1("trunc");
def rint: _math1("rint");
def nearbyint: _math1("rint");
def significand: _math1("significand");
def logb: _math1("logb");
def gamma: _math1("lgamma");
def lgamma: _math1("lgamma");
def frexp: _frexp;
def modf: _modf;
def getpath_or_null(p): getpath(p);
"#;

/// Names of jaq natives we replace with our own.
const REPLACED: &[&str] = &["range", "input", "ltrimstr", "rtrimstr", "keys_unsorted", "floor", "round", "ceil"];

fn natives() -> Vec<Fun<JqData>> {
    let vv = || -> Box<[Bind]> { [Bind::Var(()), Bind::Var(())].into() };
    let list: Vec<jaq_core::native::Filter<jaq_core::RunPtr<JqData>>> = vec![
        ("input", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let mut inputs = global.inputs;
            match inputs.next() {
                Some(Ok(value)) => box_once(Ok(value)),
                Some(Err(message)) => fail(message),
                None => fail("No more inputs"),
            }
        }),
        ("ltrimstr", v(1), |mut cv: JCv<JqData>| {
            let prefix = cv.0.pop_var().0;
            match (text_of(cv.1.inner()), text_of(&prefix)) {
                (Some(text), Some(prefix)) if text.starts_with(&prefix) => ok(str_val(&text[prefix.len()..])),
                _ => box_once(Ok(cv.1)),
            }
        }),
        ("rtrimstr", v(1), |mut cv: JCv<JqData>| {
            let suffix = cv.0.pop_var().0;
            match (text_of(cv.1.inner()), text_of(&suffix)) {
                (Some(text), Some(suffix)) if text.ends_with(&suffix) => {
                    ok(str_val(&text[..text.len() - suffix.len()]))
                }
                _ => box_once(Ok(cv.1)),
            }
        }),
        // jaq-std defines these as `0 / 0` and `1 / 0`, which jq refuses.
        ("_nan", v(0), |_cv: JCv<JqData>| ok(Val::from(f64::NAN))),
        ("_infinite", v(0), |_cv: JCv<JqData>| ok(Val::from(f64::INFINITY))),
        ("floor", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::floor)),
        ("ceil", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::ceil)),
        ("round", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::round)),
        ("keys_unsorted", v(0), |cv: JCv<JqData>| match cv.1.inner() {
            Val::Obj(map) => ok(Val::Arr(Rc::new(map.keys().cloned().collect()))),
            Val::Arr(items) => ok(Val::Arr(Rc::new((0..items.len()).map(Val::from).collect()))),
            other => fail(format!("{} ({}) has no keys", type_name(other), truncated(other))),
        }),
        ("length", v(0), |cv: JCv<JqData>| match length(cv.1.inner()) {
            Ok(value) => ok(value),
            Err(message) => fail(message),
        }),
        ("contains", v(1), |mut cv: JCv<JqData>| {
            let other = cv.0.pop_var().0;
            match contains(cv.1.inner(), &other) {
                Ok(b) => ok(Val::Bool(b)),
                Err(message) => fail(message),
            }
        }),
        ("has", v(1), |mut cv: JCv<JqData>| {
            let key = cv.0.pop_var().0;
            match has(cv.1.inner(), &key) {
                Ok(b) => ok(Val::Bool(b)),
                Err(message) => fail(message),
            }
        }),
        ("indices", v(1), |mut cv: JCv<JqData>| {
            let x = cv.0.pop_var().0;
            match indices(cv.1.inner(), &x) {
                Ok(value) => ok(value),
                Err(message) => fail(message),
            }
        }),
        ("bsearch", v(1), |mut cv: JCv<JqData>| {
            let x = cv.0.pop_var().0;
            match cv.1.inner() {
                Val::Arr(items) => {
                    let at = items.binary_search(&x).map_or_else(|i| -1 - i as isize, |i| i as isize);
                    ok(Val::from(at))
                }
                other => fail(format!("{} ({}) cannot be searched from", type_name(other), truncated(other))),
            }
        }),
        ("range", v(3), native_range),
        ("tojson", v(0), |cv: JCv<JqData>| match to_json(cv.1.inner()) {
            Ok(text) => ok(str_val(text)),
            Err(TooDeep) => fail("value nested too deeply for tojson"),
        }),
        ("_tostring", v(0), |cv: JCv<JqData>| match tostring(cv.1.inner()) {
            Ok(text) => ok(str_val(text)),
            Err(message) => fail(message),
        }),
        ("fromjson", v(0), |cv: JCv<JqData>| {
            let Some(text) = text_of(cv.1.inner()) else {
                return fail(format!(
                    "{} ({}) cannot be parsed as JSON",
                    type_name(cv.1.inner()),
                    truncated(cv.1.inner())
                ));
            };
            match parse_one(text.as_bytes()) {
                Ok(value) => ok(value),
                Err(message) => fail(format!("{message} (while parsing '{text}')")),
            }
        }),
        ("_format", v(1), |mut cv: JCv<JqData>| {
            let name = cv.0.pop_var().0;
            // A format writes at most six bytes for one (`&quot;`, `\u0000`).
            if measure(cv.1.inner(), usize::MAX, usize::MAX).1.saturating_mul(6) > memory_budget() {
                return box_once(memory_error("a formatted string").map_err(Exn::from));
            }
            match formats::format(&text_of(&name).unwrap_or_default(), cv.1.inner()) {
                Ok(value) => ok(value),
                Err(message) => fail(message),
            }
        }),
        ("matches", vv(), |cv: JCv<JqData>| regex_run(cv, false, true)),
        ("split_matches", vv(), |cv: JCv<JqData>| regex_run(cv, true, true)),
        ("split_", vv(), |cv: JCv<JqData>| regex_run(cv, true, false)),
        ("debug_empty", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = to_json(&Val::Arr(Rc::new(vec![str_val("DEBUG:"), cv.1.into_inner()]))).unwrap_or_default();
            global.stderr.borrow_mut().extend_from_slice(format!("{text}\n").as_bytes());
            Box::new(std::iter::empty())
        }),
        ("stderr_empty", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = to_json(cv.1.inner()).unwrap_or_default();
            global.stderr.borrow_mut().extend_from_slice(text.as_bytes());
            Box::new(std::iter::empty())
        }),
        ("_halt_message", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = match text_of(cv.1.inner()) {
                Some(text) => text,
                None => format!("{}\n", to_json(cv.1.inner()).unwrap_or_default()),
            };
            global.stderr.borrow_mut().extend_from_slice(text.as_bytes());
            Box::new(std::iter::empty())
        }),
        ("input_filename", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let name = global.location.borrow().name.clone();
            ok(name.map_or(Val::Null, str_val))
        }),
        ("input_line_number", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let line = global.location.borrow().line;
            ok(Val::from(line))
        }),
        ("_math1", v(1), |mut cv: JCv<JqData>| {
            let name = text_of(&cv.0.pop_var().0).unwrap_or_default();
            math1_native(cv, &name)
        }),
        ("pow", v(2), |cv: JCv<JqData>| math2_native(cv, "pow")),
        ("atan2", v(2), |cv: JCv<JqData>| math2_native(cv, "atan2")),
        ("fmin", v(2), |cv: JCv<JqData>| math2_native(cv, "fmin")),
        ("fmax", v(2), |cv: JCv<JqData>| math2_native(cv, "fmax")),
        ("fmod", v(2), |cv: JCv<JqData>| math2_native(cv, "fmod")),
        ("hypot", v(2), |cv: JCv<JqData>| math2_native(cv, "hypot")),
        ("copysign", v(2), |cv: JCv<JqData>| math2_native(cv, "copysign")),
        ("ldexp", v(2), |cv: JCv<JqData>| math2_native(cv, "ldexp")),
        ("scalbln", v(2), |cv: JCv<JqData>| math2_native(cv, "ldexp")),
        ("remainder", v(2), |cv: JCv<JqData>| math2_native(cv, "remainder")),
        ("nextafter", v(2), |cv: JCv<JqData>| math2_native(cv, "nextafter")),
        ("tgamma", v(0), |cv: JCv<JqData>| math1_native(cv, "tgamma")),
        ("ilogb", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => ok(Val::from(math1("logb", x) as isize)),
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("escape_html", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "html")),
        ("unescape_html", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "htmld")),
        ("encode_uri", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "uri")),
        ("decode_uri", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "urid")),
        ("encode_base64", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "base64")),
        ("decode_base64", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "base64d")),
        ("todateiso8601", v(0), |cv: JCv<JqData>| match time::strftime(cv.1.inner(), "%Y-%m-%dT%H:%M:%SZ") {
            Ok(text) => ok(str_val(text)),
            Err(message) => fail(message),
        }),
        ("fromdateiso8601", v(0), |cv: JCv<JqData>| {
            let Some(text) = text_of(cv.1.inner()) else {
                return fail("strptime/1 requires string inputs and arguments");
            };
            let format = "%Y-%m-%dT%H:%M:%SZ";
            match time::strptime(&text, format).map(|fields| time::mktime(&fields)) {
                Some(Ok(secs)) => ok(Val::from(secs as isize)),
                Some(Err(message)) => fail(message),
                None => fail(format!("date \"{text}\" does not match format \"{format}\"")),
            }
        }),
        ("_frexp", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => {
                let (m, e) = frexp(x);
                ok(Val::Arr(Rc::new(vec![Val::from(m), Val::from(e as isize)])))
            }
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("_modf", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => {
                let int = x.trunc();
                let frac = if x.is_infinite() { 0.0f64.copysign(x) } else { x - int };
                ok(Val::Arr(Rc::new(vec![Val::from(frac), Val::from(int)])))
            }
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("now", v(0), |_cv: JCv<JqData>| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            ok(Val::from(now.map_or(0.0, |d| d.as_secs_f64())))
        }),
        ("mktime", v(0), |cv: JCv<JqData>| match time::mktime(cv.1.inner()) {
            Ok(secs) => ok(Val::from(secs as isize)),
            Err(message) => fail(message),
        }),
        ("gmtime", v(0), |cv: JCv<JqData>| match cv.1.as_f64().map(time::gmtime) {
            Some(Ok(value)) => ok(value),
            Some(Err(message)) => fail(message),
            None => fail("gmtime() requires a number"),
        }),
        ("strftime", v(1), |mut cv: JCv<JqData>| {
            let format = cv.0.pop_var().0;
            let Some(format) = text_of(&format) else {
                return fail("strftime/1 requires a string format");
            };
            match time::strftime(cv.1.inner(), &format) {
                Ok(text) => ok(str_val(text)),
                Err(message) => fail(message),
            }
        }),
        ("strptime", v(1), |mut cv: JCv<JqData>| {
            let format = cv.0.pop_var().0;
            let (Some(text), Some(format)) = (text_of(cv.1.inner()), text_of(&format)) else {
                return fail("strptime/1 requires string inputs and arguments");
            };
            match time::strptime(&text, &format) {
                Some(value) => ok(value),
                None => fail(format!("date \"{text}\" does not match format \"{format}\"")),
            }
        }),
    ];
    let mut funs: Vec<Fun<JqData>> = list.into_iter().map(run::<JqData>).collect();
    // `_check` passes its input through, also as a path and in updates, so
    // that it can open every function body (see `rewrite_filter`).
    let check = jaq_core::Native::new(|cv| {
        let global = global_of(&cv.0);
        box_once(global.tick().map(|()| cv.1))
    })
    .with_paths(|cv| {
        let global = global_of(&cv.0);
        box_once(global.tick().map(|()| cv.1))
    })
    .with_update(|cv, update| {
        let global = global_of(&cv.0);
        match global.tick() {
            Ok(()) => update(cv.1),
            Err(exn) => box_once(Err(exn)),
        }
    });
    funs.push(("_check", v(0), check));
    funs
}

/// `floor`, `ceil`, `round`: an integer when it fits, else the double (jaq
/// would make a 300-digit integer of `1e300 | floor`).
fn rounding<'a>(value: &Val, f: fn(f64) -> f64) -> ValXs<'a, V> {
    if jaq_std::ValT::is_int(value) {
        return ok(value.clone());
    }
    match jaq_std::ValT::as_f64(value) {
        Some(x) => {
            let y = f(x);
            if y.is_finite() && y.abs() < 9.0e18 {
                ok(Val::from(y as isize))
            } else {
                ok(Val::from(y))
            }
        }
        None => fail(format!("{} ({}) number required", type_name(value), truncated(value))),
    }
}

fn math1_native<'a>(cv: JCv<'a, JqData>, name: &str) -> ValXs<'a, V> {
    match cv.1.as_f64() {
        Some(x) => ok(Val::from(math1(name, x))),
        None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
    }
}

fn math2_native<'a>(mut cv: JCv<'a, JqData>, name: &str) -> ValXs<'a, V> {
    let b = cv.0.pop_var().0;
    let a = cv.0.pop_var().0;
    match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) => ok(Val::from(math2(name, a, b))),
        _ => fail(format!("{name}/2 requires numbers")),
    }
}

fn format_native<'a>(value: &Val, name: &str) -> ValXs<'a, V> {
    match formats::format(name, value) {
        Ok(value) => ok(value),
        Err(message) => fail(message),
    }
}

/// `range($from; $upto; $by)`, checked on every value.
fn native_range(mut cv: JCv<JqData>) -> ValXs<V> {
    let by = cv.0.pop_var().0;
    let upto = cv.0.pop_var().0;
    let from = cv.0.pop_var().0;
    let global: &Global = cv.0.data();
    let ints = (from.as_isize(), upto.as_isize(), by.as_isize());
    if let (Some(from), Some(upto), Some(by)) = ints {
        let mut next = Some(from);
        return Box::new(std::iter::from_fn(move || {
            let current = next?;
            let more = if by > 0 { current < upto } else { by < 0 && current > upto };
            if !more {
                return None;
            }
            let step = global.tick();
            next = if step.is_ok() { current.checked_add(by) } else { None };
            Some(step.map(|()| V::from(current)))
        }));
    }
    let (Some(from), Some(upto), Some(by)) = (from.as_f64(), upto.as_f64(), by.as_f64()) else {
        return fail("Range bounds must be numeric");
    };
    let mut current = from;
    let mut stopped = false;
    Box::new(std::iter::from_fn(move || {
        let more = if by > 0.0 { current < upto } else { by < 0.0 && current > upto };
        if stopped || !more {
            return None;
        }
        let value = current;
        current += by;
        let step = global.tick();
        stopped = step.is_err();
        Some(step.map(|()| V::from(value)))
    }))
}

fn math1(name: &str, x: f64) -> f64 {
    match name {
        "sqrt" => x.sqrt(),
        "cbrt" => x.cbrt(),
        "fabs" => x.abs(),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "exp10" => 10f64.powf(x),
        "expm1" => x.exp_m1(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "log1p" => x.ln_1p(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "asinh" => x.asinh(),
        "acosh" => x.acosh(),
        "atanh" => x.atanh(),
        "trunc" => x.trunc(),
        "rint" => x.round_ties_even(),
        "significand" => {
            if x == 0.0 || !x.is_finite() {
                x
            } else {
                frexp(x).0 * 2.0
            }
        }
        "logb" => {
            if x == 0.0 {
                f64::NEG_INFINITY
            } else if !x.is_finite() {
                x.abs()
            } else {
                (frexp(x).1 - 1) as f64
            }
        }
        "lgamma" => lgamma(x),
        "tgamma" => lgamma(x).exp() * if x < 0.0 && (x.floor() as i64) % 2 != 0 { -1.0 } else { 1.0 },
        _ => f64::NAN,
    }
}

fn math2(name: &str, a: f64, b: f64) -> f64 {
    match name {
        "pow" => a.powf(b),
        "atan2" => a.atan2(b),
        "fmin" => a.min(b),
        "fmax" => a.max(b),
        "fmod" => a % b,
        "hypot" => a.hypot(b),
        "copysign" => a.copysign(b),
        "ldexp" => a * 2f64.powf(b.trunc()),
        "remainder" => a - b * (a / b).round_ties_even(),
        "nextafter" => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                b
            } else if a == 0.0 {
                f64::from_bits(1).copysign(b)
            } else {
                let bits = a.to_bits();
                let away = (b > a) == (a > 0.0);
                f64::from_bits(if away { bits + 1 } else { bits - 1 })
            }
        }
        _ => f64::NAN,
    }
}

/// Mantissa in [0.5, 1) and exponent, as C's frexp.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale up first.
        let (m, e) = frexp(x * 2f64.powi(54));
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// ln|Γ(x)| by the Lanczos approximation.
fn lgamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let s = (std::f64::consts::PI * x).sin().abs();
        return std::f64::consts::PI.ln() - s.ln() - lgamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

// ---------------------------------------------------------------------------
// Regular expressions (after jaq-std's regex module, over the `regex` crate)

mod matching;
use matching::regex_run;

// ---------------------------------------------------------------------------
// The `@` formats

mod formats;

// ---------------------------------------------------------------------------
// Dates, in UTC

mod time;

// ---------------------------------------------------------------------------
// Bounding the filter's nesting

mod filter;
use filter::{env_object, nesting_bound, rewrite_filter, MAX_FILTER_NESTING};

// ---------------------------------------------------------------------------
// The command

/// `jq [OPTIONS] FILTER [FILES...]`.
fn jq_command(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    TOO_DEEP.with(|flag| flag.set(false));
    TOO_BIG.with(|flag| flag.set(None));
    LAST_GROWN.with(|last| last.set([(0, 0, 0); GROWN_SLOTS]));
    MEMORY_BUDGET.with(|budget| budget.set(ctx.max_memory));
    STOPPED.with(|stopped| stopped.set(None));
    let _run_check = install_run_check(ctx.check);
    // jaq is a third-party interpreter: should it panic on some filter, the
    // script gets an error instead of the host losing its thread.
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| jq_main(ctx, args)));
    let result = match run {
        Ok(result) => result,
        Err(_) => {
            ctx.stderr.write_str("jq: error: internal error in the jq engine\n")?;
            Ok(STATUS_RUNTIME)
        }
    };
    // A loop inside jaq ran out of time (or was cancelled): whatever it
    // left unfinished is not shown as a result.
    if let Some(hit) = STOPPED.with(|stopped| stopped.take()) {
        if result.is_ok() {
            return Err(hit);
        }
    }
    // A value that would have passed the memory budget ends the script,
    // whatever caught the error on the way (`try`, `?`, `//`).
    if let Some(what) = TOO_BIG.with(|flag| flag.take()) {
        if !matches!(result, Err(LimitHit::WallTime | LimitHit::Cancelled | LimitHit::Output)) {
            let budget = ctx.max_memory;
            ctx.stderr.write_str(&format!("jq: error: {what} would pass the memory budget of {budget} bytes\n"))?;
            return Err(LimitHit::Memory);
        }
    }
    result
}

fn jq_main(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let opts = match parse_args(ctx, args)? {
        Parsed::Run(opts) => opts,
        Parsed::Exit(status) => return Ok(status),
    };
    let shown = opts.filter.clone().unwrap_or_else(|| ".".into());
    // jaq's parser, compiler and interpreter recurse once per level of the
    // filter, and none of them bounds it: refuse what could nest deeper
    // than the stack holds before handing it over.
    if nesting_bound(&shown) > MAX_FILTER_NESTING {
        ctx.stderr.write_str(&format!(
            "jq: error: the filter nests too deeply (more than {MAX_FILTER_NESTING} operators and brackets)\n"
        ))?;
        return Ok(STATUS_COMPILE);
    }
    let code = rewrite_filter(&shown);

    // Global variables: $ENV, $__prog_args-free $ARGS, and the named ones.
    let mut named_map = Map::default();
    for (name, value) in &opts.named {
        named_map.insert(str_val(name.clone()), value.clone());
    }
    let mut args_map = Map::default();
    args_map.insert(str_val("positional"), Val::Arr(Rc::new(opts.positional.clone())));
    args_map.insert(str_val("named"), Val::obj(named_map));
    let mut globals: Vec<(String, Val)> =
        vec![("$ENV".into(), env_object(&code, ctx.var)), ("$ARGS".into(), Val::obj(args_map))];
    for (name, value) in &opts.named {
        globals.push((format!("${name}"), value.clone()));
    }

    let prelude = load::parse(PRELUDE, |p| p.defs()).unwrap_or_default();
    let defs = jaq_core::defs().chain(jaq_std::defs()).chain(jaq_json::defs()).chain(prelude);
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let modules = match loader.load(&arena, File { code: code.as_str(), path: () }) {
        Ok(modules) => modules,
        Err(errors) => {
            let errors = load_errors(&code, errors);
            ctx.stderr.write_str(&compile_report(&code, &shown, errors))?;
            return Ok(STATUS_COMPILE);
        }
    };
    let funs = jaq_core::funs::<JqData>()
        .chain(jaq_std::base_funs())
        .chain(jaq_std::input::funs::<JqData>().into_vec().into_iter().map(run::<JqData>))
        .filter(|(name, _, _)| !REPLACED.contains(name))
        .chain(natives());
    let compiler = Compiler::default().with_funs(funs).with_global_vars(globals.iter().map(|(name, _)| name.as_str()));
    let filter = match compiler.compile(modules) {
        Ok(filter) => filter,
        Err(errors) => {
            let mut list = Vec::new();
            for (_file, undefined) in errors {
                for (name, kind) in undefined {
                    let message = match kind {
                        jaq_core::compile::Undefined::Filter(arity) => format!("{name}/{arity} is not defined"),
                        jaq_core::compile::Undefined::Var => {
                            format!("${} is not defined", name.trim_start_matches('$'))
                        }
                        jaq_core::compile::Undefined::Mod => format!("module {name} is not defined"),
                        _ => format!("{name} is not defined"),
                    };
                    list.push((message, line_of(&code, name)));
                }
            }
            ctx.stderr.write_str(&compile_report(&code, &shown, list))?;
            return Ok(STATUS_COMPILE);
        }
    };

    // The input sources; a missing file is reported and skipped.
    let mut status = 0;
    let mut sources = Vec::new();
    if opts.files.is_empty() {
        // `-n` reads stdin only for `input`/`inputs`: as jq, it leaves it to
        // the next reader otherwise.
        let wanted = !opts.null_input || opts.filter.as_deref().is_some_and(|f| f.contains("input"));
        let data = if wanted { ctx.stdin.read_all().unwrap_or_default() } else { Vec::new() };
        sources.push(Source::Named("<stdin>".into(), data));
    }
    for path in &opts.files {
        match ctx.read(path) {
            Ok(bytes) => sources.push(Source::Named(path.clone(), bytes)),
            Err(err) => {
                let reason = crate::shell::command::error_reason(&err);
                ctx.stderr.write_str(&format!("jq: error: Could not open {path}: {reason}\n"))?;
                status = STATUS_USAGE;
            }
        }
    }

    let location = RefCell::new(Location::default());
    let failed = Cell::new(false);
    let limit = Cell::new(None);
    let reader = InputReader {
        sources,
        current: 0,
        pos: 0,
        lines: 0,
        counted: 0,
        raw: opts.raw_input,
        slurp: opts.slurp,
        done: false,
        location: &location,
        check: ctx.check,
        failed: &failed,
        limit: &limit,
    };
    let reader = RcIter::new(reader.map(|item| item.map(V)));
    let inputs: Inputs<V> = &reader;
    let global = Global {
        lut: &filter.lut,
        inputs,
        check: ctx.check,
        budget: Cell::new(GENERATOR_BUDGET),
        limit: &limit,
        stderr: RefCell::new(Vec::new()),
        location: &location,
        regexes: RefCell::new(Vec::new()),
        stack_base: stack_position(),
    };
    let values: Vec<V> = globals.into_iter().map(|(_, value)| V(value)).collect();

    let mut last_output: Option<bool> = None;
    let mut halted = false;
    let mut first = true;
    while !halted {
        let input = if opts.null_input {
            if !first {
                break;
            }
            V(Val::Null)
        } else {
            match { inputs }.next() {
                None => break,
                Some(Ok(value)) => value,
                Some(Err(message)) => {
                    ctx.stderr.write_str(&format!("jq: parse error: {message}\n"))?;
                    status = STATUS_RUNTIME;
                    break;
                }
            }
        };
        first = false;
        let data: &Global = &global;
        let jaq_ctx = Ctx::<JqData>::new(data, Vars::new(values.iter().cloned()));
        let outputs = filter.id.run((jaq_ctx, input));
        let outcome = run_outputs(ctx, &opts, &global, &location, outputs, &mut last_output);
        flush_stderr(ctx, &global)?;
        match outcome? {
            Outcome::Done => {}
            Outcome::Error => status = STATUS_RUNTIME,
            Outcome::Halt(code) => {
                if let Some(hit) = limit.get() {
                    return Err(hit);
                }
                status = code;
                halted = true;
            }
        }
        if let Some(hit) = limit.get() {
            return Err(hit);
        }
        if failed.get() {
            status = STATUS_RUNTIME;
        }
    }
    if let Some(hit) = limit.get() {
        return Err(hit);
    }
    if halted || status != 0 {
        return Ok(status);
    }
    if opts.exit_status {
        return Ok(match last_output {
            None => STATUS_NO_OUTPUT,
            Some(false) => STATUS_FALSE,
            Some(true) => 0,
        });
    }
    Ok(status)
}

enum Outcome {
    Done,
    Error,
    Halt(i32),
}

fn location_text(location: &RefCell<Location>) -> String {
    let location = location.borrow();
    match &location.name {
        Some(name) => format!("{name}:{}", location.line),
        None => "<unknown>".into(),
    }
}

fn flush_stderr(ctx: &mut Context<'_>, global: &Global) -> Result<(), LimitHit> {
    let pending = std::mem::take(&mut *global.stderr.borrow_mut());
    if pending.is_empty() {
        Ok(())
    } else {
        ctx.stderr.write(&pending)
    }
}

/// Prints one run's outputs; stops at its first error, as jq does.
fn run_outputs<'a>(
    ctx: &mut Context<'_>,
    opts: &Options,
    global: &Global,
    location: &RefCell<Location>,
    outputs: impl Iterator<Item = ValX<'a, V>>,
    last_output: &mut Option<bool>,
) -> Result<Outcome, LimitHit> {
    let mut text = String::new();
    let too_deep = |ctx: &mut Context<'_>| -> Result<bool, LimitHit> {
        if !TOO_DEEP.with(|flag| flag.replace(false)) {
            return Ok(false);
        }
        let at = location_text(location);
        ctx.stderr.write_str(&format!("jq: error (at {at}): Exceeds depth limit of {MAX_DEPTH} building a value\n"))?;
        Ok(true)
    };
    for output in outputs {
        (ctx.check)()?;
        flush_stderr(ctx, global)?;
        if is_too_big() {
            return Err(LimitHit::Memory);
        }
        if let Some(hit) = STOPPED.with(Cell::get) {
            return Err(hit);
        }
        if too_deep(ctx)? {
            return Ok(Outcome::Error);
        }
        match output {
            Ok(V(value)) => {
                *last_output = Some(!matches!(value, Val::Null | Val::Bool(false)));
                text.clear();
                let raw = if opts.raw_output { text_of(&value) } else { None };
                match raw {
                    Some(raw) => text.push_str(&raw),
                    None => {
                        if format_value(&mut text, &value, &opts.style, 0).is_err() {
                            if is_too_big() {
                                return Err(LimitHit::Memory);
                            }
                            let message = format!(
                                "jq: error (at {}): value nested deeper than {MAX_DEPTH} levels cannot be printed\n",
                                location_text(location)
                            );
                            ctx.stderr.write_str(&message)?;
                            drop_deep(value);
                            return Ok(Outcome::Error);
                        }
                    }
                }
                if !opts.join_output {
                    text.push('\n');
                }
                drop_deep(value);
                ctx.stdout.write_str(&text)?;
            }
            Err(exn) => match exn.get_err() {
                Ok(error) => {
                    ctx.stderr.write_str(&runtime_error(error, &location_text(location)))?;
                    return Ok(Outcome::Error);
                }
                Err(exn) => match exn.get_halt() {
                    Ok(_) if too_deep(ctx)? => return Ok(Outcome::Error),
                    Ok(code) => return Ok(Outcome::Halt(code)),
                    Err(_) => {
                        ctx.stderr.write_str("jq: error: break outside of its label\n")?;
                        return Ok(Outcome::Error);
                    }
                },
            },
        }
    }
    if too_deep(ctx)? {
        return Ok(Outcome::Error);
    }
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests;
