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
//! validates every byte, never recurses (nesting lives in a fixed stack of
//! 512 bytes, so 200,000 levels cost no stack), and allocates nothing on
//! success.
//!
//! It checks UTF-8 as it goes, in the one place other bytes than ASCII may
//! stand (inside strings), so that valid arguments are read once, not twice.
//! Any failure reports invalid UTF-8 first, wherever the scan stopped, so the
//! messages are those of a separate UTF-8 pass followed by the scan.
//!
//! Speed, on documents of many short tokens (docs/PERFORMANCE.md): inside
//! arrays and objects string ends come from a mask of the current 64-byte
//! block (SSE2 on x86_64), so a token's end does not wait on a vector load
//! at the previous token's end; whitespace costs a test only where the byte
//! read is not the one expected; and when the text ends with a closing
//! bracket, reads skip bounds checks (the proof is at `read`).

/// How deep arrays and objects may nest, the arguments object counting as 1.
/// RFC 8259 §9 lets a parser set this limit; models never come near it.
pub const MAX_DEPTH: usize = 512;

/// Checks `raw` against the rules and returns the text the handler receives:
/// the arguments verbatim, or `{}` for empty ones. On failure returns the
/// reason, written for the model.
pub(crate) fn check<'a>(raw: &'a [u8], required: &Required) -> Result<&'a str, String> {
    check_with(raw, required, NoSink)
}

/// [`check`], telling `sink` every token of valid arguments as it scans
/// them (FULL validation builds its tape this way, in the same pass). On
/// failure the sink has seen part of the text; on `{}` for empty
/// arguments it has seen nothing.
///
/// Which required fields the object holds is read off its top-level keys
/// as they pass ([`Required::position_of_key`]): a key nobody asked about
/// costs a word comparison per required name, and nothing is built.
pub(crate) fn check_with<'a, S: Sink>(raw: &'a [u8], required: &Required, sink: S) -> Result<&'a str, String> {
    if raw.iter().all(|&byte| is_whitespace(byte)) {
        Presence::new(required.len()).verdict(required)?;
        return Ok("{}");
    }
    let mut presence = Presence::new(required.len());
    if let Err(reason) = Scanner::with_sink(raw, sink).arguments(required, &mut presence) {
        return Err(match std::str::from_utf8(raw) {
            Err(error) => format!(
                "the arguments are not valid UTF-8 (the first invalid byte is at offset {})",
                error.valid_up_to()
            ),
            Ok(_) => reason,
        });
    }
    presence.verdict(required)?;
    debug_assert!(std::str::from_utf8(raw).is_ok());
    // SAFETY: the scan accepted every byte: outside strings only ASCII
    // passes, and inside strings `Scanner::string` checks each sequence of
    // non-ASCII bytes to be UTF-8.
    Ok(unsafe { std::str::from_utf8_unchecked(raw) })
}

/// A tool's required fields, prepared once at registration for the check:
/// each name with its first eight bytes as one word, so that telling a key
/// from every required name costs a word comparison per name, and only a
/// match of the word (and the length) compares the rest.
#[derive(Debug, Clone, Default)]
pub(crate) struct Required {
    names: Vec<Box<str>>,
    /// Per name: [`head`] of its bytes.
    heads: Vec<u64>,
}

impl Required {
    /// No required field.
    pub(crate) const NONE: Required = Required { names: Vec::new(), heads: Vec::new() };

    /// These names, in this order (duplicates already removed).
    pub(crate) fn new(names: Vec<Box<str>>) -> Self {
        let heads = names.iter().map(|name| head(name.as_bytes())).collect();
        Required { names, heads }
    }

    /// The names, in the schema's order.
    pub(crate) fn names(&self) -> &[Box<str>] {
        &self.names
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// Which name the unescaped key `key`, whose [`head`] is `key_head`, is.
    #[inline(always)]
    fn position(&self, key: &[u8], key_head: u64) -> Option<usize> {
        for (index, &name_head) in self.heads.iter().enumerate() {
            if name_head == key_head {
                let name = self.names[index].as_bytes();
                if name.len() == key.len() && (key.len() <= 8 || name[8..] == key[8..]) {
                    return Some(index);
                }
            }
        }
        None
    }

    /// Which name the field name at `bytes[start..end]` (inside its quotes)
    /// is, decoding it when it holds escapes.
    #[inline(always)]
    fn position_of_key(&self, bytes: &[u8], start: usize, end: usize, escaped: bool) -> Option<usize> {
        let key = &bytes[start..end];
        if escaped {
            let decoded = decode_string(&String::from_utf8_lossy(key));
            return self.names.iter().position(|name| **name == *decoded);
        }
        // A key is followed by at least `":` and a value, so its first
        // eight bytes can mostly be read as one word, masked to its length.
        let key_head = match bytes.get(start..start + 8) {
            Some(word) => {
                let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
                if key.len() >= 8 {
                    word
                } else {
                    word & ((1u64 << (8 * key.len())) - 1)
                }
            }
            None => head(key),
        };
        self.position(key, key_head)
    }
}

/// The first eight bytes of `bytes` as a little-endian word, zero padded.
fn head(bytes: &[u8]) -> u64 {
    bytes.iter().take(8).enumerate().fold(0, |word, (index, &byte)| word | u64::from(byte) << (8 * index))
}

/// Whether `raw` is exactly one valid JSON document of any type (used by
/// tests and fuzzing to compare the scanner with other parsers).
pub fn is_valid_json(raw: &[u8]) -> bool {
    scan_value(raw, NoSink)
}

/// [`is_valid_json`], telling `sink` every token as it scans.
pub(crate) fn scan_value<S: Sink>(raw: &[u8], sink: S) -> bool {
    let mut scanner = Scanner::with_sink(raw, sink);
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
    let mut scanner = Scanner::new(schema.as_bytes());
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

/// The byte at `pos`, or NUL past the end: no rule accepts NUL outside a
/// string, and inside one it stops the fast path, so the end of the text
/// needs no test of its own; the error paths read the real bytes.
#[inline(always)]
fn byte_at(bytes: &[u8], pos: usize) -> u8 {
    match bytes.get(pos) {
        Some(&byte) => byte,
        None => 0,
    }
}

/// ASCII bytes that may stand in a string as they are: all but `"`, `\` and
/// the control characters. Other bytes than ASCII are checked as UTF-8.
static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0x20;
    while byte < 0x80 {
        table[byte] = byte != b'"' as usize && byte != b'\\' as usize;
        byte += 1;
    }
    table
};

/// The byte at `pos` in the nested scan: `byte_at` when `CHECKED`, else
/// without a bounds check. Unchecked reads are sound because of when the
/// scan uses them (`Scanner::closing_bracket`): the last byte of `bytes`
/// that is not whitespace, call it L, is `}` or `]`, and the scan knows
/// where it stands. Every position the scan reads at is at most L's:
/// - right after a consumed byte other than a closing bracket: that byte is
///   not L, so it stands before L;
/// - right after a closing bracket: the scan compares the position with L's
///   before it reads (`past_last_bracket`);
/// - at the end of a run of whitespace or digits that starts at most at L:
///   the run stops at L at the latest, as L is neither.
///
/// The string and literal helpers keep their own checks (`bytes.get`,
/// `skip_plain`, `byte_at` on a string's stop).
#[inline(always)]
fn read<const CHECKED: bool>(bytes: &[u8], pos: usize) -> u8 {
    if CHECKED {
        return byte_at(bytes, pos);
    }
    debug_assert!(pos < bytes.len(), "unchecked read at {pos} of {}", bytes.len());
    // SAFETY: `pos < bytes.len()`, by the argument above.
    unsafe { *bytes.get_unchecked(pos) }
}

/// The position of the first byte at or after `pos` that is not whitespace.
#[inline(always)]
fn skip_whitespace_to<const CHECKED: bool>(bytes: &[u8], mut pos: usize) -> usize {
    while is_whitespace(read::<CHECKED>(bytes, pos)) {
        pos += 1;
    }
    pos
}

/// The position of the first byte at or after `pos` that is not a digit.
#[inline(always)]
fn digits_to<const CHECKED: bool>(bytes: &[u8], mut pos: usize) -> usize {
    while read::<CHECKED>(bytes, pos).is_ascii_digit() {
        pos += 1;
    }
    pos
}

/// What may follow a value inside an object or an array.
fn expected_after(in_object: bool) -> &'static str {
    if in_object {
        "',' or '}'"
    } else {
        "',' or ']'"
    }
}

/// Where strings stop in one 64-byte block of the text: a bit for each byte
/// `skip_plain` stops at. The nested scan keeps the block it is in, so that
/// finding a string's end is a shift and a bit scan on a mask already made,
/// rather than a load, three compares and a bit scan that each wait for the
/// previous token's end (on short tokens that wait, not the instructions,
/// is what the scan's time goes to). Blocks start at multiples of 64 from
/// the start of the text and lie wholly inside it.
struct Blocks {
    /// Where the current block starts; `Blocks::NONE` before the first.
    start: usize,
    /// Bit `i` is set when the byte at `start + i` is not plain ASCII.
    stops: u64,
}

impl Blocks {
    /// Starts no block: every offset from it is 64 or more.
    const NONE: usize = usize::MAX - 63;

    fn new() -> Self {
        Blocks { start: Self::NONE, stops: 0 }
    }

    /// The stop bits from `pos` to the end of its block, lowest first, or
    /// `None` where the block holding `pos` does not lie wholly in `bytes`.
    #[inline(always)]
    fn stops_from(&mut self, bytes: &[u8], pos: usize) -> Option<u64> {
        let mut offset = pos.wrapping_sub(self.start);
        if offset >= 64 {
            let start = pos - pos % 64;
            let block = bytes.get(start..start + 64)?;
            self.start = start;
            self.stops = plain_stops(block.try_into().ok()?);
            offset = pos - start;
        }
        Some(self.stops >> offset)
    }

    /// `skip_plain` through the blocks.
    #[inline(always)]
    fn skip_plain(&mut self, bytes: &[u8], pos: usize) -> usize {
        match self.stops_from(bytes, pos) {
            Some(0) => skip_plain(bytes, self.start + 64),
            Some(stops) => pos + stops.trailing_zeros() as usize,
            None => skip_plain(bytes, pos),
        }
    }
}

/// One bit per byte of `block` that is not plain ASCII (as `skip_plain`).
#[inline(always)]
fn plain_stops(block: &[u8; 64]) -> u64 {
    let mut stops = 0;
    for (index, chunk) in block.chunks_exact(16).enumerate() {
        stops |= u64::from(stops16(chunk.try_into().unwrap_or(&[0; 16]))) << (16 * index);
    }
    stops
}

/// One bit per byte of `chunk` that is not plain ASCII.
#[inline(always)]
fn stops16(chunk: &[u8; 16]) -> u16 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the
        // 16 bytes of `chunk`.
        unsafe {
            let chunk = _mm_loadu_si128(chunk.as_ptr().cast());
            let quote = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'\\' as i8));
            // Signed: control characters (below 0x20) and bytes from 0x80
            // up (negative) in one comparison.
            let other = _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), other)) as u16
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut stops = 0;
        for (index, &byte) in chunk.iter().enumerate() {
            stops |= u16::from(!PLAIN[byte as usize]) << index;
        }
        stops
    }
}

/// The position of the first byte at or after `pos` that is not plain
/// ASCII: `"`, `\`, a control character or a byte of a multi-byte sequence.
#[inline]
pub(crate) fn skip_plain(bytes: &[u8], mut pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    while pos + 16 <= bytes.len() {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; the load reads
        // bytes[pos..pos + 16], which is in bounds.
        let stops = unsafe {
            let chunk = _mm_loadu_si128(bytes.as_ptr().add(pos).cast());
            let quote = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'\\' as i8));
            // Signed: control characters (below 0x20) and bytes from 0x80
            // up (negative) in one comparison.
            let other = _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), other))
        };
        if stops != 0 {
            return pos + stops.trailing_zeros() as usize;
        }
        pos += 16;
    }
    while pos < bytes.len() && PLAIN[bytes[pos] as usize] {
        pos += 1;
    }
    pos
}

/// The rest of a string from `pos`, a byte that is not plain ASCII: the
/// position after the closing quote and whether the string holds escapes,
/// or `None` where `rest_of_string` fails (it words the reason). Returning
/// no message keeps this loop small.
#[inline(never)]
fn string_tail(bytes: &[u8], blocks: &mut Blocks, mut pos: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        match byte_at(bytes, pos) {
            b'"' => return Some((pos + 1, escaped)),
            b'\\' => {
                escaped = true;
                match byte_at(bytes, pos + 1) {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => pos += 2,
                    b'u' if bytes.get(pos + 2..pos + 6)?.iter().all(u8::is_ascii_hexdigit) => pos += 6,
                    _ => return None,
                }
            }
            0x80.. => pos += utf8_sequence_len(&bytes[pos..])?,
            _ => return None,
        }
        pos = blocks.skip_plain(bytes, pos);
    }
}

/// The length of the UTF-8 sequence `bytes` starts with, when it is valid
/// (RFC 3629: shortest form, no surrogates, nothing above U+10FFFF).
fn utf8_sequence_len(bytes: &[u8]) -> Option<usize> {
    // The sequence's length and the range its second byte must fall in.
    let (len, second) = match bytes[0] {
        0xC2..=0xDF => (2, 0x80..=0xBF),
        0xE0 => (3, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
        0xED => (3, 0x80..=0x9F),
        0xF0 => (4, 0x90..=0xBF),
        0xF1..=0xF3 => (4, 0x80..=0xBF),
        0xF4 => (4, 0x80..=0x8F),
        _ => return None,
    };
    let sequence = bytes.get(..len)?;
    let continued = sequence[2..].iter().all(|&byte| byte & 0xC0 == 0x80);
    (second.contains(&sequence[1]) && continued).then_some(len)
}

/// A fixed stack of container kinds (object or array), one byte each, so
/// that nesting costs neither recursion nor allocation. Bytes, not bits: a
/// close reads the new innermost kind with one load.
struct Containers {
    is_object: [bool; MAX_DEPTH],
    len: usize,
    /// The kind of the innermost container, read after every value.
    top_is_object: bool,
}

impl Containers {
    fn new() -> Self {
        Containers { is_object: [false; MAX_DEPTH], len: 0, top_is_object: false }
    }

    /// Callers keep `len` below `MAX_DEPTH` (the depth check comes first);
    /// the index is reduced modulo `MAX_DEPTH`, a power of two, so that it
    /// needs no bounds check.
    #[inline(always)]
    fn push(&mut self, is_object: bool) {
        self.is_object[self.len % MAX_DEPTH] = is_object;
        self.len += 1;
        self.top_is_object = is_object;
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
        // With no container left this reads a stale entry, which the scan,
        // finished then, does not use.
        self.top_is_object = self.is_object[self.len.wrapping_sub(1) % MAX_DEPTH];
    }
}

const _: () = assert!(MAX_DEPTH.is_power_of_two());

/// The kinds of value that are one token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Null,
    False,
    True,
    Number,
}

/// What the scanner tells of each token it accepts, in document order:
/// `start..end` spans the token's text (quotes and brackets included).
/// Called only on what passed the rules so far; a scan that then fails
/// returns its error, and what the sink saw is to be dropped. The
/// scanner bounds the depth (`MAX_DEPTH`) before any `open`.
pub(crate) trait Sink {
    /// An object (`is_object`) or array opens at `start`.
    fn open(&mut self, start: usize, is_object: bool);
    /// The innermost open object or array closes; its text ends at `end`.
    fn close(&mut self, end: usize);
    /// An object member's name, with whether it holds escapes.
    fn key(&mut self, start: usize, end: usize, escaped: bool);
    /// A string value, with whether it holds escapes.
    fn string(&mut self, start: usize, end: usize, escaped: bool);
    /// A number, `true`, `false` or `null`.
    fn scalar(&mut self, kind: Scalar, start: usize, end: usize);
}

/// The sink of a plain check: nothing is kept.
pub(crate) struct NoSink;

impl Sink for NoSink {
    #[inline(always)]
    fn open(&mut self, _start: usize, _is_object: bool) {}
    #[inline(always)]
    fn close(&mut self, _end: usize) {}
    #[inline(always)]
    fn key(&mut self, _start: usize, _end: usize, _escaped: bool) {}
    #[inline(always)]
    fn string(&mut self, _start: usize, _end: usize, _escaped: bool) {}
    #[inline(always)]
    fn scalar(&mut self, _kind: Scalar, _start: usize, _end: usize) {}
}

struct Scanner<'a, S: Sink = NoSink> {
    sink: S,
    bytes: &'a [u8],
    pos: usize,
    /// Where the last field name's closing quote stands.
    field_name_end: usize,
    /// `closing_bracket`, once known.
    closing_bracket: Option<Option<usize>>,
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Scanner::with_sink(bytes, NoSink)
    }
}

impl<'a, S: Sink> Scanner<'a, S> {
    fn with_sink(bytes: &'a [u8], sink: S) -> Self {
        Scanner { sink, bytes, pos: 0, field_name_end: 0, closing_bracket: None }
    }

    /// Scans the arguments: one object and nothing after it but whitespace.
    fn arguments(&mut self, required: &Required, presence: &mut Presence) -> Result<(), String> {
        if self.next_byte() != Some(b'{') {
            return Err(self.describe_non_object());
        }
        self.top_level_object(required, presence).map_err(not_json)?;
        self.skip_whitespace();
        if self.pos != self.bytes.len() {
            return Err(format!(
                "more text follows the JSON object at byte {}; send exactly one JSON object",
                self.pos
            ));
        }
        Ok(())
    }

    /// The text of bytes the scan has accepted, so valid UTF-8 (anything
    /// else shows as U+FFFD, in messages check() then replaces).
    fn text(&self, start: usize, end: usize) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(&self.bytes[start..end])
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips whitespace and returns the byte after it, not consuming it.
    #[inline(always)]
    fn next_byte(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.peek()
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(&byte) = self.bytes.get(self.pos) {
            // Most bytes between tokens are not whitespace: one comparison.
            if byte > b' ' || !is_whitespace(byte) {
                break;
            }
            self.pos += 1;
        }
    }

    /// The reason for a syntax error at the current position.
    #[cold]
    #[inline(never)]
    fn unexpected(&self, expected: &str) -> String {
        let next_char_end = self.bytes.len().min(self.pos + 4);
        match self.text(self.pos, next_char_end).chars().next() {
            None => format!("the text ends at byte {} where {expected} should follow", self.pos),
            Some(c) if c.is_control() => {
                format!("unexpected character U+{:04X} at byte {}; expected {expected}", c as u32, self.pos)
            }
            Some(c) => format!("unexpected '{c}' at byte {}; expected {expected}", self.pos),
        }
    }

    /// Scans an object from its `{`. For each member, `member` gets the span
    /// of the raw field name and whether it holds escapes, with the position
    /// at the value, which it must scan.
    #[inline(always)]
    fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, usize, usize, bool) -> Result<(), String>,
    ) -> Result<(), String> {
        self.sink.open(self.pos, true);
        self.pos += 1; // '{'
        if self.next_byte() == Some(b'}') {
            self.pos += 1;
            self.sink.close(self.pos);
            return Ok(());
        }
        loop {
            let key_start = self.pos + 1;
            let escaped = self.field_name()?;
            let key_end = self.field_name_end;
            self.sink.key(key_start - 1, key_end + 1, escaped);
            self.skip_whitespace();
            member(self, key_start, key_end, escaped)?;
            match self.next_byte() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_whitespace();
                }
                Some(b'}') => {
                    self.pos += 1;
                    self.sink.close(self.pos);
                    return Ok(());
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
    }

    /// Scans the arguments object, recording which required fields it holds.
    fn top_level_object(&mut self, required: &Required, presence: &mut Presence) -> Result<(), String> {
        self.members(|scanner, key_start, key_end, escaped| {
            let is_null = scanner.bytes[scanner.pos..].starts_with(b"null");
            scanner.value(1)?;
            if required.len() != 0 {
                if let Some(index) = required.position_of_key(scanner.bytes, key_start, key_end, escaped) {
                    presence.set(index, is_null);
                }
            }
            Ok(())
        })
    }

    /// Scans a schema's top-level object, collecting its `required` names. A
    /// repeated `required` key replaces the earlier one, as duplicates do in
    /// arguments.
    fn schema_object(&mut self, required: &mut Vec<Box<str>>) -> Result<(), String> {
        self.members(|scanner, key_start, key_end, escaped| {
            if scanner.text_of(key_start, key_end, escaped) != "required" {
                return scanner.value(1);
            }
            required.clear();
            if scanner.peek() == Some(b'[') {
                scanner.required_array(required)
            } else {
                scanner.value(1)
            }
        })
    }

    fn required_array(&mut self, required: &mut Vec<Box<str>>) -> Result<(), String> {
        self.pos += 1; // '['
        if self.next_byte() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            if self.next_byte() == Some(b'"') {
                let start = self.pos + 1;
                let escaped = self.string()?;
                let name = self.text_of(start, self.pos - 1, escaped);
                if !required.iter().any(|seen| **seen == *name) {
                    required.push(name.into());
                }
            } else {
                self.value(2)?;
            }
            match self.next_byte() {
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
        let raw = self.text(start, end);
        if escaped {
            decode_string(&raw).into()
        } else {
            raw
        }
    }

    /// Scans `"name" :` and leaves the position after the colon. Returns
    /// whether the name holds escapes.
    #[inline(always)]
    fn field_name(&mut self) -> Result<bool, String> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a field name in double quotes"));
        }
        let escaped = self.string()?;
        self.field_name_end = self.pos - 1;
        if self.next_byte() != Some(b':') {
            return Err(self.unexpected("':'"));
        }
        self.pos += 1;
        Ok(escaped)
    }

    /// Scans one complete value of any type, without recursion. `depth` is
    /// how deep the value stands (0 for a whole document).
    #[inline]
    fn value(&mut self, depth: usize) -> Result<(), String> {
        match self.next_byte() {
            Some(b'{' | b'[') => self.nested_value(depth),
            next => self.scalar(next),
        }
    }

    /// Scans a string, number or literal, given its first byte (`next`);
    /// anything else is not a value.
    #[inline(always)]
    fn scalar(&mut self, next: Option<u8>) -> Result<(), String> {
        let start = self.pos;
        let kind = match next {
            Some(b'"') => {
                let escaped = self.string()?;
                self.sink.string(start, self.pos, escaped);
                return Ok(());
            }
            Some(b't') => self.literal("true").map(|()| Scalar::True)?,
            Some(b'f') => self.literal("false").map(|()| Scalar::False)?,
            Some(b'n') => self.literal("null").map(|()| Scalar::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number().map(|()| Scalar::Number)?,
            _ => return Err(self.unexpected("a JSON value")),
        };
        self.sink.scalar(kind, start, self.pos);
        Ok(())
    }

    /// Scans an object or array with all it holds.
    ///
    /// The hot loop of the check: it keeps the position in a local and reads
    /// bytes with `read`: without bounds checks when the text ends with a
    /// closing bracket, else with `byte_at`, where the end of the text reads
    /// as NUL, which no rule accepts outside strings. Whitespace is one more
    /// arm of the dispatch on the byte read, so compact JSON pays nothing
    /// for it.
    #[inline(never)]
    fn nested_value(&mut self, depth: usize) -> Result<(), String> {
        match self.closing_bracket() {
            Some(last) => self.nested::<false>(depth, last),
            None => self.nested::<true>(depth, usize::MAX),
        }
    }

    /// Where the last byte of the text that is not whitespace stands, when
    /// it is `}` or `]`: that lets the nested scan read without bounds
    /// checks (see `read`). Found once per text.
    fn closing_bracket(&mut self) -> Option<usize> {
        let bytes = self.bytes;
        *self.closing_bracket.get_or_insert_with(|| {
            let last = bytes.iter().rposition(|&byte| !is_whitespace(byte))?;
            matches!(bytes[last], b'}' | b']').then_some(last)
        })
    }

    /// `nested_value`, with bounds checks on every read (`CHECKED`) or only
    /// where the proof in `read` needs them; `last` is then where the text's
    /// closing bracket stands.
    #[inline(always)]
    fn nested<const CHECKED: bool>(&mut self, depth: usize, last: usize) -> Result<(), String> {
        let bytes = self.bytes;
        let mut pos = self.pos;
        let mut containers = Containers::new();
        let mut blocks = Blocks::new();
        let blocks = &mut blocks;
        'value: loop {
            let byte = read::<CHECKED>(bytes, pos);
            match byte {
                b'"' => {
                    let (end, escaped) = self.string_end::<CHECKED>(bytes, blocks, pos)?;
                    self.sink.string(pos, end, escaped);
                    pos = end;
                }
                b'-' | b'0'..=b'9' => {
                    let end = self.number_end::<CHECKED>(bytes, pos)?;
                    self.sink.scalar(Scalar::Number, pos, end);
                    pos = end;
                }
                b't' if bytes.get(pos..pos + 4) == Some(b"true") => {
                    self.sink.scalar(Scalar::True, pos, pos + 4);
                    pos += 4;
                }
                b'f' if bytes.get(pos + 1..pos + 5) == Some(b"alse") => {
                    self.sink.scalar(Scalar::False, pos, pos + 5);
                    pos += 5;
                }
                b'n' if bytes.get(pos..pos + 4) == Some(b"null") => {
                    self.sink.scalar(Scalar::Null, pos, pos + 4);
                    pos += 4;
                }
                b'{' | b'[' => {
                    if depth + containers.len + 1 > MAX_DEPTH {
                        return Err(format!("the JSON is nested deeper than {MAX_DEPTH} levels at byte {pos}"));
                    }
                    self.sink.open(pos, byte == b'{');
                    pos = skip_whitespace_to::<CHECKED>(bytes, pos + 1);
                    // '}' and ']' stand two code points after '{' and '['.
                    if read::<CHECKED>(bytes, pos) != byte + 2 {
                        let is_object = byte == b'{';
                        containers.push(is_object);
                        if is_object {
                            pos = self.field_name_end::<CHECKED>(bytes, blocks, pos)?;
                        }
                        continue 'value;
                    }
                    pos += 1;
                    self.sink.close(pos);
                    if containers.len == 0 {
                        break 'value;
                    }
                    if !CHECKED && pos > last {
                        return Err(self.past_last_bracket(pos, containers.top_is_object));
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' => {
                    pos = skip_whitespace_to::<CHECKED>(bytes, pos + 1);
                    continue 'value;
                }
                _ => return Err(self.unexpected_at(pos, "a JSON value")),
            }
            // A value is complete (inside a container, since the scan starts
            // at one): close containers until one wants more.
            loop {
                let in_object = containers.top_is_object;
                match read::<CHECKED>(bytes, pos) {
                    b',' => {
                        pos += 1;
                        if in_object {
                            pos = self.field_name_end::<CHECKED>(bytes, blocks, pos)?;
                        }
                        continue 'value;
                    }
                    b'}' if in_object => {
                        pos += 1;
                        self.sink.close(pos);
                        containers.pop();
                    }
                    b']' if !in_object => {
                        pos += 1;
                        self.sink.close(pos);
                        containers.pop();
                    }
                    b' ' | b'\t' | b'\n' | b'\r' => {
                        pos = skip_whitespace_to::<CHECKED>(bytes, pos + 1);
                        continue;
                    }
                    _ => return Err(self.unexpected_at(pos, expected_after(in_object))),
                }
                if containers.len == 0 {
                    break 'value;
                }
                // A closing bracket may be the text's last one.
                if !CHECKED && pos > last {
                    return Err(self.past_last_bracket(pos, containers.top_is_object));
                }
            }
        }
        self.pos = pos;
        Ok(())
    }

    /// Scans `"name" :` from `pos` (whitespace may come first) and returns
    /// the position after the colon.
    #[inline(always)]
    fn field_name_end<const CHECKED: bool>(
        &mut self,
        bytes: &'a [u8],
        blocks: &mut Blocks,
        mut pos: usize,
    ) -> Result<usize, String> {
        if read::<CHECKED>(bytes, pos) != b'"' {
            pos = skip_whitespace_to::<CHECKED>(bytes, pos);
            if read::<CHECKED>(bytes, pos) != b'"' {
                return Err(self.unexpected_at(pos, "a field name in double quotes"));
            }
        }
        let (end, escaped) = self.string_end::<CHECKED>(bytes, blocks, pos)?;
        self.sink.key(pos, end, escaped);
        pos = end;
        if read::<CHECKED>(bytes, pos) != b':' {
            pos = skip_whitespace_to::<CHECKED>(bytes, pos);
            if read::<CHECKED>(bytes, pos) != b':' {
                return Err(self.unexpected_at(pos, "':'"));
            }
        }
        Ok(pos + 1)
    }

    /// Scans the string whose opening quote stands at `pos` and returns the
    /// position after its closing quote, and whether it holds escapes.
    #[inline(always)]
    fn string_end<const CHECKED: bool>(
        &mut self,
        bytes: &'a [u8],
        blocks: &mut Blocks,
        pos: usize,
    ) -> Result<(usize, bool), String> {
        let stop = blocks.skip_plain(bytes, pos + 1);
        if byte_at(bytes, stop) == b'"' {
            return Ok((stop + 1, false));
        }
        match string_tail(bytes, blocks, stop) {
            Some(end) => Ok(end),
            None => {
                // Scan again, slowly, for the message: `rest_of_string` is
                // the rule, `string_tail` only its fast copy.
                self.pos = stop;
                let escaped = self.rest_of_string(pos)?;
                debug_assert!(false, "string_tail and rest_of_string disagree at byte {stop}");
                Ok((self.pos, escaped))
            }
        }
    }

    /// Scans the number that starts at `pos` and returns the position after
    /// it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    #[inline(always)]
    fn number_end<const CHECKED: bool>(&mut self, bytes: &'a [u8], mut pos: usize) -> Result<usize, String> {
        if read::<CHECKED>(bytes, pos) == b'-' {
            pos += 1;
        }
        match read::<CHECKED>(bytes, pos) {
            b'0' => pos += 1,
            b'1'..=b'9' => pos = digits_to::<CHECKED>(bytes, pos + 1),
            _ => return Err(self.unexpected_at(pos, "a digit")),
        }
        if read::<CHECKED>(bytes, pos) == b'.' {
            pos += 1;
            if !read::<CHECKED>(bytes, pos).is_ascii_digit() {
                return Err(self.unexpected_at(pos, "a digit"));
            }
            pos = digits_to::<CHECKED>(bytes, pos + 1);
        }
        if read::<CHECKED>(bytes, pos) | 0x20 == b'e' {
            pos += 1;
            if matches!(read::<CHECKED>(bytes, pos), b'+' | b'-') {
                pos += 1;
            }
            if !read::<CHECKED>(bytes, pos).is_ascii_digit() {
                return Err(self.unexpected_at(pos, "a digit"));
            }
            pos = digits_to::<CHECKED>(bytes, pos + 1);
        }
        Ok(pos)
    }

    /// The error of a nested scan that closed the text's last bracket with
    /// containers still open: only whitespace follows, so the checked scan
    /// would report the end of the text.
    #[cold]
    #[inline(never)]
    fn past_last_bracket(&mut self, pos: usize, in_object: bool) -> String {
        let end = skip_whitespace_to::<true>(self.bytes, pos);
        self.unexpected_at(end, expected_after(in_object))
    }

    /// `unexpected` at `pos`, which becomes the scanner's position.
    #[cold]
    #[inline(never)]
    fn unexpected_at(&mut self, pos: usize, expected: &str) -> String {
        self.pos = pos;
        self.unexpected(expected)
    }

    /// Scans a string from its opening quote. Returns whether it holds escapes.
    #[inline(always)]
    fn string(&mut self) -> Result<bool, String> {
        // Most strings are plain ASCII: one skip, then the closing quote.
        let stop = skip_plain(self.bytes, self.pos + 1);
        if self.bytes.get(stop) == Some(&b'"') {
            self.pos = stop + 1;
            return Ok(false);
        }
        let start = self.pos;
        self.pos = stop;
        self.rest_of_string(start)
    }

    /// Scans the rest of the string that starts at `start`, from a byte that
    /// is not plain ASCII.
    #[inline(never)]
    fn rest_of_string(&mut self, start: usize) -> Result<bool, String> {
        let mut escaped = false;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.escape()?;
                }
                Some(0x80..) => match utf8_sequence_len(&self.bytes[self.pos..]) {
                    Some(len) => self.pos += len,
                    // check() reports this as invalid UTF-8, with the offset.
                    None => return Err(format!("a string holds invalid UTF-8 at byte {}", self.pos)),
                },
                Some(_) => {
                    return Err(format!(
                        "a string holds a control character at byte {}; escape it (for example \\n)",
                        self.pos
                    ))
                }
                None => return Err(format!("the string that starts at byte {start} is not closed")),
            }
            self.pos = skip_plain(self.bytes, self.pos);
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

    #[inline]
    fn literal(&mut self, word: &str) -> Result<(), String> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, any magnitude.
    #[inline(always)]
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
        if kind == "a string" && decode_string(&self.text(start + 1, self.pos - 1)).trim_start().starts_with('{') {
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
    Small {
        present: u64,
        null: u64,
    },
    Large {
        present: Vec<bool>,
        null: Vec<bool>,
    },
}

impl Presence {
    fn new(required: usize) -> Self {
        if required <= 64 {
            Presence::Small { present: 0, null: 0 }
        } else {
            Presence::Large { present: vec![false; required], null: vec![false; required] }
        }
    }

    /// Required field `index` is present, with `null` or another value. A
    /// later occurrence of the same key replaces an earlier one.
    #[inline(always)]
    fn set(&mut self, index: usize, is_null: bool) {
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
    fn verdict(&self, required: &Required) -> Result<(), String> {
        let required = required.names();
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
pub(crate) fn quote_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// Decodes the inside of a JSON string already checked by the scanner. A lone
/// surrogate escape (valid JSON, not valid Unicode) becomes U+FFFD.
pub(crate) fn decode_string(raw: &str) -> String {
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

/// Appends `text` as a JSON string: `"` and `\` escaped, control
/// characters as `\n`, `\t`, … or `\u00XX` (lowercase hex), everything
/// else as it is. The same bytes as `serde_json::to_string`, without its
/// intermediate `String`. The library's one JSON string writer.
pub(crate) fn push_string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut start = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..index]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 15)] as char);
        } else {
            out.push_str(escape);
        }
        start = index + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// The same JSON without insignificant whitespace; key order and number
/// spelling kept. Borrowed when there was none.
pub(crate) fn compact(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.bytes().any(|byte| matches!(byte, b' ' | b'\t' | b'\r' | b'\n')) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\r' | '\n') {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Reads JSON text into a [`serde_json::Value`] the way the text says.
///
/// `Value`'s own reader has a hook for serde_json's private keys: with the
/// `raw_value` feature (the dialects read replies through `RawValue`), an
/// object whose first key is `$serde_json::private::RawValue` turns into the
/// document its string holds (`{"$serde_json::private::RawValue":"[1]"}`
/// reads as `[1]`), and one holding anything else is refused. Text from a
/// model or a client would then mean one thing to the validator and another
/// to the code acting on it. This reader builds every object as written;
/// handlers that read their arguments into a `Value` should use it too,
/// since cargo turns `raw_value` on for every crate of a build that links
/// this one.
///
/// With `exact-numbers` (serde_json's `arbitrary_precision`) the parser
/// hands numbers over as a one-key object under
/// `$serde_json::private::Number`; that shape becomes the number, so a
/// document holding exactly `{"$serde_json::private::Number":"12"}` reads
/// as `12`, as it does for serde_json itself in such builds.
pub fn parse_value(text: &[u8]) -> serde_json::Result<serde_json::Value> {
    use serde::de::DeserializeSeed;
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let value = PlainValue.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// [`parse_value`]'s reader: serde_json's `Value` visitor without the
/// private-key hooks.
#[derive(Clone, Copy)]
struct PlainValue;

impl<'de> serde::de::DeserializeSeed<'de> for PlainValue {
    type Value = serde_json::Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for PlainValue {
    type Value = serde_json::Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(value).map_or(serde_json::Value::Null, serde_json::Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut array = Vec::new();
        while let Some(item) = items.next_element_seed(self)? {
            array.push(item);
        }
        Ok(serde_json::Value::Array(array))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        /// The key serde_json's `arbitrary_precision` hands a number under.
        const NUMBER_KEY: &str = "$serde_json::private::Number";
        let mut object = serde_json::Map::new();
        while let Some(key) = members.next_key::<String>()? {
            let value = members.next_value_seed(self)?;
            object.insert(key, value);
        }
        if object.len() == 1 {
            if let Some(serde_json::Value::String(digits)) = object.get(NUMBER_KEY) {
                if let Ok(number) = digits.parse::<serde_json::Number>() {
                    return Ok(serde_json::Value::Number(number));
                }
            }
        }
        Ok(serde_json::Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one escaper writes what serde_json writes, byte for byte (the
    /// definitions' text was serde_json's before).
    #[test]
    fn push_string_writes_what_serde_json_writes() {
        let mut texts: Vec<String> = (0u32..0x80).map(|code| char::from_u32(code).unwrap().to_string()).collect();
        texts.extend(["", "plain", "a\"b\\c\u{7f}é\u{2028}😀\u{1}\u{1f}end", "\u{8}\u{c}\n\r\t"].map(str::to_owned));
        for text in texts {
            let mut out = String::from("x");
            push_string(&mut out, &text);
            assert_eq!(&out[1..], serde_json::to_string(&text).unwrap(), "for {text:?}");
        }
    }

    /// Bytes around every boundary a UTF-8 decoder tests.
    const EDGES: [u8; 9] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xBF, 0xC0];

    fn quoted(inside: &[u8]) -> Vec<u8> {
        [b"\"".as_slice(), inside, b"\""].concat()
    }

    /// The scanner checks UTF-8 itself, inside strings: it must agree with
    /// the standard library on every sequence of up to four bytes, on the
    /// short path and the 16-byte one.
    #[test]
    fn utf8_in_strings_agrees_with_std() {
        let mut sequences = Vec::new();
        for first in 0x80..=0xFFu8 {
            for second in 0..=0xFFu8 {
                sequences.push(vec![first, second]);
                if first >= 0xE0 {
                    for third in EDGES {
                        sequences.push(vec![first, second, third]);
                        if first >= 0xF0 {
                            sequences.extend(EDGES.map(|fourth| vec![first, second, third, fourth]));
                        }
                    }
                }
            }
        }
        for sequence in sequences {
            let plain = sequence.iter().all(|&byte| byte >= 0x20 && byte != b'"' && byte != b'\\');
            let expected = plain && std::str::from_utf8(&sequence).is_ok();
            let padded = [b"0123456789abcdef".as_slice(), &sequence, b"0123456789abcdef"].concat();
            assert_eq!(is_valid_json(&quoted(&sequence)), expected, "{sequence:02x?}");
            assert_eq!(is_valid_json(&quoted(&padded)), expected, "{sequence:02x?} between ASCII");
        }
    }

    #[test]
    fn every_byte_of_a_long_string_is_checked() {
        for (bad, position) in [(0x01u8, 0), (0x1F, 7), (0xFF, 15), (0x80, 16), (b'\\', 31), (0x7F, 40)] {
            let mut inside = vec![b'a'; 48];
            inside[position] = bad;
            let expected = bad == 0x7F; // DEL is allowed unescaped
            assert_eq!(is_valid_json(&quoted(&inside)), expected, "byte {bad:#x} at {position}");
        }
    }

    #[test]
    fn invalid_utf8_is_reported_first_wherever_the_scan_stops() {
        let message = |raw: &[u8]| check(raw, &Required::NONE).unwrap_err();
        let utf8 =
            |offset: usize| format!("the arguments are not valid UTF-8 (the first invalid byte is at offset {offset})");
        assert_eq!(message(b"{\"a\":1} \xff"), utf8(8));
        assert_eq!(message(b"[1, \xff"), utf8(4));
        assert_eq!(message(b"{\"a\":\xe2\x82}"), utf8(5));
        assert_eq!(message(b"{\"a\":\"\xed\xa0\x80\"}"), utf8(6)); // a surrogate
        assert_eq!(message(b"{\"key-of-many-bytes\":\"x\xc0\xaf\"}"), utf8(23)); // overlong '/'
        assert_eq!(
            message(b"{\"a\":\xc3\xa9}"),
            "the arguments are not valid JSON: unexpected 'é' at byte 5; expected a JSON value"
        );
        assert_eq!(check("{\"café\":\"naïve ☕ 𝄞\"}".as_bytes(), &Required::NONE), Ok("{\"café\":\"naïve ☕ 𝄞\"}"));
    }
    /// The nested scan reads without bounds checks when the text ends with a
    /// closing bracket (then whitespace); texts that close that bracket with
    /// containers still open must end the scan there, with the message of the
    /// checked scan.
    #[test]
    fn a_last_closing_bracket_ends_the_scan() {
        let message = |raw: &[u8]| check(raw, &Required::NONE).unwrap_err();
        let ends = |at: usize, expected: &str| {
            format!("the arguments are not valid JSON: the text ends at byte {at} where {expected} should follow")
        };
        assert_eq!(message(b"{\"a\":[[]] "), ends(10, "',' or '}'"));
        assert_eq!(message(b"{\"a\":[[] ]  \n"), ends(13, "',' or '}'"));
        assert_eq!(message(b"{\"a\":[{}]"), ends(9, "',' or '}'"));
        assert_eq!(message(b"{\"a\":[[[]]\t"), ends(11, "',' or ']'"));
        assert_eq!(message(b"{\"a\":[1,[]"), ends(10, "',' or ']'"));
        assert_eq!(
            message(b"{\"a\":[\"x]"),
            "the arguments are not valid JSON: the string that starts at byte 6 is not closed"
        );
        assert_eq!(
            message(b"{\"a\":[12]3]"),
            "the arguments are not valid JSON: unexpected '3' at byte 9; expected ',' or '}'"
        );
        for raw in [&b"[[]] "[..], b"[[] ", b"[1,[]  ", b"{\"a\":[]", b"[0]", b"[-1]", b"[1e5]", b"[true]"] {
            assert_eq!(is_valid_json(raw), serde_json::from_slice::<serde_json::Value>(raw).is_ok(), "{raw:?}");
        }
        assert_eq!(check(b"{\"a\":[[],{}]} \n", &Required::NONE), Ok("{\"a\":[[],{}]} \n"));
    }
    /// Texts long enough for the block masks, with strings (plain, escaped,
    /// not ASCII) across the edges of blocks: the whole text passes, and each
    /// prefix and each text with one byte removed gets serde_json's verdict.
    #[test]
    fn long_texts_through_the_block_masks() {
        let names = [
            "alpha",
            "caf\u{e9} na\u{ef}ve",
            "tab\\there",
            "\\u00e9t\\u00e9",
            "a-longer-name-of-some-forty-characters!!",
        ];
        let mut text = String::from("{\"records\":[");
        for index in 0..6 {
            if index > 0 {
                text.push(',');
            }
            let name = names[index % names.len()];
            text.push_str(&format!(
                "{{\"id\":1{index}7,\"name\":\"{name}\",\"cost\":-1.5e{index},\"ok\":true,\"at\":[null,{{}}]}}"
            ));
        }
        text.push_str("]}  \n");
        let bytes = text.as_bytes();
        assert!(bytes.len() > 300);
        assert_eq!(check(bytes, &Required::NONE), Ok(text.as_str()));
        let verdict = |raw: &[u8]| serde_json::from_slice::<serde_json::Value>(raw).is_ok();
        for end in 0..bytes.len() {
            assert_eq!(is_valid_json(&bytes[..end]), verdict(&bytes[..end]), "prefix of {end} bytes");
            let cut = [&bytes[..end], &bytes[end + 1..]].concat();
            assert_eq!(is_valid_json(&cut), verdict(&cut), "without byte {end}");
        }
    }

    #[test]
    fn parse_value_reads_serde_json_private_keys_as_written() {
        let raw = r#"{"$serde_json::private::RawValue":"[1,2]"}"#;
        let value = parse_value(raw.as_bytes()).unwrap();
        assert_eq!(value["$serde_json::private::RawValue"], "[1,2]", "{value}");
        let nested = r#"{"a":{"$serde_json::private::RawValue":{"b":1}},"n":[1.50,-2,1e300]}"#;
        let value = parse_value(nested.as_bytes()).unwrap();
        assert_eq!(value["a"]["$serde_json::private::RawValue"]["b"], 1, "{value}");
        assert_eq!(value["n"][1], -2, "{value}");
        assert!(value["n"][0].is_number() && value["n"][2].is_number(), "{value}");
        for text in [r#"{"a":1,"b":[true,null,"x"]}"#, "[]", "{}", "\"s\"", "12", "-0.5e3"] {
            assert_eq!(parse_value(text.as_bytes()).unwrap(), serde_json::from_str::<serde_json::Value>(text).unwrap());
        }
        assert!(parse_value(b"{} x").is_err());
        assert!(parse_value(b"{").is_err());
    }
}
