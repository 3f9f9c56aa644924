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

    pub(super) fn split(&self, text: &[u8], out: &mut Vec<(usize, usize)>) {
        out.clear();
        match self {
            Splitter::Space => {
                let mut i = 0;
                while i < text.len() {
                    while i < text.len() && is_blank(text[i]) {
                        i += 1;
                    }
                    if i >= text.len() {
                        break;
                    }
                    let start = i;
                    while i < text.len() && !is_blank(text[i]) {
                        i += 1;
                    }
                    out.push((start, i));
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
}

pub(super) struct Source<'a> {
    pub(super) data: Rc<[u8]>,
    pub(super) pos: usize,
    /// Stdin read as it comes, or a file read a piece at a time: more
    /// may follow `data`.
    pub(super) more: Option<Reader<'a>>,
}

impl<'a> Source<'a> {
    pub(super) fn reader(reader: Reader<'a>) -> Source<'a> {
        Source { data: Rc::from(&b""[..]), pos: 0, more: Some(reader) }
    }

    /// Reads on until a whole record is at hand: until the rest holds a
    /// one-byte separator, or to the end for other separators (a regex or
    /// a blank line may need what follows). So `exit` stops reading, as
    /// awk's does, and a large file is held a piece at a time. A file that
    /// fails part-way ends there.
    pub(super) fn fill(&mut self, sep: &RecordSep, max_memory: usize) -> Result<(), LimitHit> {
        let Some(reader) = &mut self.more else { return Ok(()) };
        let byte = match sep {
            RecordSep::Byte(c) => Some(*c),
            _ => None,
        };
        if byte.is_some_and(|c| memchr::memchr(c, &self.data[self.pos..]).is_some()) {
            return Ok(());
        }
        let mut buf = self.data[self.pos..].to_vec();
        loop {
            match reader.next_piece() {
                Ok(Some(piece)) => {
                    let found = byte.is_some_and(|c| memchr::memchr(c, &piece).is_some());
                    buf.extend_from_slice(&piece);
                    if buf.len() > max_memory {
                        return Err(LimitHit::Memory);
                    }
                    if found {
                        break;
                    }
                }
                Ok(None) | Err(ReadFailed::Storage(_)) => {
                    self.more = None;
                    break;
                }
                Err(ReadFailed::Limit(hit)) => return Err(hit),
            }
        }
        self.data = Rc::from(buf);
        self.pos = 0;
        Ok(())
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

    pub(super) fn record_sep(&mut self) -> R<RecordSep> {
        let rs = self.scalar_bytes(RS)?;
        if *rs != *self.rs_key {
            self.rs = match &*rs {
                b"" => RecordSep::Paragraph,
                [c] => RecordSep::Byte(*c),
                pattern => RecordSep::Regex(Rc::new(ere::compile(pattern).map_err(Fatal::Error)?)),
            };
            self.rs_key = rs.to_vec();
        }
        Ok(self.rs.clone())
    }

    pub(super) fn current_splitter(&mut self) -> R<Rc<Splitter>> {
        let fs = self.scalar_bytes(FS)?;
        let paragraph = matches!(self.rs, RecordSep::Paragraph);
        if *fs != *self.splitter_key.0 || paragraph != self.splitter_key.1 {
            self.splitter = Rc::new(Splitter::build(&fs, paragraph)?);
            self.splitter_key = (fs.to_vec(), paragraph);
        }
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

    /// The next main-input record's bytes, advancing NR and FNR.
    pub(super) fn read_main(&mut self) -> R<Option<Span>> {
        loop {
            let sep = self.record_sep()?;
            if let Some(src) = &mut self.main {
                src.fill(&sep, self.ctx.max_memory)?;
                if let Some((s, e)) = next_record(&src.data, &mut src.pos, &sep) {
                    let data = src.data.clone();
                    let nr = self.global_value(NR).num() + 1.0;
                    let fnr = self.global_value(FNR).num() + 1.0;
                    self.globals[NR] = Cell::Val(Value::Num(nr));
                    self.globals[FNR] = Cell::Val(Value::Num(fnr));
                    return Ok(Some((data, s, e)));
                }
                self.main = None;
            }
            if !self.open_next_main()? {
                return Ok(None);
            }
        }
    }

    pub(super) fn read_main_into_record(&mut self) -> R<bool> {
        match self.read_main()? {
            Some((data, s, e)) => {
                self.set_record(&data[s..e])?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    pub(super) fn set_record(&mut self, bytes: &[u8]) -> R<()> {
        let splitter = self.current_splitter()?;
        let r = &mut self.record;
        r.text.clear();
        r.text.extend_from_slice(bytes);
        r.stale = false;
        r.split = false;
        r.materialized = false;
        r.vals.clear();
        r.splitter = splitter;
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
            let source = Source { data: Rc::from(out.take()), pos: 0, more: None };
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
        let data = src.data.clone();
        self.store_getline(var, &data[s..e])?;
        let nr = self.global_value(NR).num() + 1.0;
        self.globals[NR] = Cell::Val(Value::Num(nr));
        Ok(Value::Num(1.0))
    }

    #[inline(never)]
    pub(super) fn getline(&mut self, var: Option<&Expr>, file: Option<&Expr>) -> R<Value> {
        let Some(file) = file else {
            let Some((data, s, e)) = self.read_main()? else {
                return Ok(Value::Num(0.0));
            };
            match var {
                Some(v) => {
                    let p = self.place(v)?;
                    self.set_place(&p, Value::strnum(&data[s..e]))?;
                }
                None => self.set_record(&data[s..e])?,
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
        src.fill(&sep, self.ctx.max_memory)?;
        let Some((s, e)) = next_record(&src.data, &mut src.pos, &sep) else {
            return Ok(Value::Num(0.0));
        };
        let data = src.data.clone();
        // `getline < file` sets $0 and NF, not NR (gawk and mawk).
        self.store_getline(var, &data[s..e])?;
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
