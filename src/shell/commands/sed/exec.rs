//! One cycle of the commands over the pattern space, and the output.

use super::*;

/// Why a cycle ended early.
pub(super) enum Flow {
    Continue,
    /// `d`, `c`: next cycle, no autoprint.
    Delete,
    /// `D` with a newline: restart without reading.
    Restart,
    /// `q`: autoprint then stop; `Q`: stop.
    Quit(i32, bool),
    /// `n`/`N` with no next line: autoprint and end this input.
    EndInput,
}

pub(super) struct Exec<'p> {
    pub(super) commands: &'p [Command],
    pub(super) ranges: Vec<RangeState>,
    pub(super) quiet: bool,
    pub(super) line: u64,
    pub(super) pattern: Vec<u8>,
    pub(super) hold: Vec<u8>,
    pub(super) newline: bool,
    pub(super) substituted: bool,
    pub(super) last_regex: Option<Rc<Regex>>,
    pub(super) append: Vec<u8>,
    /// A second buffer for `s` results and `N`'s next line.
    pub(super) scratch: Vec<u8>,
    pub(super) out: Vec<u8>,
    /// The output goes to stdout (not to a file edited in place).
    pub(super) to_stdout: bool,
    /// The temporary file a large file edited in place is written to, a
    /// piece at a time, and what stopped a write to it.
    pub(super) sink: Option<String>,
    pub(super) sink_error: Option<crate::storage::StorageError>,
    /// A line printed without its newline (last input line had none):
    /// the newline is owed if anything else is printed.
    pub(super) owed_newline: bool,
    pub(super) writes: BTreeMap<String, Vec<u8>>,
    pub(super) status: i32,
    /// A file could not be read (status 2 at the end, as GNU sed).
    pub(super) failed: bool,
}

impl Exec<'_> {
    pub(super) fn emit(&mut self, bytes: &[u8]) {
        if self.owed_newline {
            self.out.push(b'\n');
            self.owed_newline = false;
        }
        self.out.extend_from_slice(bytes);
    }

    /// Prints the pattern space's first `end` bytes as a line: its newline
    /// only when the input line had one (`newline`).
    pub(super) fn emit_pattern(&mut self, end: usize, newline: bool) {
        if self.owed_newline {
            self.out.push(b'\n');
            self.owed_newline = false;
        }
        self.out.extend_from_slice(&self.pattern[..end]);
        if newline {
            self.out.push(b'\n');
        } else {
            self.owed_newline = true;
        }
    }

    /// Sends buffered output to stdout, or for `-i` to the temporary file
    /// of a large file (a small one's result is kept whole).
    pub(super) fn flush(&mut self, ctx: &mut Context<'_>, to_stdout: bool) -> Result<(), LimitHit> {
        if self.out.is_empty() {
            return Ok(());
        }
        if to_stdout {
            ctx.stdout.write(&self.out)?;
            self.out.clear();
        } else if let Some(temp) = &self.sink {
            if self.sink_error.is_none() {
                if let Err(error) = ctx.storage.append(temp, &self.out) {
                    self.sink_error = Some(error);
                }
            }
            self.out.clear();
        }
        Ok(())
    }

    /// Writes the output out once enough of it is held (as a process's
    /// buffered stdout; anything sed writes to stderr flushes it first).
    pub(super) fn flush_some(&mut self, ctx: &mut Context<'_>, to_stdout: bool) -> Result<(), LimitHit> {
        if self.out.len() >= OUT_BUF {
            self.flush(ctx, to_stdout)?;
        }
        Ok(())
    }

    pub(super) fn end_cycle_output(&mut self, autoprint: bool) {
        if autoprint && !self.quiet {
            self.emit_pattern(self.pattern.len(), self.newline);
        }
        if !self.append.is_empty() {
            let append = std::mem::take(&mut self.append);
            self.emit(&append);
            self.append = append;
            self.append.clear();
        }
    }

    pub(super) fn read_line(&mut self, ctx: &mut Context<'_>, input: &mut Input) -> Result<bool, LimitHit> {
        let line = input.next_line(&mut self.pattern);
        // A file that could not be read is reported where it was met.
        if !input.errors.is_empty() {
            self.flush(ctx, self.to_stdout)?;
            for message in std::mem::take(&mut input.errors) {
                ctx.error(message)?;
            }
            self.failed = true;
        }
        Ok(match line {
            Some(newline) => {
                self.newline = newline;
                self.line += 1;
                true
            }
            None => false,
        })
    }

    pub(super) fn regex_matches(&mut self, regex: &Option<Rc<Regex>>) -> bool {
        let regex = match regex {
            Some(regex) => {
                self.last_regex = Some(regex.clone());
                regex.clone()
            }
            None => match &self.last_regex {
                Some(regex) => regex.clone(),
                None => return false,
            },
        };
        regex.is_match(&self.pattern)
    }

    pub(super) fn addr_matches(&mut self, addr: &Addr, input: &mut Input) -> bool {
        match addr {
            Addr::Line(n) => self.line == *n,
            Addr::Last => input.is_last(),
            Addr::Regex(regex) => self.regex_matches(regex),
            Addr::Step(first, step) => {
                if *step == 0 {
                    self.line == *first
                } else {
                    self.line >= *first && (self.line - first).is_multiple_of(*step)
                }
            }
            Addr::Zero => false,
        }
    }

    /// Whether command `index` applies to the current line (updating its range).
    pub(super) fn selected(&mut self, index: usize, input: &mut Input) -> bool {
        let commands = self.commands;
        let command = &commands[index];
        let hit = match (&command.a1, &command.a2) {
            (None, _) => true,
            (Some(a1), None) => self.addr_matches(a1, input),
            (Some(a1), Some(a2)) => {
                let state = self.ranges[index];
                if state.active {
                    let ends = match a2 {
                        Addr2::Addr(Addr::Line(n)) => self.line >= *n,
                        Addr2::Plus(_) => self.line >= state.end_line,
                        Addr2::Tilde(n) => *n == 0 || self.line.is_multiple_of(*n),
                        Addr2::Addr(addr) => self.addr_matches(addr, input),
                    };
                    if ends {
                        self.ranges[index].active = false;
                    }
                    true
                } else if self.addr_matches(a1, input) {
                    let continues = match a2 {
                        Addr2::Addr(Addr::Line(n)) => *n > self.line,
                        Addr2::Plus(n) => {
                            self.ranges[index].end_line = self.line.saturating_add(*n);
                            *n > 0
                        }
                        Addr2::Tilde(n) => *n > 0 && !self.line.is_multiple_of(*n),
                        Addr2::Addr(Addr::Last) => !input.is_last(),
                        Addr2::Addr(_) => true,
                    };
                    self.ranges[index].active = continues;
                    true
                } else {
                    false
                }
            }
        };
        hit != command.negate
    }

    /// Runs the script over `input`; true when `q`/`Q` stopped it.
    pub(super) fn run(&mut self, ctx: &mut Context<'_>, input: &mut Input, to_stdout: bool) -> Result<bool, LimitHit> {
        self.to_stdout = to_stdout;
        let mut restart = false;
        let mut cycles: u32 = 0;
        loop {
            // The clock every 16 cycles (a read costs about as much as a
            // short line's cycle), and after any long line.
            cycles = cycles.wrapping_add(1);
            if cycles.is_multiple_of(16) || self.pattern.len() > OUT_BUF {
                (ctx.check)()?;
            }
            if self.sink_error.is_some() || (!restart && !self.read_line(ctx, input)?) {
                break;
            }
            restart = false;
            self.substituted = false;
            let flow = self.cycle(ctx, input)?;
            match flow {
                Flow::Continue => self.end_cycle_output(true),
                Flow::Delete => self.end_cycle_output(false),
                Flow::Restart => {
                    self.end_cycle_output(false);
                    restart = true;
                }
                Flow::EndInput => {
                    self.end_cycle_output(true);
                    break;
                }
                Flow::Quit(code, autoprint) => {
                    self.end_cycle_output(autoprint);
                    self.status = code;
                    self.flush(ctx, to_stdout)?;
                    return Ok(true);
                }
            }
            self.flush_some(ctx, to_stdout)?;
        }
        self.flush(ctx, to_stdout)?;
        Ok(false)
    }

    pub(super) fn too_big(&self) -> bool {
        self.pattern.len() > MAX_SPACE || self.hold.len() > MAX_SPACE
    }

    pub(super) fn cycle(&mut self, ctx: &mut Context<'_>, input: &mut Input) -> Result<Flow, LimitHit> {
        let commands = self.commands;
        let mut pc = 0;
        let mut steps: u64 = 0;
        while pc < commands.len() {
            steps += 1;
            if steps.is_multiple_of(1024) {
                (ctx.check)()?;
            }
            if self.too_big() {
                self.flush(ctx, self.to_stdout)?;
                ctx.error("pattern space too large")?;
                return Ok(Flow::Quit(4, false));
            }
            if !self.selected(pc, input) {
                if let Kind::Block(end) = commands[pc].kind {
                    pc = end + 1;
                } else {
                    pc += 1;
                }
                continue;
            }
            let kind = &commands[pc].kind;
            pc += 1;
            match kind {
                Kind::Block(_) | Kind::EndBlock | Kind::Label => {}
                Kind::Subst(subst) => {
                    if self.substitute(subst) {
                        self.substituted = true;
                        if subst.print {
                            self.emit_pattern(self.pattern.len(), true);
                        }
                        if let Some(path) = &subst.write {
                            let mut line = self.pattern.clone();
                            line.push(b'\n');
                            self.write_to(ctx, path, &line)?;
                        }
                    }
                }
                // As GNU: a last line without its newline is printed
                // without one (owed if anything follows).
                Kind::Print => self.emit_pattern(self.pattern.len(), self.newline),
                Kind::PrintFirst => {
                    let end = memchr::memchr(b'\n', &self.pattern);
                    self.emit_pattern(end.unwrap_or(self.pattern.len()), end.is_some() || self.newline);
                }
                Kind::Delete => return Ok(Flow::Delete),
                Kind::DeleteFirst => match memchr::memchr(b'\n', &self.pattern) {
                    Some(i) => {
                        self.pattern.drain(..=i);
                        return Ok(Flow::Restart);
                    }
                    None => return Ok(Flow::Delete),
                },
                Kind::Quit(code) => return Ok(Flow::Quit(*code, true)),
                Kind::QuitSilent(code) => return Ok(Flow::Quit(*code, false)),
                Kind::LineNumber => {
                    let text = format!("{}\n", self.line);
                    self.emit(text.as_bytes());
                }
                Kind::List => {
                    let text = list(&self.pattern);
                    self.emit(&text);
                }
                Kind::Append(text) => self.append.extend_from_slice(text),
                Kind::Insert(text) => self.emit(text),
                Kind::Change(text) => {
                    let command = &commands[pc - 1];
                    // In a range, the text replaces the whole range: printed at its end.
                    if command.a2.is_none() || command.negate || !self.ranges[pc - 1].active {
                        self.emit(text);
                    }
                    return Ok(Flow::Delete);
                }
                Kind::Translate(table) => {
                    for byte in self.pattern.iter_mut() {
                        *byte = table[usize::from(*byte)];
                    }
                }
                Kind::Next => {
                    if input.is_last() {
                        return Ok(Flow::EndInput);
                    }
                    self.end_cycle_output(true);
                    self.read_line(ctx, input)?;
                }
                Kind::NextAppend => {
                    if input.is_last() {
                        return Ok(Flow::EndInput);
                    }
                    if !self.append.is_empty() {
                        let append = std::mem::take(&mut self.append);
                        self.emit(&append);
                    }
                    // The next line goes into a second buffer, then after
                    // a newline at the end of the pattern space.
                    let mut pattern = std::mem::take(&mut self.pattern);
                    std::mem::swap(&mut self.pattern, &mut self.scratch);
                    self.read_line(ctx, input)?;
                    pattern.push(b'\n');
                    pattern.extend_from_slice(&self.pattern);
                    std::mem::swap(&mut self.pattern, &mut self.scratch);
                    self.pattern = pattern;
                }
                Kind::Hold => self.hold.clone_from(&self.pattern),
                Kind::HoldAppend => {
                    self.hold.push(b'\n');
                    self.hold.extend_from_slice(&self.pattern);
                }
                Kind::Get => self.pattern.clone_from(&self.hold),
                Kind::GetAppend => {
                    self.pattern.push(b'\n');
                    self.pattern.extend_from_slice(&self.hold);
                }
                Kind::Exchange => std::mem::swap(&mut self.pattern, &mut self.hold),
                Kind::Zap => self.pattern.clear(),
                Kind::FileName => {
                    let text = format!("{}\n", input.name());
                    self.emit(text.as_bytes());
                }
                Kind::Branch(target) => pc = target.unwrap_or(commands.len()),
                Kind::BranchIfSub(target) => {
                    if self.substituted {
                        self.substituted = false;
                        pc = target.unwrap_or(commands.len());
                    }
                }
                Kind::BranchUnlessSub(target) => {
                    if self.substituted {
                        self.substituted = false;
                    } else {
                        pc = target.unwrap_or(commands.len());
                    }
                }
                Kind::ReadFile(path) => {
                    // A missing file is silently ignored, as in GNU sed.
                    if let Ok(data) = ctx.read(path) {
                        self.append.extend_from_slice(&data);
                        if !data.is_empty() && data.last() != Some(&b'\n') {
                            self.append.push(b'\n');
                        }
                    }
                }
                Kind::WriteFile(path) => {
                    let mut line = self.pattern.clone();
                    line.push(b'\n');
                    self.write_to(ctx, path, &line)?;
                }
            }
        }
        Ok(Flow::Continue)
    }

    pub(super) fn write_to(&mut self, ctx: &mut Context<'_>, path: &str, bytes: &[u8]) -> Result<(), LimitHit> {
        match path {
            "/dev/stdout" => self.emit(bytes),
            "/dev/stderr" => {
                self.flush(ctx, self.to_stdout)?;
                ctx.stderr.write(bytes)?;
            }
            _ => self.writes.entry(path.to_string()).or_default().extend_from_slice(bytes),
        }
        Ok(())
    }

    pub(super) fn substitute(&mut self, subst: &Subst) -> bool {
        let regex = match &subst.regex {
            Some(regex) => {
                if !self.last_regex.as_ref().is_some_and(|last| Rc::ptr_eq(last, regex)) {
                    self.last_regex = Some(regex.clone());
                }
                regex.clone()
            }
            None => match &self.last_regex {
                Some(regex) => regex.clone(),
                None => return false,
            },
        };
        // The result is built in a second buffer that then trades places
        // with the pattern space: no allocation per line once both grew.
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut last = 0;
        let mut count = 0;
        let mut done = false;
        let mut replace = |start: usize, end: usize, group: &dyn Fn(usize) -> Option<(usize, usize)>| -> bool {
            count += 1;
            if count < subst.nth {
                return true;
            }
            out.extend_from_slice(&self.pattern[last..start]);
            expand(&self.pattern, group, &subst.replacement, &mut out);
            last = end;
            done = true;
            subst.global && out.len() <= MAX_SPACE
        };
        if subst.groups {
            for caps in regex.captures_iter(&self.pattern) {
                let Some(whole) = caps.get(0) else { continue };
                let group = |n: usize| caps.get(n).map(|m| (m.start(), m.end()));
                if !replace(whole.start(), whole.end(), &group) {
                    break;
                }
            }
        } else {
            // Only `&` in the replacement: the matches' bounds are enough.
            for m in regex.find_iter(&self.pattern) {
                let (start, end) = (m.start(), m.end());
                let group = |_: usize| Some((start, end));
                if !replace(start, end, &group) {
                    break;
                }
            }
        }
        if !done {
            self.scratch = out;
            return false;
        }
        out.extend_from_slice(&self.pattern[last..]);
        self.scratch = std::mem::replace(&mut self.pattern, out);
        true
    }
}

/// Appends a replacement with its groups (`group(n)`: the bounds of group
/// `n` in `text`) and case conversions.
pub(super) fn expand(
    text: &[u8],
    group: &dyn Fn(usize) -> Option<(usize, usize)>,
    pieces: &[Piece],
    out: &mut Vec<u8>,
) {
    // Without case conversions the pieces are copied as they are.
    if pieces.iter().all(|piece| !matches!(piece, Piece::Case(_))) {
        for piece in pieces {
            match piece {
                Piece::Literal(bytes) => out.extend_from_slice(bytes),
                Piece::Group(n) => {
                    if let Some((start, end)) = group(*n) {
                        out.extend_from_slice(&text[start..end]);
                    }
                }
                Piece::Case(_) => {}
            }
        }
        return;
    }
    // `\U`/`\L` stay on until `\E`; `\u`/`\l` apply to the next byte only.
    let mut mode = b'E';
    let mut once: Option<u8> = None;
    let push = |bytes: &[u8], mode: u8, once: &mut Option<u8>, out: &mut Vec<u8>| {
        for &byte in bytes {
            let byte = match once.take() {
                Some(b'u') => byte.to_ascii_uppercase(),
                Some(b'l') => byte.to_ascii_lowercase(),
                _ => match mode {
                    b'U' => byte.to_ascii_uppercase(),
                    b'L' => byte.to_ascii_lowercase(),
                    _ => byte,
                },
            };
            out.push(byte);
        }
    };
    for piece in pieces {
        match piece {
            Piece::Literal(bytes) => push(bytes, mode, &mut once, out),
            Piece::Group(n) => {
                if let Some((start, end)) = group(*n) {
                    push(&text[start..end], mode, &mut once, out);
                }
            }
            Piece::Case(c @ (b'u' | b'l')) => once = Some(*c),
            Piece::Case(c) => {
                mode = *c;
                once = None;
            }
        }
    }
}

/// `l`: the pattern space with C escapes, wrapped at 70 columns, ending in `$`.
pub(super) fn list(pattern: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut width = 0;
    for &byte in pattern {
        let piece: Vec<u8> = match byte {
            b'\\' => b"\\\\".to_vec(),
            0x07 => b"\\a".to_vec(),
            0x08 => b"\\b".to_vec(),
            0x0C => b"\\f".to_vec(),
            b'\n' => b"\\n".to_vec(),
            b'\r' => b"\\r".to_vec(),
            b'\t' => b"\\t".to_vec(),
            0x0B => b"\\v".to_vec(),
            0x20..=0x7E => vec![byte],
            _ => format!("\\{byte:03o}").into_bytes(),
        };
        if width + piece.len() > 69 {
            out.extend_from_slice(b"\\\n");
            width = 0;
        }
        width += piece.len();
        out.extend_from_slice(&piece);
    }
    out.extend_from_slice(b"$\n");
    out
}
