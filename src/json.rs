//! The strict JSON scanner behind the argument check dispatch runs before any
//! handler sees a call, and behind reading a schema's `required` list.
//!
//! Arguments must be one JSON object (RFC 8259), valid UTF-8, holding every
//! required field with a value other than `null`. Empty or whitespace-only
//! arguments count as `{}`.
//!
//! This is a small strict scanner rather than serde_json, for three measured
//! reasons: serde_json's skipping path (`IgnoredAny`) has no depth limit, its
//! typed path rejects numbers such as `1e400` that RFC 8259 allows, and both
//! allocate or convert where a yes/no verdict needs neither. The scanner
//! validates every byte, never recurses (nesting lives in a fixed bit stack,
//! so 200,000 levels cost no stack), and allocates nothing on success.

/// How deep arrays and objects may nest, the arguments object counting as 1.
/// RFC 8259 §9 lets a parser set this limit; models never come near it.
pub const MAX_DEPTH: usize = 512;

/// Checks `raw` against the rules and returns the text the handler receives:
/// the arguments verbatim, or `{}` for empty ones. On failure returns the
/// reason, written for the model.
pub(crate) fn check<'a>(raw: &'a [u8], required: &[Box<str>]) -> Result<&'a str, String> {
    if raw.iter().all(|&byte| is_whitespace(byte)) {
        Presence::new(required.len()).verdict(required)?;
        return Ok("{}");
    }
    let text = std::str::from_utf8(raw).map_err(|error| {
        format!("the arguments are not valid UTF-8 (the first invalid byte is at offset {})", error.valid_up_to())
    })?;
    let mut scanner = Scanner { text, bytes: raw, pos: 0, field_name_end: 0 };
    scanner.skip_whitespace();
    if scanner.peek() != Some(b'{') {
        return Err(scanner.describe_non_object());
    }
    let mut presence = Presence::new(required.len());
    scanner.top_level_object(required, &mut presence).map_err(not_json)?;
    scanner.skip_whitespace();
    if scanner.pos != raw.len() {
        return Err(format!(
            "more text follows the JSON object at byte {}; send exactly one JSON object",
            scanner.pos
        ));
    }
    presence.verdict(required)?;
    Ok(text)
}

/// Whether `raw` is exactly one valid JSON document of any type (used by
/// tests and fuzzing to compare the scanner with other parsers).
pub fn is_valid_json(raw: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(raw) else { return false };
    let mut scanner = Scanner { text, bytes: raw, pos: 0, field_name_end: 0 };
    scanner.value(0).is_ok() && {
        scanner.skip_whitespace();
        scanner.pos == raw.len()
    }
}

/// Reads the `required` list of a parameter schema: the string entries of
/// the top-level object's `required` array, duplicates removed, in order.
/// Valid JSON of another shape gives an empty list; text that is not JSON
/// gives the reason.
pub(crate) fn required_fields(schema: &str) -> Result<Vec<Box<str>>, String> {
    let mut scanner = Scanner { text: schema, bytes: schema.as_bytes(), pos: 0, field_name_end: 0 };
    scanner.skip_whitespace();
    let mut required = Vec::new();
    if scanner.peek() == Some(b'{') {
        scanner.schema_object(&mut required)?;
    } else {
        scanner.value(0)?;
    }
    scanner.skip_whitespace();
    if scanner.pos != schema.len() {
        return Err(format!("more text follows the JSON value at byte {}", scanner.pos));
    }
    Ok(required)
}

fn not_json(detail: String) -> String {
    format!("the arguments are not valid JSON: {detail}")
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// Bytes that may stand in a string as they are: all but `"`, `\` and the
/// control characters. Bytes of multi-byte UTF-8 sequences are plain, since
/// the text was checked to be UTF-8 before scanning.
static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0x20;
    while byte < 256 {
        table[byte] = byte != b'"' as usize && byte != b'\\' as usize;
        byte += 1;
    }
    table
};

/// A fixed stack of container kinds (object or array), one bit each, so that
/// nesting costs neither recursion nor allocation.
struct Containers {
    bits: [u64; MAX_DEPTH / 64],
    len: usize,
}

impl Containers {
    fn new() -> Self {
        Containers { bits: [0; MAX_DEPTH / 64], len: 0 }
    }

    fn push(&mut self, is_object: bool) {
        let (word, bit) = (self.len / 64, self.len % 64);
        if is_object {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
    }

    /// `Some(true)` inside an object, `Some(false)` inside an array, `None`
    /// when the value being scanned is complete.
    fn top(&self) -> Option<bool> {
        let index = self.len.checked_sub(1)?;
        Some(self.bits[index / 64] & (1 << (index % 64)) != 0)
    }
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Where the last field name's closing quote stands.
    field_name_end: usize,
}

impl<'a> Scanner<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&byte) = self.bytes.get(self.pos) {
            if !is_whitespace(byte) {
                break;
            }
            self.pos += 1;
        }
    }

    /// The reason for a syntax error at the current position.
    fn unexpected(&self, expected: &str) -> String {
        match self.text[self.pos..].chars().next() {
            None => format!("the text ends at byte {} where {expected} should follow", self.pos),
            Some(c) if c.is_control() => {
                format!("unexpected character U+{:04X} at byte {}; expected {expected}", c as u32, self.pos)
            }
            Some(c) => format!("unexpected '{c}' at byte {}; expected {expected}", self.pos),
        }
    }

    /// Scans the arguments object, recording which required fields it holds.
    fn top_level_object(&mut self, required: &[Box<str>], presence: &mut Presence) -> Result<(), String> {
        self.pos += 1; // '{'
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let key_start = self.pos + 1;
            let escaped = self.field_name()?;
            let key = &self.text[key_start..self.field_name_end];
            self.skip_whitespace();
            let is_null = self.bytes[self.pos..].starts_with(b"null");
            self.value(1)?;
            presence.record(required, key, escaped, is_null);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_whitespace();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
    }

    /// Scans a schema's top-level object, collecting its `required` names. A
    /// repeated `required` key replaces the earlier one, as duplicates do in
    /// arguments.
    fn schema_object(&mut self, required: &mut Vec<Box<str>>) -> Result<(), String> {
        self.pos += 1; // '{'
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let key_start = self.pos + 1;
            let escaped = self.field_name()?;
            let key = self.text_of(key_start, self.field_name_end, escaped);
            self.skip_whitespace();
            if key == "required" {
                required.clear();
            }
            if key == "required" && self.peek() == Some(b'[') {
                self.required_array(required)?;
            } else {
                self.value(1)?;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_whitespace();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
    }

    fn required_array(&mut self, required: &mut Vec<Box<str>>) -> Result<(), String> {
        self.pos += 1; // '['
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() == Some(b'"') {
                let start = self.pos + 1;
                let escaped = self.string()?;
                let name = self.text_of(start, self.pos - 1, escaped);
                if !required.iter().any(|seen| **seen == *name) {
                    required.push(name.into());
                }
            } else {
                self.value(2)?;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected("',' or ']'")),
            }
        }
    }

    /// The decoded text of a string whose inside spans `start..end`.
    fn text_of(&self, start: usize, end: usize, escaped: bool) -> std::borrow::Cow<'a, str> {
        let raw: &'a str = &self.text[start..end];
        if escaped {
            decode_string(raw).into()
        } else {
            raw.into()
        }
    }

    /// Scans `"name" :` and leaves the position after the colon. Returns
    /// whether the name holds escapes.
    fn field_name(&mut self) -> Result<bool, String> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a field name in double quotes"));
        }
        let escaped = self.string()?;
        self.field_name_end = self.pos - 1;
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("':'"));
        }
        self.pos += 1;
        Ok(escaped)
    }

    /// Scans one complete value of any type, without recursion. `depth` is
    /// how deep the value stands (0 for a whole document).
    fn value(&mut self, depth: usize) -> Result<(), String> {
        let mut containers = Containers::new();
        'value: loop {
            self.skip_whitespace();
            match self.peek() {
                Some(open @ (b'{' | b'[')) => {
                    if depth + containers.len + 1 > MAX_DEPTH {
                        return Err(format!("the JSON is nested deeper than {MAX_DEPTH} levels at byte {}", self.pos));
                    }
                    self.pos += 1;
                    self.skip_whitespace();
                    let close = if open == b'{' { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                    } else {
                        containers.push(open == b'{');
                        if open == b'{' {
                            self.field_name()?;
                        }
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    self.string()?;
                }
                Some(b't') => self.literal("true")?,
                Some(b'f') => self.literal("false")?,
                Some(b'n') => self.literal("null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.unexpected("a JSON value")),
            }
            // A value is complete: close containers until one wants more.
            loop {
                let Some(in_object) = containers.top() else { return Ok(()) };
                self.skip_whitespace();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if in_object {
                            self.skip_whitespace();
                            self.field_name()?;
                        }
                        continue 'value;
                    }
                    Some(b'}') if in_object => {
                        self.pos += 1;
                        containers.pop();
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        containers.pop();
                    }
                    _ => return Err(self.unexpected(if in_object { "',' or '}'" } else { "',' or ']'" })),
                }
            }
        }
    }

    /// Scans a string from its opening quote. Returns whether it holds escapes.
    fn string(&mut self) -> Result<bool, String> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        loop {
            while let Some(&byte) = self.bytes.get(self.pos) {
                if !PLAIN[byte as usize] {
                    break;
                }
                self.pos += 1;
            }
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.escape()?;
                }
                Some(_) => {
                    return Err(format!(
                        "a string holds a control character at byte {}; escape it (for example \\n)",
                        self.pos
                    ))
                }
                None => return Err(format!("the string that starts at byte {start} is not closed")),
            }
        }
    }

    fn escape(&mut self) -> Result<(), String> {
        let at = self.pos;
        match self.bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 2;
                Ok(())
            }
            Some(b'u') => match self.bytes.get(at + 2..at + 6) {
                Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => {
                    self.pos += 6;
                    Ok(())
                }
                _ => Err(format!("the escape at byte {at} needs four hex digits after \\u")),
            },
            _ => Err(format!("invalid escape at byte {at}; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")),
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), String> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, any magnitude.
    fn number(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.unexpected("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.required_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.required_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), String> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.unexpected("a digit"));
        }
        self.digits();
        Ok(())
    }

    /// The reason for arguments that do not start with `{`: a syntax error,
    /// or valid JSON of the wrong type.
    fn describe_non_object(&mut self) -> String {
        let start = self.pos;
        let kind = match self.peek() {
            Some(b'[') => "an array",
            Some(b'"') => "a string",
            Some(b't' | b'f') => "a boolean",
            Some(b'n') => "null",
            Some(b'-' | b'0'..=b'9') => "a number",
            _ => return not_json(self.unexpected("a JSON object")),
        };
        if let Err(detail) = self.value(0) {
            return not_json(detail);
        }
        self.skip_whitespace();
        if self.pos != self.bytes.len() {
            return format!("more text follows the JSON value at byte {}; send exactly one JSON object", self.pos);
        }
        if kind == "a string" && decode_string(&self.text[start + 1..self.pos - 1]).trim_start().starts_with('{') {
            return "the arguments must be a JSON object, not a string holding JSON text; send the object itself"
                .to_owned();
        }
        format!("the arguments must be a JSON object, not {kind}")
    }
}

/// Which required fields the arguments hold, and which of them are `null`.
/// The last occurrence of a duplicate key wins, as in most JSON parsers.
enum Presence {
    /// Up to 64 required fields, one bit each: no allocation.
    Small { present: u64, null: u64 },
    Large { present: Vec<bool>, null: Vec<bool> },
}

impl Presence {
    fn new(required: usize) -> Self {
        if required <= 64 {
            Presence::Small { present: 0, null: 0 }
        } else {
            Presence::Large { present: vec![false; required], null: vec![false; required] }
        }
    }

    fn record(&mut self, required: &[Box<str>], raw_key: &str, escaped: bool, is_null: bool) {
        if required.is_empty() {
            return;
        }
        let decoded;
        let key = if escaped {
            decoded = decode_string(raw_key);
            decoded.as_str()
        } else {
            raw_key
        };
        let Some(index) = required.iter().position(|name| **name == *key) else { return };
        match self {
            Presence::Small { present, null } => {
                *present |= 1 << index;
                if is_null {
                    *null |= 1 << index;
                } else {
                    *null &= !(1 << index);
                }
            }
            Presence::Large { present, null } => {
                present[index] = true;
                null[index] = is_null;
            }
        }
    }

    fn state(&self, index: usize) -> (bool, bool) {
        match self {
            Presence::Small { present, null } => (present & (1 << index) != 0, null & (1 << index) != 0),
            Presence::Large { present, null } => (present[index], null[index]),
        }
    }

    /// `Ok` when every required field is present and not null; otherwise the
    /// reason, naming each field at fault.
    fn verdict(&self, required: &[Box<str>]) -> Result<(), String> {
        let all_set = match self {
            Presence::Small { present, null } => {
                let wanted = if required.len() == 64 { u64::MAX } else { (1u64 << required.len()) - 1 };
                *present == wanted && *null == 0
            }
            Presence::Large { .. } => (0..required.len()).all(|index| self.state(index) == (true, false)),
        };
        if all_set {
            return Ok(());
        }
        let mut missing = Vec::new();
        let mut null = Vec::new();
        for (index, name) in required.iter().enumerate() {
            match self.state(index) {
                (false, _) => missing.push(&**name),
                (true, true) => null.push(&**name),
                (true, false) => {}
            }
        }
        let mut parts = Vec::new();
        if !missing.is_empty() {
            let noun = if missing.len() == 1 { "field" } else { "fields" };
            parts.push(format!("missing required {noun} {}", quote_list(&missing)));
        }
        if !null.is_empty() {
            let (noun, verb) = if null.len() == 1 { ("field", "is") } else { ("fields", "are") };
            parts.push(format!("required {noun} {} {verb} null", quote_list(&null)));
        }
        Err(parts.join("; "))
    }
}

/// `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
fn quote_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// Decodes the inside of a JSON string already checked by the scanner. A lone
/// surrogate escape (valid JSON, not valid Unicode) becomes U+FFFD.
fn decode_string(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let high = hex4(&mut chars);
                let code = if (0xD800..0xDC00).contains(&high) && chars.as_str().starts_with("\\u") {
                    let mut lookahead = chars.clone();
                    lookahead.nth(1);
                    let low = hex4(&mut lookahead);
                    if (0xDC00..0xE000).contains(&low) {
                        chars = lookahead;
                        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        high
                    }
                } else {
                    high
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn hex4(chars: &mut std::str::Chars<'_>) -> u32 {
    (0..4).fold(0, |code, _| code * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0))
}
