//! Reading JSON: jq's input parser (numbers kept as written, depth
//! bounded) and the reader of the input stream.

use super::*;

/// An iterative JSON reader, so that no input can exhaust the stack, with
/// jq's leniency (`nan`, leading zeros) and jq's error messages.
pub(super) struct JsonParser<'b> {
    buf: &'b [u8],
    pub(super) pos: usize,
}

pub(super) enum Frame {
    Arr(Vec<Val>),
    Obj(Map, Val),
}

impl<'b> JsonParser<'b> {
    pub(super) fn new(buf: &'b [u8]) -> Self {
        JsonParser { buf, pos: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// `message at line L, column C`, for an error found at byte `pos`.
    fn error_at(&self, message: &str, pos: usize) -> String {
        let pos = pos.min(self.buf.len());
        let before = &self.buf[..pos];
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let column = pos - memchr::memrchr(b'\n', before).map_or(0, |nl| nl + 1);
        format!("{message} at line {line}, column {column}")
    }

    fn eof_error(&self, what: &str) -> String {
        self.error_at(&format!("Unfinished {what} at EOF"), self.buf.len())
    }

    /// The next value of a stream, `None` at its end.
    pub(super) fn next_value(&mut self) -> Option<Result<Val, String>> {
        self.skip_ws();
        self.peek()?;
        Some(self.value())
    }

    fn value(&mut self) -> Result<Val, String> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            self.skip_ws();
            let Some(byte) = self.peek() else {
                return Err(self.eof_error("JSON term"));
            };
            let mut value = match byte {
                b'[' | b'{' => {
                    self.pos += 1;
                    self.skip_ws();
                    let close = if byte == b'[' { b']' } else { b'}' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        if byte == b'[' {
                            Val::Arr(Rc::new(Vec::new()))
                        } else {
                            Val::obj(Map::default())
                        }
                    } else {
                        if stack.len() >= MAX_DEPTH {
                            return Err(self.error_at("Exceeds depth limit for parsing", self.pos));
                        }
                        if byte == b'[' {
                            stack.push(Frame::Arr(Vec::new()));
                        } else {
                            let key = self.key()?;
                            stack.push(Frame::Obj(Map::default(), key));
                        }
                        continue;
                    }
                }
                b'"' => self.string()?,
                b']' | b'}' | b',' | b':' => {
                    self.pos += 1;
                    let message = match (byte, stack.is_empty()) {
                        (b']' | b'}', true) => format!("Unmatched '{}'", byte as char),
                        (b',', _) => "Expected value before ','".to_string(),
                        (b':', _) => "':' not as part of an object".to_string(),
                        _ => "Expected another array element".to_string(),
                    };
                    return Err(self.error_at(&message, self.pos));
                }
                _ => self.literal()?,
            };
            // A complete value: hand it to the enclosing array or object.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(value);
                };
                self.skip_ws();
                let next = self.peek();
                match frame {
                    Frame::Arr(items) => {
                        items.push(value);
                        match next {
                            Some(b',') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Arr(items)) = stack.pop() else { unreachable!() };
                                value = Val::Arr(Rc::new(items));
                            }
                            None => return Err(self.eof_error("JSON term")),
                            Some(_) => {
                                return Err(self.error_at("Expected separator between values", self.token_end() + 1))
                            }
                        }
                    }
                    Frame::Obj(map, key) => {
                        map.insert(std::mem::take(key), value);
                        match next {
                            Some(b',') => {
                                self.pos += 1;
                                *key = self.key()?;
                                break;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Obj(map, _)) = stack.pop() else { unreachable!() };
                                value = Val::obj(map);
                            }
                            None => return Err(self.eof_error("JSON term")),
                            Some(_) => {
                                return Err(self.error_at("Expected separator between values", self.token_end() + 1))
                            }
                        }
                    }
                }
            }
        }
    }

    /// An object key and its colon.
    fn key(&mut self) -> Result<Val, String> {
        self.skip_ws();
        let key = match self.peek() {
            None => return Err(self.eof_error("JSON term")),
            Some(b'"') => self.string()?,
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-') => {
                self.literal()?;
                return Err(self.error_at("Object keys must be strings", self.pos + 1));
            }
            Some(_) => return Err(self.error_at("Object keys must be strings", self.pos + 1)),
        };
        self.skip_ws();
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(key)
            }
            None => Err(self.eof_error("JSON term")),
            Some(_) => Err(self.error_at("Objects must consist of key:value pairs", self.pos + 1)),
        }
    }

    /// Where the token at `pos` ends: jq reports a missing separator once
    /// it has read the next token whole.
    fn token_end(&self) -> usize {
        let rest = &self.buf[self.pos..];
        let len = match rest.first() {
            Some(b'"') => {
                let mut i = 1;
                while i < rest.len() && rest[i] != b'"' {
                    i += if rest[i] == b'\\' { 2 } else { 1 };
                }
                i
            }
            Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-') => {
                rest.iter().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-')).count()
            }
            _ => 0,
        };
        (self.pos + len).min(self.buf.len())
    }

    /// A string, from its opening quote; invalid UTF-8 becomes U+FFFD as in jq.
    fn string(&mut self) -> Result<Val, String> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let rest = &self.buf[self.pos..];
            let Some(stop) = memchr::memchr2(b'"', b'\\', rest) else {
                return Err(self.eof_error("string"));
            };
            out.extend_from_slice(&rest[..stop]);
            self.pos += stop + 1;
            if rest[stop] == b'"' {
                break;
            }
            let Some(escape) = self.peek() else {
                return Err(self.eof_error("string"));
            };
            self.pos += 1;
            let simple = match escape {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'u' => {
                    let c = self.unicode_escape()?;
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    continue;
                }
                _ => return Err(self.error_at("Invalid escape", self.pos)),
            };
            out.push(simple);
        }
        Ok(match String::from_utf8(out) {
            Ok(text) => Val::from(text),
            Err(err) => Val::from(String::from_utf8_lossy(err.as_bytes()).into_owned()),
        })
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.buf.get(self.pos..self.pos + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        let code = u32::from_str_radix(text, 16).ok()?;
        self.pos += 4;
        Some(code)
    }

    /// The code point after `\u`, joining surrogate pairs; a lone surrogate
    /// becomes U+FFFD, as jq does.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let Some(high) = self.hex4() else {
            return Err(self.error_at("Invalid escape", self.pos));
        };
        if (0xD800..0xDC00).contains(&high) && self.buf.get(self.pos..self.pos + 2) == Some(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            match self.hex4() {
                Some(low) if (0xDC00..0xE000).contains(&low) => {
                    let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                _ => self.pos = save,
            }
        }
        Ok(char::from_u32(high).unwrap_or('\u{FFFD}'))
    }

    /// `true`, `false`, `null`, `nan` or a number.
    fn literal(&mut self) -> Result<Val, String> {
        let start = self.pos;
        while let Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'+' | b'-') = self.peek() {
            self.pos += 1;
        }
        if self.pos == start {
            self.pos += 1;
            return Err(self.error_at("Invalid literal", self.pos));
        }
        // jq checks a literal when it sees the byte after it.
        let at_eof = self.pos >= self.buf.len();
        let report = if at_eof { self.pos } else { self.pos + 1 };
        let eof = if at_eof { " at EOF" } else { "" };
        let token = &self.buf[start..self.pos];
        match token {
            b"true" => return Ok(Val::Bool(true)),
            b"false" => return Ok(Val::Bool(false)),
            b"null" => return Ok(Val::Null),
            b"nan" | b"NaN" | b"-nan" | b"-NaN" => return Ok(Val::Num(Num::Float(f64::NAN))),
            // jaq writes these in its messages, which we parse back.
            b"Infinity" => return Ok(Val::Num(Num::Float(f64::INFINITY))),
            b"-Infinity" => return Ok(Val::Num(Num::Float(f64::NEG_INFINITY))),
            _ => {}
        }
        match std::str::from_utf8(token).ok().and_then(number) {
            Some(value) => Ok(value),
            None if matches!(token[0], b't' | b'f' | b'n') => {
                Err(self.error_at(&format!("Invalid literal{eof}"), report))
            }
            None => Err(self.error_at(&format!("Invalid numeric literal{eof}"), report)),
        }
    }
}

/// A number literal as jaq holds it: integers as integers (big ones exact),
/// others as their decimal text, printed later in jq 1.7's canonical form.
pub(super) fn number(token: &str) -> Option<Val> {
    let body = token.strip_prefix('-').unwrap_or(token);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(at) => (&mantissa[..at], Some(&mantissa[at + 1..])),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let frac_ok = frac.is_none_or(digits);
    let has_digit = !int.is_empty() || frac.is_some_and(|f| !f.is_empty());
    let exp_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !(digits(int) && frac_ok && has_digit && exp_ok) {
        return None;
    }
    let negative_zero = token.starts_with('-') && token.bytes().all(|b| !(b'1'..=b'9').contains(&b));
    if frac.is_none() && exponent.is_none() && !negative_zero {
        if let Some(n) = Num::from_str_radix(token, 10) {
            return Some(Val::Num(n));
        }
    }
    Some(Val::Num(Num::Dec(Rc::new(token.to_string()))))
}

/// Exactly one JSON value (for `--argjson`, `--jsonargs`, `fromjson`).
pub(super) fn parse_one(text: &[u8]) -> Result<Val, String> {
    let mut parser = JsonParser::new(text);
    let value = match parser.next_value() {
        None => return Err("Expected JSON value".into()),
        Some(result) => result?,
    };
    parser.skip_ws();
    if parser.pos < text.len() {
        return Err("Unexpected extra JSON values".into());
    }
    Ok(value)
}

/// Where the last input value came from, for `(at <stdin>:N)`.
#[derive(Default)]
pub(super) struct Location {
    pub(super) name: Option<String>,
    pub(super) line: usize,
}

pub(super) enum Source {
    Named(String, Vec<u8>),
}

/// The stream of input values (`.` for each run of the filter, and
/// `input`/`inputs`): every file in turn, parsed lazily.
pub(super) struct InputReader<'s> {
    pub(super) sources: Vec<Source>,
    pub(super) current: usize,
    pub(super) pos: usize,
    /// Newlines counted in the current source up to `counted`.
    pub(super) lines: usize,
    pub(super) counted: usize,
    pub(super) raw: bool,
    pub(super) slurp: bool,
    pub(super) done: bool,
    pub(super) location: &'s RefCell<Location>,
    pub(super) check: &'s dyn Fn() -> Result<(), LimitHit>,
    /// A parse error ended the stream (jq then exits with status 2).
    pub(super) failed: &'s Cell<bool>,
    pub(super) limit: &'s Cell<Option<LimitHit>>,
}

impl InputReader<'_> {
    /// Counts the lines jq would have read when it finishes a value ending
    /// at `end`: jq reads a line at a time.
    fn note_line(&mut self, end: usize) {
        let Source::Named(name, data) = &self.sources[self.current];
        let target = memchr::memchr(b'\n', data.get(end..).unwrap_or_default()).map_or(data.len(), |nl| end + nl + 1);
        if target > self.counted {
            self.lines += memchr::memchr_iter(b'\n', &data[self.counted..target]).count();
            self.counted = target;
        }
        let mut location = self.location.borrow_mut();
        location.name = Some(name.clone());
        location.line = self.lines;
    }

    fn next_source(&mut self) {
        self.current += 1;
        self.pos = 0;
        self.lines = 0;
        self.counted = 0;
    }

    /// One value, or `None` when every source is read.
    fn read_one(&mut self) -> Option<Result<Val, String>> {
        while self.current < self.sources.len() {
            let Source::Named(_, data) = &self.sources[self.current];
            if self.raw {
                if self.pos >= data.len() {
                    self.next_source();
                    continue;
                }
                let rest = &data[self.pos..];
                let (line, used) = match memchr::memchr(b'\n', rest) {
                    Some(nl) => (&rest[..nl], nl + 1),
                    None => (rest, rest.len()),
                };
                let value = Val::from(String::from_utf8_lossy(line).into_owned());
                let end = self.pos + line.len();
                self.pos += used;
                self.note_line(end);
                return Some(Ok(value));
            }
            let mut parser = JsonParser { buf: data, pos: self.pos };
            match parser.next_value() {
                None => self.next_source(),
                Some(Ok(value)) => {
                    self.pos = parser.pos;
                    self.note_line(parser.pos);
                    return Some(Ok(value));
                }
                Some(Err(message)) => {
                    self.pos = parser.pos;
                    self.note_line(parser.pos);
                    self.done = true;
                    self.failed.set(true);
                    return Some(Err(message));
                }
            }
        }
        None
    }
}

impl Iterator for InputReader<'_> {
    type Item = Result<Val, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Err(hit) = (self.check)() {
            self.limit.set(Some(hit));
            self.done = true;
            return None;
        }
        if !self.slurp {
            return self.read_one();
        }
        self.done = true;
        if self.raw {
            let mut text = Vec::new();
            for Source::Named(_, data) in &self.sources {
                text.extend_from_slice(data);
            }
            if let Some(Source::Named(name, data)) = self.sources.last() {
                let mut location = self.location.borrow_mut();
                location.name = Some(name.clone());
                location.line = memchr::memchr_iter(b'\n', data).count();
            }
            return Some(Ok(Val::from(String::from_utf8_lossy(&text).into_owned())));
        }
        let mut items = Vec::new();
        loop {
            match self.read_one() {
                None => break,
                Some(Ok(value)) => items.push(value),
                Some(Err(message)) => return Some(Err(message)),
            }
            if let Err(hit) = (self.check)() {
                self.limit.set(Some(hit));
                return None;
            }
        }
        Some(Ok(Val::Arr(Rc::new(items))))
    }
}
