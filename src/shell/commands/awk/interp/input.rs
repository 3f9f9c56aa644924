//! Input: record and field separators, the sources records come from
//! (the main input, `getline < file`, `cmd | getline`).

use super::*;

/// How fields are split.
pub(super) enum Splitter {
    /// Runs of blanks; leading and trailing blanks ignored.
    Space,
    Byte(u8),
    Regex(Regex),
    /// Every character a field (`FS = ""`).
    Chars,
}

impl Splitter {
    pub(super) fn build(fs: &[u8], paragraph: bool) -> R<Splitter> {
        let s = match fs {
            b" " => return Ok(Splitter::Space),
            b"" => return Ok(Splitter::Chars),
            [c] if !paragraph => return Ok(Splitter::Byte(*c)),
            [c] => ere::literal(&[*c]),
            _ => ere::translate(fs).map_err(Fatal::Error)?,
        };
        let pattern = if paragraph { format!("(?:{s})|\\n") } else { s };
        let re = regex::bytes::RegexBuilder::new(&pattern)
            .unicode(false)
            .dot_matches_new_line(true)
            .build()
            .map_err(|e| Fatal::Error(format!("bad field separator: {e}")))?;
        Ok(Splitter::Regex(re))
    }

    /// The number of fields of `text`, when it is cheaper to count them
    /// than to split (`None`: split to know).
    pub(super) fn count(&self, text: &[u8]) -> Option<usize> {
        Some(match self {
            // A field starts at each non-blank after a blank (or at the
            // start); counted without a branch per byte.
            // A field starts at each non-blank after a blank (or at the
            // start): counted eight bytes at a time.
            Splitter::Space => {
                let mut count = 0;
                let mut carry = HIGH & 0xff;
                for_each_word(text, |_, blank| {
                    let starts = !blank & HIGH & ((blank << 8) | carry);
                    count += starts.count_ones() as usize;
                    carry = blank >> 56;
                });
                count
            }
            _ if text.is_empty() => 0,
            Splitter::Byte(c) => memchr::memchr_iter(*c, text).count() + 1,
            Splitter::Chars => text.len(),
            Splitter::Regex(_) => return None,
        })
    }

    pub(super) fn split(&self, text: &[u8], out: &mut Vec<(usize, usize)>) {
        out.clear();
        match self {
            // Eight bytes at a time: the bytes where a field starts (a
            // non-blank after a blank) and ends (a blank after a
            // non-blank), taken in order.
            Splitter::Space => {
                let (mut blank_carry, mut field_carry) = (HIGH & 0xff, 0);
                let mut start = 0;
                for_each_word(text, |base, blank| {
                    let field = !blank & HIGH;
                    let starts = field & ((blank << 8) | blank_carry);
                    let ends = blank & ((field << 8) | field_carry);
                    blank_carry = blank >> 56;
                    field_carry = field >> 56;
                    let mut edges = starts | ends;
                    while edges != 0 {
                        let bit = edges & edges.wrapping_neg();
                        let at = base + (bit.trailing_zeros() / 8) as usize;
                        if starts & bit != 0 {
                            start = at;
                        } else {
                            out.push((start, at));
                        }
                        edges ^= bit;
                    }
                });
                // A field running to the end (the last word was full).
                if field_carry != 0 {
                    out.push((start, text.len()));
                }
            }
            _ if text.is_empty() => {}
            Splitter::Byte(c) => {
                let mut start = 0;
                for i in memchr::memchr_iter(*c, text) {
                    out.push((start, i));
                    start = i + 1;
                }
                out.push((start, text.len()));
            }
            Splitter::Chars => out.extend((0..text.len()).map(|i| (i, i + 1))),
            Splitter::Regex(re) => {
                let mut start = 0;
                for m in re.find_iter(text) {
                    if m.start() == m.end() {
                        continue;
                    }
                    out.push((start, m.start()));
                    start = m.end();
                }
                out.push((start, text.len()));
            }
        }
    }
}

/// The high bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that is 0, alone.
#[inline]
fn zero_bytes(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((word & LOW7) + LOW7) | word) & HIGH
}

/// Calls `f(offset, blanks)` for each 8 bytes of `text` (the last ones
/// padded with spaces), `blanks` holding the high bit of each byte that is
/// a blank (space, tab, newline: awk's `is_blank`).
#[inline]
fn for_each_word(text: &[u8], mut f: impl FnMut(usize, u64)) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let blanks = |word: u64| {
        zero_bytes(word ^ (ONES * u64::from(b' ')))
            | zero_bytes(word ^ (ONES * u64::from(b'\t')))
            | zero_bytes(word ^ (ONES * u64::from(b'\n')))
    };
    let mut words = text.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut words {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([b' '; 8]));
        f(base, blanks(word));
        base += 8;
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [b' '; 8];
        last[..rest.len()].copy_from_slice(rest);
        f(base, blanks(u64::from_le_bytes(last)));
    }
}

/// How records are separated.
#[derive(Clone)]
pub(super) enum RecordSep {
    Byte(u8),
    Paragraph,
    Regex(Rc<Regex>),
}

/// The next record of `data` from `*pos`: its bounds.
pub(super) fn next_record(data: &[u8], pos: &mut usize, sep: &RecordSep) -> Option<(usize, usize)> {
    let start = *pos;
    match sep {
        RecordSep::Byte(c) => {
            if start >= data.len() {
                return None;
            }
            match memchr::memchr(*c, &data[start..]) {
                Some(i) => {
                    *pos = start + i + 1;
                    Some((start, start + i))
                }
                None => {
                    *pos = data.len();
                    Some((start, data.len()))
                }
            }
        }
        RecordSep::Paragraph => {
            let mut s = start;
            while s < data.len() && data[s] == b'\n' {
                s += 1;
            }
            if s >= data.len() {
                *pos = data.len();
                return None;
            }
            let end = memchr::memmem::find(&data[s..], b"\n\n").map_or(data.len(), |i| s + i);
            let mut next = end;
            while next < data.len() && data[next] == b'\n' {
                next += 1;
            }
            *pos = next;
            let mut e = end;
            while e > s && data[e - 1] == b'\n' {
                e -= 1;
            }
            Some((s, e))
        }
        RecordSep::Regex(re) => {
            if start >= data.len() {
                return None;
            }
            let found = re.find_iter(&data[start..]).find(|m| m.end() > m.start());
            match found {
                Some(m) => {
                    *pos = start + m.end();
                    Some((start, start + m.start()))
                }
                None => {
                    *pos = data.len();
                    Some((start, data.len()))
                }
            }
        }
    }
}

impl Record {
    /// A new record of `bytes`, split (when asked) by `splitter`.
    pub(super) fn set(&mut self, bytes: &[u8], splitter: &Rc<Splitter>) {
        self.text.clear();
        self.text.extend_from_slice(bytes);
        self.stale = false;
        self.split = false;
        self.materialized = false;
        self.vals.clear();
        if !Rc::ptr_eq(&self.splitter, splitter) {
            self.splitter = splitter.clone();
        }
        self.count = None;
    }
}

pub(super) struct Record {
    pub(super) text: Vec<u8>,
    /// `text` must be rebuilt from `vals` (a field was assigned).
    pub(super) stale: bool,
    pub(super) split: bool,
    /// Fields live in `vals` rather than as ranges of `text`.
    pub(super) materialized: bool,
    pub(super) ranges: Vec<(usize, usize)>,
    pub(super) vals: Vec<Value>,
    pub(super) splitter: Rc<Splitter>,
    /// The number of fields, when only that was asked (not split yet).
    pub(super) count: Option<usize>,
}

pub(super) struct Source<'a> {
    pub(super) data: Vec<u8>,
    pub(super) pos: usize,
    /// How far past `pos` is known to hold no one-byte separator.
    pub(super) scanned: usize,
    /// Stdin read as it comes, or a file read a piece at a time: more
    /// may follow `data`.
    pub(super) more: Option<Reader<'a>>,
}

impl<'a> Source<'a> {
    pub(super) fn reader(reader: Reader<'a>) -> Source<'a> {
        Source { data: Vec::new(), pos: 0, scanned: 0, more: Some(reader) }
    }

    /// Everything at hand, nothing more to read.
    pub(super) fn bytes(data: Vec<u8>) -> Source<'a> {
        Source { data, pos: 0, scanned: 0, more: None }
    }

    /// The next record's bounds in `data`, reading on until a whole record
    /// is at hand: until the rest holds a one-byte separator, or to the
    /// end for other separators (a regex or a blank line may need what
    /// follows). So `exit` stops reading, as awk's does, and a large file
    /// is held a piece at a time. A file that fails part-way ends there.
    pub(super) fn next(&mut self, sep: &RecordSep, max_memory: usize) -> Result<Option<(usize, usize)>, LimitHit> {
        let RecordSep::Byte(c) = *sep else {
            while self.read_more(max_memory)? {}
            return Ok(next_record(&self.data, &mut self.pos, sep));
        };
        loop {
            let from = self.pos + self.scanned;
            if let Some(i) = memchr::memchr(c, &self.data[from..]) {
                let start = self.pos;
                self.pos = from + i + 1;
                self.scanned = 0;
                return Ok(Some((start, from + i)));
            }
            self.scanned = self.data.len() - self.pos;
            if !self.read_more(max_memory)? {
                self.scanned = 0;
                if self.pos < self.data.len() {
                    let start = self.pos;
                    self.pos = self.data.len();
                    return Ok(Some((start, self.data.len())));
                }
                return Ok(None);
            }
        }
    }

    /// Reads the next piece after what is left of `data`; false at the end.
    fn read_more(&mut self, max_memory: usize) -> Result<bool, LimitHit> {
        let Some(reader) = &mut self.more else { return Ok(false) };
        match reader.next_piece() {
            Ok(Some(piece)) => {
                if self.pos >= self.data.len() {
                    self.data = piece;
                } else {
                    self.data.drain(..self.pos);
                    self.data.extend_from_slice(&piece);
                }
                self.pos = 0;
                if self.data.len() > max_memory {
                    return Err(LimitHit::Memory);
                }
                Ok(true)
            }
            Ok(None) | Err(ReadFailed::Storage(_)) => {
                self.more = None;
                Ok(false)
            }
            Err(ReadFailed::Limit(hit)) => Err(hit),
        }
    }
}

/// `"cmd" | getline`: the command's output (it ran to the end when first
/// read), and its status for `close()`.
pub(super) struct Piped<'a> {
    pub(super) source: Source<'a>,
    pub(super) status: i32,
    /// The output passed what awk holds of it (a quarter of the memory
    /// budget): the command was stopped there, as by a closed pipe.
    pub(super) truncated: bool,
}

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    // ---- input ----

    /// RS as a separator (worked out again only after RS, FS or CONVFMT
    /// was assigned).
    pub(super) fn record_sep(&mut self) -> R<RecordSep> {
        if !self.seps_changed {
            return Ok(self.rs.clone());
        }
        self.splitter_stale = true;
        let rs = self.scalar_bytes(RS)?;
        if *rs != *self.rs_key {
            self.rs = match &*rs {
                b"" => RecordSep::Paragraph,
                [c] => RecordSep::Byte(*c),
                pattern => RecordSep::Regex(Rc::new(ere::compile(pattern).map_err(Fatal::Error)?)),
            };
            self.rs_key = rs.to_vec();
        }
        self.seps_changed = false;
        Ok(self.rs.clone())
    }

    pub(super) fn current_splitter(&mut self) -> R<Rc<Splitter>> {
        if self.seps_changed {
            self.record_sep()?;
        }
        if !self.splitter_stale {
            return Ok(self.splitter.clone());
        }
        let fs = self.scalar_bytes(FS)?;
        let paragraph = matches!(self.rs, RecordSep::Paragraph);
        if *fs != *self.splitter_key.0 || paragraph != self.splitter_key.1 {
            self.splitter = Rc::new(Splitter::build(&fs, paragraph)?);
            self.splitter_key = (fs.to_vec(), paragraph);
        }
        self.splitter_stale = false;
        Ok(self.splitter.clone())
    }

    pub(super) fn scalar_bytes(&self, i: usize) -> R<Rc<[u8]>> {
        match &self.globals[i] {
            Cell::Val(v) => Ok(self.to_str(v)),
            _ => Ok(Rc::from(&b""[..])),
        }
    }

    /// Opens the next main input operand; false when there is none.
    pub(super) fn open_next_main(&mut self) -> R<bool> {
        loop {
            let argc = self.global_value(ARGC).num();
            if (self.next_arg as f64) >= argc {
                break;
            }
            let i = self.next_arg;
            self.next_arg += 1;
            let arg = {
                let Cell::Arr(argv) = &self.globals[ARGV] else { break };
                let argv = argv.borrow();
                match argv.get(i.to_string().as_bytes()) {
                    Some(v) => self.to_str(v),
                    None => continue,
                }
            };
            if arg.is_empty() {
                continue;
            }
            if let Some((name, value)) = split_assignment(&arg) {
                let value = super::super::lexer::unescape(value);
                self.assign_global(name, &value)?;
                continue;
            }
            self.used_file = true;
            let name = String::from_utf8_lossy(&arg).into_owned();
            let opened = if name == "/dev/stdin" { self.ctx.open("-") } else { self.ctx.open(&name) };
            let source = {
                match opened {
                    Ok(reader) => Source::reader(reader),
                    Err(e) => {
                        let reason = error_reason(&e);
                        self.ctx.error(format!("cannot open \"{name}\" ({reason})"))?;
                        self.input_error = true;
                        continue;
                    }
                }
            };
            self.globals[FILENAME] = Cell::Val(Value::str(&arg));
            self.globals[FNR] = Cell::Val(Value::Num(0.0));
            self.main = Some(source);
            return Ok(true);
        }
        if !self.used_file {
            self.used_file = true;
            self.globals[FNR] = Cell::Val(Value::Num(0.0));
            self.globals[FILENAME] = Cell::Val(Value::str(b"-"));
            self.main = self.ctx.open("-").ok().map(Source::reader);
            return Ok(true);
        }
        Ok(false)
    }

    /// The next main-input record's bounds in the main source's data,
    /// advancing NR and FNR.
    pub(super) fn read_main(&mut self) -> R<Option<(usize, usize)>> {
        loop {
            if self.seps_changed {
                self.record_sep()?;
            }
            if let Some(src) = &mut self.main {
                if let Some(bounds) = src.next(&self.rs, self.ctx.max_memory)? {
                    self.bump(NR);
                    self.bump(FNR);
                    return Ok(Some(bounds));
                }
                self.main = None;
            }
            if !self.open_next_main()? {
                return Ok(None);
            }
        }
    }

    /// Adds one to NR or FNR.
    fn bump(&mut self, i: usize) {
        if let Cell::Val(Value::Num(n)) = &mut self.globals[i] {
            *n += 1.0;
        } else {
            let n = self.global_value(i).num() + 1.0;
            self.globals[i] = Cell::Val(Value::Num(n));
        }
    }

    /// The main source's bytes from `s` to `e` (bounds [`read_main`]
    /// just returned).
    fn main_bytes(&self, s: usize, e: usize) -> &[u8] {
        self.main.as_ref().map_or(&[][..], |src| &src.data[s..e])
    }

    pub(super) fn read_main_into_record(&mut self) -> R<bool> {
        let Some((s, e)) = self.read_main()? else { return Ok(false) };
        if self.seps_changed || self.splitter_stale {
            self.current_splitter()?;
        }
        let text = self.main.as_ref().map_or(&[][..], |src| &src.data[s..e]);
        self.record.set(text, &self.splitter);
        Ok(true)
    }

    pub(super) fn set_record(&mut self, bytes: &[u8]) -> R<()> {
        let splitter = self.current_splitter()?;
        self.record.set(bytes, &splitter);
        Ok(())
    }

    // ---- getline ----

    /// `cmd | getline [var]`: the first read runs the command to its end
    /// (its output held, up to a quarter of the memory budget); each read
    /// takes the next record. Sets NR (and $0 and NF without `var`), as gawk.
    #[inline(never)]
    pub(super) fn pipe_getline(&mut self, cmd: &Expr, var: Option<&Expr>) -> R<Value> {
        let name = self.str_arg(cmd)?.to_vec();
        if !self.commands.contains_key(&name) {
            self.flush_everything()?;
            let mut out = Output::new(self.ctx.max_memory / 4);
            let status = match self.run_shell(&name, b"", Some(&mut out)) {
                Ok(status) => status,
                // Our hold is full: the command stops as at a closed pipe.
                Err(Fatal::Limit(LimitHit::Output)) if out.truncated() => LimitHit::BrokenPipe.exit_code(),
                Err(e) => return Err(e),
            };
            let truncated = out.truncated();
            let source = Source::bytes(out.take());
            self.commands.insert(name.clone(), Piped { source, status, truncated });
        }
        let sep = self.record_sep()?;
        let Some(piped) = self.commands.get_mut(&name) else {
            return Ok(Value::Num(-1.0));
        };
        let src = &mut piped.source;
        let record = next_record(&src.data, &mut src.pos, &sep);
        // A record that runs into the cut may be incomplete, and more was
        // to come: past what is held, the run stops with the limit.
        if piped.truncated && (record.is_none() || src.pos >= src.data.len()) {
            return Err(Fatal::Limit(LimitHit::Memory));
        }
        let Some((s, e)) = record else {
            return Ok(Value::Num(0.0));
        };
        let text = src.data[s..e].to_vec();
        self.store_getline(var, &text)?;
        self.bump(NR);
        Ok(Value::Num(1.0))
    }

    #[inline(never)]
    pub(super) fn getline(&mut self, var: Option<&Expr>, file: Option<&Expr>) -> R<Value> {
        let Some(file) = file else {
            let Some((s, e)) = self.read_main()? else {
                return Ok(Value::Num(0.0));
            };
            match var {
                Some(v) => {
                    let value = Value::strnum(self.main_bytes(s, e));
                    let p = self.place(v)?;
                    self.set_place(&p, value)?;
                }
                None => {
                    let text = self.main_bytes(s, e).to_vec();
                    self.set_record(&text)?;
                }
            }
            return Ok(Value::Num(1.0));
        };
        let name = self.eval(file)?;
        let name = self.to_str(&name).to_vec();
        if !self.inputs.contains_key(&name) {
            let user = String::from_utf8_lossy(&name).into_owned();
            let opened = if user == "/dev/stdin" { self.ctx.open("-") } else { self.ctx.open(&user) };
            let source = match opened {
                Ok(reader) => Source::reader(reader),
                Err(_) => return Ok(Value::Num(-1.0)),
            };
            self.inputs.insert(name.clone(), source);
        }
        let sep = self.record_sep()?;
        let Some(src) = self.inputs.get_mut(&name) else {
            return Ok(Value::Num(-1.0));
        };
        let Some((s, e)) = src.next(&sep, self.ctx.max_memory)? else {
            return Ok(Value::Num(0.0));
        };
        let text = src.data[s..e].to_vec();
        // `getline < file` sets $0 and NF, not NR (gawk and mawk).
        self.store_getline(var, &text)?;
        Ok(Value::Num(1.0))
    }

    /// Puts a record getline read into `var`, or into $0 (and NF).
    fn store_getline(&mut self, var: Option<&Expr>, text: &[u8]) -> R<()> {
        match var {
            Some(v) => {
                let p = self.place(v)?;
                self.set_place(&p, Value::strnum(text))
            }
            None => self.set_record(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::commands::awk::value::is_blank;

    /// Splitting on blanks eight bytes at a time gives the fields a byte
    /// at a time gives, and counting them gives their number.
    #[test]
    fn blank_splitting_by_words_matches_a_byte_at_a_time() {
        let alphabet = b" \t\nab\x0b\r\x80\x00,";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            alphabet[(seed % alphabet.len() as u64) as usize]
        };
        for len in 0..80 {
            for _ in 0..50 {
                let text: Vec<u8> = (0..len).map(|_| next()).collect();
                let mut expected = Vec::new();
                let mut i = 0;
                while i < text.len() {
                    while i < text.len() && is_blank(text[i]) {
                        i += 1;
                    }
                    if i == text.len() {
                        break;
                    }
                    let start = i;
                    while i < text.len() && !is_blank(text[i]) {
                        i += 1;
                    }
                    expected.push((start, i));
                }
                let mut got = Vec::new();
                Splitter::Space.split(&text, &mut got);
                assert_eq!(got, expected, "{text:?}");
                assert_eq!(Splitter::Space.count(&text), Some(expected.len()), "{text:?}");
            }
        }
    }
}
