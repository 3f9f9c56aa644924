//! The arguments as the validator reads them: one flat array of entries over
//! the JSON text, made in one pass without recursion, with strings and
//! numbers left in the text (borrowed, decoded only when they hold escapes).
//!
//! `jsonschema` validates any representation that implements its `json`
//! traits; this one costs one allocation (the entry array, reused per
//! thread) where `serde_json::Value` costs one per key, string and number
//! (and, with `arbitrary_precision`, a slow path for every number). The
//! entries come from the syntax check itself ([`crate::json::check_with`]
//! and [`crate::json::scan_value`] tell a [`Builder`] each token they
//! accept), so the text is read once.

use std::borrow::Cow;

use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema::JsonType;
use serde_json::Value;

use crate::json::{self, decode_string};

/// What kind of value an entry holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Kind {
    #[default]
    Null,
    False,
    True,
    Number,
    String,
    Array,
    Object,
}

/// One value (or one object key) of the document.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry {
    pub(crate) kind: Kind,
    /// A string that holds escapes, so must be decoded before use.
    pub(crate) escaped: bool,
    /// Where the value's text starts (its quote or bracket included).
    pub(crate) start: u32,
    /// Where the value's text ends (after its quote or bracket).
    pub(crate) end: u32,
    /// The index of the entry after this value's subtree.
    pub(crate) next: u32,
    /// Elements of an array, members of an object.
    pub(crate) count: u32,
}

/// The largest text a tape can address.
pub(crate) const MAX_LEN: usize = u32::MAX as usize;

/// Room for the entries of a text of `len` bytes, reserved once. A value
/// takes two bytes at least (`1,`). Token-dense documents (short keys,
/// small numbers: the 1 MiB bench has one entry per 4.4 bytes) need more
/// than one per eight, and a regrowth copies the whole array: room for one
/// per four bytes up front.
pub(crate) fn reserve(tape: &mut Vec<Entry>, len: usize) {
    tape.clear();
    tape.reserve(len / 4 + 8);
}

/// Fills `tape` with the entries of `text`, one JSON value of at most
/// [`MAX_LEN`] bytes, and returns whether the text is valid JSON (when not,
/// the entries are to be dropped). Object members are a key entry followed
/// by the value's subtree.
pub(crate) fn build(text: &str, tape: &mut Vec<Entry>) -> bool {
    debug_assert!(text.len() <= MAX_LEN);
    reserve(tape, text.len());
    json::scan_value(text.as_bytes(), Builder::new(tape))
}

/// Builds a tape from the scanner's tokens ([`json::Sink`]), so that the
/// syntax check and the tape are one pass over the text.
///
/// No stack of its own (a 513-level array cost a 4.6 KB memset per call,
/// more than a small document's whole build): while a container is open,
/// its entry counts its values in `count` and holds its parent's index in
/// `next`, which its closing bracket then sets to the real `next`. The
/// scanner bounds the depth and calls `close` only on an open container.
pub(crate) struct Builder<'t> {
    tape: &'t mut Vec<Entry>,
    /// The innermost open container's entry, or `NONE` at the top.
    open: u32,
}

impl<'t> Builder<'t> {
    const NONE: u32 = u32::MAX;

    /// A builder that appends to `tape` (cleared and reserved by [`reserve`]).
    pub(crate) fn new(tape: &'t mut Vec<Entry>) -> Self {
        Builder { tape, open: Self::NONE }
    }

    /// Counts one more value in the open container.
    #[inline(always)]
    fn count(&mut self) {
        if let Some(entry) = self.tape.get_mut(self.open as usize) {
            entry.count += 1;
        }
    }

    #[inline(always)]
    fn push(&mut self, kind: Kind, escaped: bool, start: usize, end: usize) {
        let next = self.tape.len() as u32 + 1;
        self.tape.push(Entry { kind, escaped, start: start as u32, end: end as u32, next, count: 0 });
    }
}

impl json::Sink for Builder<'_> {
    #[inline(always)]
    fn open(&mut self, start: usize, is_object: bool) {
        self.count();
        let kind = if is_object { Kind::Object } else { Kind::Array };
        let index = self.tape.len() as u32;
        self.tape.push(Entry { kind, start: start as u32, next: self.open, ..Entry::default() });
        self.open = index;
    }

    #[inline(always)]
    fn close(&mut self, end: usize) {
        let next = self.tape.len() as u32;
        if let Some(entry) = self.tape.get_mut(self.open as usize) {
            entry.end = end as u32;
            self.open = std::mem::replace(&mut entry.next, next);
        }
    }

    #[inline(always)]
    fn key(&mut self, start: usize, end: usize, escaped: bool) {
        self.push(Kind::String, escaped, start, end);
    }

    #[inline(always)]
    fn string(&mut self, start: usize, end: usize, escaped: bool) {
        self.count();
        self.push(Kind::String, escaped, start, end);
    }

    #[inline(always)]
    fn scalar(&mut self, kind: json::Scalar, start: usize, end: usize) {
        self.count();
        let kind = match kind {
            json::Scalar::Null => Kind::Null,
            json::Scalar::False => Kind::False,
            json::Scalar::True => Kind::True,
            json::Scalar::Number => Kind::Number,
        };
        self.push(kind, false, start, end);
    }
}

/// The representation, for `jsonschema::options_for`.
pub(crate) struct Tape;

/// One value of a document: the text, its entries, and which entry.
#[derive(Clone, Copy)]
pub(crate) struct TapeNode<'a> {
    pub(crate) text: &'a str,
    pub(crate) tape: &'a [Entry],
    pub(crate) index: u32,
}

impl<'a> TapeNode<'a> {
    /// The root of a built document.
    pub(crate) fn root(text: &'a str, tape: &'a [Entry]) -> Self {
        TapeNode { text, tape, index: 0 }
    }

    #[inline(always)]
    pub(crate) fn entry(&self) -> &'a Entry {
        &self.tape[self.index as usize]
    }

    /// The value's JSON text.
    pub(crate) fn raw(&self) -> &'a str {
        let entry = self.entry();
        &self.text[entry.start as usize..entry.end as usize]
    }

    fn at(&self, index: u32) -> Self {
        TapeNode { index, ..*self }
    }

    /// A string entry's content between its quotes, decoded.
    fn string_of(&self, entry: &Entry) -> Cow<'a, str> {
        let inside = &self.text[entry.start as usize + 1..entry.end as usize - 1];
        if entry.escaped {
            Cow::Owned(decode_string(inside))
        } else {
            Cow::Borrowed(inside)
        }
    }

    /// The child at `token` of a JSON Pointer: an object member (the last
    /// of that name) or an array element.
    pub(crate) fn child(&self, token: &str) -> Option<Self> {
        match self.entry().kind {
            Kind::Object => self.object().get(&token.into()),
            Kind::Array => {
                let wanted: usize = token.parse().ok()?;
                self.array().elements().nth(wanted)
            }
            _ => None,
        }
    }

    fn object(&self) -> TapeObject<'a> {
        TapeObject { node: *self }
    }

    fn array(&self) -> TapeArray<'a> {
        TapeArray { node: *self }
    }

    /// The subtree as a `serde_json::Value` (cold paths: messages, `enum`).
    pub(crate) fn value(&self) -> Value {
        let entry = self.entry();
        match entry.kind {
            Kind::Null => Value::Null,
            Kind::True => Value::Bool(true),
            Kind::False => Value::Bool(false),
            Kind::Number => Value::Number(number_of(self.raw())),
            Kind::String => Value::String(self.string_of(entry).into_owned()),
            Kind::Array => Value::Array(self.array().elements().map(|element| element.value()).collect()),
            Kind::Object => {
                Value::Object(self.object().members().map(|(name, value)| (name.into_owned(), value.value())).collect())
            }
        }
    }
}

/// A number literal as a `serde_json::Number`: exact with the crate's
/// `exact-numbers` feature; otherwise the nearest finite double.
fn number_of(literal: &str) -> serde_json::Number {
    literal.parse::<serde_json::Number>().ok().unwrap_or_else(|| {
        let float: f64 = literal.parse().unwrap_or(0.0);
        serde_json::Number::from_f64(float.clamp(f64::MIN, f64::MAX)).unwrap_or_else(|| 0.into())
    })
}

impl Json for Tape {
    type Node<'a> = TapeNode<'a>;
    type PreparedKey = Box<str>;
    type StringBuffer = [Entry; 1];
    const ACYCLIC: bool = true;
    // A lookup scans the members (no hash index), so one pass over an
    // object's members beats a lookup per property on all but large ones.
    const KEYS_PER_LOOKUP: usize = 0;

    fn prepare_key(key: &str) -> Box<str> {
        key.into()
    }

    fn with_string_node<T>(buffer: &mut [Entry; 1], string: &str, f: impl FnOnce(TapeNode<'_>) -> T) -> T {
        // A one-entry document over the name in quotes (`string_of` strips
        // them; the name is not escaped, so it is read as it is). Only
        // `propertyNames` comes here, once per name.
        let quoted = format!("\"{string}\"");
        buffer[0] = Entry { kind: Kind::String, escaped: false, start: 0, end: quoted.len() as u32, next: 1, count: 0 };
        let node = TapeNode { text: &quoted, tape: &buffer[..], index: 0 };
        f(node)
    }
}

/// A number of the document, as its literal.
pub(crate) struct TapeNumber<'a>(&'a str);

impl JsonNumber for TapeNumber<'_> {
    fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.parse::<f64>().ok().filter(|float| float.is_finite())
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0)
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Owned(number_of(self.0))
    }

    fn is_integer(&self) -> bool {
        if !self.0.contains(['.', 'e', 'E']) {
            return true;
        }
        jsonschema_integer(&number_of(self.0))
    }
}

/// 2020-12: a number with a zero fractional part is an integer (`1.0`).
fn jsonschema_integer(number: &serde_json::Number) -> bool {
    if number.is_i64() || number.is_u64() {
        return true;
    }
    let text = number.to_string();
    match text.parse::<f64>() {
        Ok(float) if float.is_finite() => float.fract() == 0.0,
        // Past f64's range: integral exactly when the literal's mantissa,
        // shifted by its exponent, leaves no fraction.
        _ => big_literal_is_integer(&text),
    }
}

/// Whether a decimal literal (`-1.25e400`) has no fractional part.
fn big_literal_is_integer(literal: &str) -> bool {
    let literal = literal.trim_start_matches('-');
    let (mantissa, exponent) = match literal.find(['e', 'E']) {
        Some(at) => (&literal[..at], literal[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (literal, 0),
    };
    let fraction = mantissa.split_once('.').map_or("", |(_, fraction)| fraction).trim_end_matches('0');
    (fraction.len() as i64) <= exponent
}

impl<'a> Node<'a, Tape> for TapeNode<'a> {
    type Object = TapeObject<'a>;
    type Array = TapeArray<'a>;
    type Number = TapeNumber<'a>;

    fn as_object(&self) -> Option<TapeObject<'a>> {
        (self.entry().kind == Kind::Object).then(|| self.object())
    }

    fn as_array(&self) -> Option<TapeArray<'a>> {
        (self.entry().kind == Kind::Array).then(|| self.array())
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        let entry = self.entry();
        (entry.kind == Kind::String).then(|| self.string_of(entry))
    }

    fn as_number(&self) -> Option<TapeNumber<'a>> {
        (self.entry().kind == Kind::Number).then(|| TapeNumber(self.raw()))
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.entry().kind {
            Kind::True => Some(true),
            Kind::False => Some(false),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        self.entry().kind == Kind::Null
    }

    fn is_number(&self) -> bool {
        self.entry().kind == Kind::Number
    }

    fn json_type(&self) -> JsonType {
        match self.entry().kind {
            Kind::Null => JsonType::Null,
            Kind::True | Kind::False => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
        }
    }

    fn string_length(&self) -> Option<u64> {
        let string = self.as_string()?;
        // Code points: every byte that does not continue a sequence.
        Some(string.bytes().filter(|&byte| (byte as i8) >= -0x40).count() as u64)
    }

    fn equals_value(&self, expected: &Value) -> bool {
        match (self.entry().kind, expected) {
            (Kind::String, Value::String(expected)) => self.as_string().is_some_and(|string| string == *expected),
            (Kind::String, _) => false,
            (Kind::True, Value::Bool(expected)) => *expected,
            (Kind::False, Value::Bool(expected)) => !*expected,
            (Kind::Null, Value::Null) => true,
            (Kind::Null | Kind::True | Kind::False, _) => false,
            _ => jsonschema_value_equal(&self.value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.value())
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::tagged(self.tape.as_ptr() as usize, self.index))
    }
}

/// JSON equality as `enum` and `const` mean it: numbers compare by value.
fn jsonschema_value_equal(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(left), Value::Number(right)) => {
            left == right || (left.as_f64().is_some() && left.as_f64() == right.as_f64())
        }
        (Value::Array(left), Value::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| jsonschema_value_equal(l, r))
        }
        (Value::Object(left), Value::Object(right)) => {
            left.len() == right.len()
                && left.iter().all(|(key, l)| right.get(key).is_some_and(|r| jsonschema_value_equal(l, r)))
        }
        _ => left == right,
    }
}

/// An object of the document.
#[derive(Clone, Copy)]
pub(crate) struct TapeObject<'a> {
    node: TapeNode<'a>,
}

/// The members of an object, in document order.
pub(crate) struct Members<'a> {
    node: TapeNode<'a>,
    at: u32,
    end: u32,
}

impl<'a> Iterator for Members<'a> {
    type Item = (Cow<'a, str>, TapeNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.end {
            return None;
        }
        let key = &self.node.tape[self.at as usize];
        let value = self.node.at(self.at + 1);
        self.at = value.entry().next;
        Some((self.node.string_of(key), value))
    }
}

impl<'a> Object<'a, Tape> for TapeObject<'a> {
    type Node = TapeNode<'a>;
    type MemberName = Cow<'a, str>;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.node.entry().count as usize
    }

    fn get(&self, key: &Box<str>) -> Option<TapeNode<'a>> {
        // Duplicate keys: the last one wins, as in dispatch's check.
        let mut found = None;
        let (text, tape) = (self.node.text, self.node.tape);
        let mut at = self.node.index + 1;
        let end = self.node.entry().next;
        while at < end {
            let entry = &tape[at as usize];
            let value = &tape[at as usize + 1];
            let matches = if entry.escaped {
                decode_string(&text[entry.start as usize + 1..entry.end as usize - 1]) == **key
            } else {
                text.as_bytes()[entry.start as usize + 1..entry.end as usize - 1] == *key.as_bytes()
            };
            if matches {
                found = Some(at + 1);
            }
            at = value.next;
        }
        found.map(|index| self.node.at(index))
    }

    fn members(&self) -> Members<'a> {
        Members { node: self.node, at: self.node.index + 1, end: self.node.entry().next }
    }
}

/// An array of the document.
#[derive(Clone, Copy)]
pub(crate) struct TapeArray<'a> {
    node: TapeNode<'a>,
}

/// The elements of an array, in order.
pub(crate) struct Elements<'a> {
    node: TapeNode<'a>,
    at: u32,
    end: u32,
}

impl<'a> Iterator for Elements<'a> {
    type Item = TapeNode<'a>;

    fn next(&mut self) -> Option<TapeNode<'a>> {
        if self.at >= self.end {
            return None;
        }
        let element = self.node.at(self.at);
        self.at = element.entry().next;
        Some(element)
    }
}

impl<'a> Array<'a, Tape> for TapeArray<'a> {
    type Node = TapeNode<'a>;
    type ElementsIter = Elements<'a>;

    fn len(&self) -> usize {
        self.node.entry().count as usize
    }

    fn elements(&self) -> Elements<'a> {
        Elements { node: self.node, at: self.node.index + 1, end: self.node.entry().next }
    }
}
