//! The script: addresses and commands as `-e`/`-f` give them, parsed once.

use super::*;

#[derive(Debug, Clone)]
pub(super) enum Addr {
    Line(u64),
    Last,
    /// None: the last regex used (`//`).
    Regex(Option<Rc<Regex>>),
    Step(u64, u64),
    /// `0,/re/`.
    Zero,
}

#[derive(Debug, Clone)]
pub(super) enum Addr2 {
    Addr(Addr),
    Plus(u64),
    Tilde(u64),
}

#[derive(Debug, Clone)]
pub(super) enum Piece {
    Literal(Vec<u8>),
    Group(usize),
    /// `\U`, `\L`, `\E`: 'U', 'L', 'E'; `\u`, `\l`: 'u', 'l'.
    Case(u8),
}

#[derive(Debug, Clone)]
pub(super) struct Subst {
    pub(super) regex: Option<Rc<Regex>>,
    pub(super) replacement: Vec<Piece>,
    /// The replacement uses a group (`\\1`…): matches are found with
    /// their groups (slower), not only their bounds.
    pub(super) groups: bool,
    pub(super) global: bool,
    pub(super) nth: usize,
    pub(super) print: bool,
    pub(super) write: Option<String>,
}

#[derive(Debug, Clone)]
pub(super) enum Kind {
    /// `{`: index of the matching `}`.
    Block(usize),
    EndBlock,
    Subst(Box<Subst>),
    Print,
    PrintFirst,
    Delete,
    DeleteFirst,
    Quit(i32),
    QuitSilent(i32),
    LineNumber,
    List,
    Append(Vec<u8>),
    Insert(Vec<u8>),
    Change(Vec<u8>),
    Translate(Box<[u8; 256]>),
    Next,
    NextAppend,
    Hold,
    HoldAppend,
    Get,
    GetAppend,
    Exchange,
    /// Branches: target index (None: end of script) resolved after parsing.
    Branch(Option<usize>),
    BranchIfSub(Option<usize>),
    BranchUnlessSub(Option<usize>),
    Label,
    ReadFile(String),
    WriteFile(String),
    Zap,
    FileName,
}

#[derive(Debug, Clone)]
pub(super) struct Command {
    pub(super) a1: Option<Addr>,
    pub(super) a2: Option<Addr2>,
    pub(super) negate: bool,
    pub(super) kind: Kind,
}

/// A command's range state: inside the range, and the line it ends at for
/// `+N` (apart from the commands, which are only read while running).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RangeState {
    pub(super) active: bool,
    pub(super) end_line: u64,
}

/// A script error: message and the 1-based position GNU reports (None:
/// no position, and exit status 4 as GNU's "panic" errors).
pub(super) struct ParseError {
    pub(super) at: Option<usize>,
    pub(super) message: String,
}

pub(super) struct Parser<'a> {
    pub(super) s: &'a [u8],
    pub(super) i: usize,
    pub(super) extended: bool,
    pub(super) commands: Vec<Command>,
    /// Open `{` indexes.
    pub(super) blocks: Vec<usize>,
    /// (command index, label) for branches, resolved at the end.
    pub(super) branches: Vec<(usize, String)>,
    pub(super) labels: BTreeMap<String, usize>,
}

impl Parser<'_> {
    pub(super) fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError { at: Some(self.i), message: message.into() })
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    pub(super) fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    pub(super) fn number(&mut self) -> Option<u64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).ok()?.parse().ok()
    }

    /// Reads up to the unescaped `delim`; `\delim` becomes `delim`, other
    /// escapes are kept; a newline stays as is. Returns None at the end.
    pub(super) fn delimited(&mut self, delim: u8, regex: bool) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let c = self.peek()?;
            self.i += 1;
            if c == delim {
                return Some(out);
            }
            if c == b'\\' {
                let e = self.peek()?;
                self.i += 1;
                if e == delim {
                    out.push(e);
                } else if e == b'\n' && !regex {
                    out.push(b'\n');
                } else {
                    out.push(b'\\');
                    out.push(e);
                }
            } else {
                out.push(c);
            }
        }
    }

    pub(super) fn compile(&self, pattern: &[u8], ignore_case: bool) -> Result<Option<Rc<Regex>>, ParseError> {
        if pattern.is_empty() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(pattern);
        let dialect = Dialect { extended: self.extended, lines: false, sed_escapes: true };
        let translated = match translate(&text, dialect) {
            Ok(translated) => translated,
            Err(message) => return self.error(message),
        };
        let flags = if ignore_case { "(?i)" } else { "" };
        match RegexBuilder::new(&format!("{flags}{translated}")).size_limit(1 << 26).build() {
            Ok(regex) => Ok(Some(Rc::new(regex))),
            Err(error) => self.error(error.to_string()),
        }
    }

    pub(super) fn address(&mut self) -> Result<Option<Addr>, ParseError> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                let Some(first) = self.number() else { return self.error("invalid line number") };
                if self.peek() == Some(b'~') {
                    self.i += 1;
                    let step = self.number().unwrap_or(0);
                    return Ok(Some(Addr::Step(first, step)));
                }
                Ok(Some(if first == 0 { Addr::Zero } else { Addr::Line(first) }))
            }
            Some(b'$') => {
                self.i += 1;
                Ok(Some(Addr::Last))
            }
            Some(c @ (b'/' | b'\\')) => {
                self.i += 1;
                let delim = if c == b'\\' {
                    let Some(d) = self.peek() else { return self.error("unexpected `,'") };
                    self.i += 1;
                    d
                } else {
                    b'/'
                };
                let Some(pattern) = self.delimited(delim, true) else {
                    return self.error("unterminated address regex");
                };
                let mut ignore_case = false;
                while matches!(self.peek(), Some(b'I')) {
                    self.i += 1;
                    ignore_case = true;
                }
                Ok(Some(Addr::Regex(self.compile(&pattern, ignore_case)?)))
            }
            _ => Ok(None),
        }
    }

    /// Text of `a`, `i`, `c`: GNU's one-liner (`a text`) or classic (`a\` newline text) form.
    pub(super) fn text(&mut self) -> Vec<u8> {
        self.skip_spaces();
        if self.peek() == Some(b'\\') {
            self.i += 1;
            if self.peek() == Some(b'\n') {
                self.i += 1;
            }
        }
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'\n' => break,
                b'\\' => {
                    if let Some(e) = self.peek() {
                        self.i += 1;
                        // GNU's escapes in text: `\t` is a tab, `\n` a newline…
                        out.push(match e {
                            b't' => b'\t',
                            b'n' => b'\n',
                            b'a' => 7,
                            b'f' => 12,
                            b'v' => 11,
                            b'r' => b'\r',
                            other => other,
                        });
                    }
                }
                _ => out.push(c),
            }
        }
        out.push(b'\n');
        out
    }

    /// A label or file name: the rest up to a newline (for labels, also
    /// `;`, and `}` after a branch).
    pub(super) fn word(&mut self, semicolon_ends: bool) -> String {
        self.word_until(semicolon_ends, false)
    }

    pub(super) fn word_until(&mut self, semicolon_ends: bool, brace_ends: bool) -> String {
        self.skip_spaces();
        let start = self.i;
        while let Some(c) = self.peek() {
            if c == b'\n' || (semicolon_ends && c == b';') || (brace_ends && c == b'}') {
                break;
            }
            self.i += 1;
        }
        let word = String::from_utf8_lossy(&self.s[start..self.i]);
        if semicolon_ends {
            word.trim_end().to_string()
        } else {
            word.into_owned()
        }
    }

    pub(super) fn replacement(&self, text: &[u8]) -> Vec<Piece> {
        let mut pieces = Vec::new();
        let mut literal = Vec::new();
        let mut i = 0;
        let flush = |literal: &mut Vec<u8>, pieces: &mut Vec<Piece>| {
            if !literal.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(literal)));
            }
        };
        while i < text.len() {
            let c = text[i];
            i += 1;
            match c {
                b'&' => {
                    flush(&mut literal, &mut pieces);
                    pieces.push(Piece::Group(0));
                }
                b'\\' if i < text.len() => {
                    let e = text[i];
                    i += 1;
                    match e {
                        b'0'..=b'9' => {
                            flush(&mut literal, &mut pieces);
                            pieces.push(Piece::Group(usize::from(e - b'0')));
                        }
                        b'U' | b'L' | b'E' | b'u' | b'l' => {
                            flush(&mut literal, &mut pieces);
                            pieces.push(Piece::Case(e));
                        }
                        b'n' => literal.push(b'\n'),
                        b't' => literal.push(b'\t'),
                        b'r' => literal.push(b'\r'),
                        b'f' => literal.push(0x0C),
                        b'v' => literal.push(0x0B),
                        b'a' => literal.push(0x07),
                        _ => literal.push(e),
                    }
                }
                _ => literal.push(c),
            }
        }
        flush(&mut literal, &mut pieces);
        pieces
    }

    pub(super) fn substitute(&mut self) -> Result<Kind, ParseError> {
        let Some(delim) = self.peek() else { return self.error("unterminated `s' command") };
        if delim == b'\n' || delim == b'\\' {
            return self.error("unterminated `s' command");
        }
        self.i += 1;
        let Some(pattern) = self.delimited(delim, true) else { return self.error("unterminated `s' command") };
        let Some(replacement) = self.delimited(delim, false) else {
            return self.error("unterminated `s' command");
        };
        let mut subst = Subst {
            regex: None,
            replacement: self.replacement(&replacement),
            groups: false,
            global: false,
            nth: 1,
            print: false,
            write: None,
        };
        let mut ignore_case = false;
        let mut nth_given = false;
        loop {
            match self.peek() {
                Some(b'g') => subst.global = true,
                Some(b'p') => subst.print = true,
                Some(b'i' | b'I') => ignore_case = true,
                Some(b'0'..=b'9') => {
                    if nth_given {
                        return self.error("multiple number options to `s' command");
                    }
                    nth_given = true;
                    match self.number() {
                        Some(n) if n > 0 => subst.nth = usize::try_from(n).unwrap_or(usize::MAX),
                        _ => return self.error("number option to `s' command may not be zero"),
                    }
                    continue;
                }
                Some(b'w') => {
                    self.i += 1;
                    subst.write = Some(self.word(false));
                    break;
                }
                // GNU skips blanks among the flags (`s/a/b/ g`).
                Some(b' ' | b'\t') => {}
                None | Some(b';' | b'\n' | b'}' | b'#') => break,
                Some(_) => {
                    self.i += 1;
                    return self.error("unknown option to `s'");
                }
            }
            self.i += 1;
        }
        subst.regex = self.compile(&pattern, ignore_case)?;
        if let Some(regex) = &subst.regex {
            let groups = regex.captures_len() - 1;
            let wanted =
                subst.replacement.iter().filter_map(|p| if let Piece::Group(n) = p { Some(*n) } else { None }).max();
            if wanted.is_some_and(|n| n > groups) {
                let n = wanted.unwrap_or(0);
                return self.error(format!("invalid reference \\{n} on `s' command's RHS"));
            }
        }
        subst.groups = subst.replacement.iter().any(|p| matches!(p, Piece::Group(n) if *n > 0));
        Ok(Kind::Subst(Box::new(subst)))
    }

    pub(super) fn translate_command(&mut self) -> Result<Kind, ParseError> {
        let Some(delim) = self.peek() else { return self.error("unterminated `y' command") };
        self.i += 1;
        let unescape = |text: Vec<u8>| -> Vec<u8> {
            let mut out = Vec::new();
            let mut i = 0;
            while i < text.len() {
                if text[i] == b'\\' && i + 1 < text.len() {
                    out.push(match text[i + 1] {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        other => other,
                    });
                    i += 2;
                } else {
                    out.push(text[i]);
                    i += 1;
                }
            }
            out
        };
        let Some(from) = self.delimited(delim, true) else { return self.error("unterminated `y' command") };
        let Some(to) = self.delimited(delim, true) else { return self.error("unterminated `y' command") };
        let (from, to) = (unescape(from), unescape(to));
        if from.len() != to.len() {
            return self.error("strings for `y' command are different lengths");
        }
        let mut table = Box::new([0u8; 256]);
        for (byte, slot) in table.iter_mut().enumerate() {
            *slot = byte as u8;
        }
        for (&a, &b) in from.iter().zip(&to) {
            table[usize::from(a)] = b;
        }
        Ok(Kind::Translate(table))
    }

    pub(super) fn parse(&mut self) -> Result<(), ParseError> {
        loop {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b';')) {
                self.i += 1;
            }
            let Some(_) = self.peek() else { break };
            if self.peek() == Some(b'#') {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.i += 1;
                }
                continue;
            }
            let a1 = self.address()?;
            let mut a2 = None;
            if a1.is_some() && self.peek() == Some(b',') {
                self.i += 1;
                self.skip_spaces();
                a2 = Some(match self.peek() {
                    Some(c @ (b'+' | b'~')) => {
                        self.i += 1;
                        let Some(n) = self.number() else { return self.error("expected newer version of sed") };
                        if c == b'+' {
                            Addr2::Plus(n)
                        } else {
                            Addr2::Tilde(n)
                        }
                    }
                    _ => match self.address()? {
                        Some(Addr::Zero) => return self.error("invalid usage of line address 0"),
                        Some(addr) => Addr2::Addr(addr),
                        None => return self.error("unexpected `,'"),
                    },
                });
            }
            if matches!(a1, Some(Addr::Zero)) && !matches!(a2, Some(Addr2::Addr(Addr::Regex(_)))) {
                self.i += 1;
                return self.error("invalid usage of line address 0");
            }
            self.skip_spaces();
            let mut negate = false;
            while self.peek() == Some(b'!') {
                negate = true;
                self.i += 1;
                self.skip_spaces();
            }
            let Some(c) = self.peek() else { return self.error("missing command") };
            self.i += 1;
            let index = self.commands.len();
            let kind = match c {
                b'{' => {
                    self.blocks.push(index);
                    Kind::Block(0)
                }
                b'}' => {
                    if a1.is_some() {
                        return self.error("} doesn't want any addresses");
                    }
                    let Some(open) = self.blocks.pop() else { return self.error("unexpected `}'") };
                    self.commands[open].kind = Kind::Block(index);
                    Kind::EndBlock
                }
                b's' => self.substitute()?,
                b'y' => self.translate_command()?,
                b'p' => Kind::Print,
                b'P' => Kind::PrintFirst,
                b'd' => Kind::Delete,
                b'D' => Kind::DeleteFirst,
                b'q' | b'Q' => {
                    self.skip_spaces();
                    let code = self.number().unwrap_or(0);
                    let code = i32::try_from(code & 0xFF).unwrap_or(0);
                    if c == b'q' {
                        Kind::Quit(code)
                    } else {
                        Kind::QuitSilent(code)
                    }
                }
                b'=' => Kind::LineNumber,
                b'l' => Kind::List,
                b'a' => Kind::Append(self.text()),
                b'i' => Kind::Insert(self.text()),
                b'c' => Kind::Change(self.text()),
                b'n' => Kind::Next,
                b'N' => Kind::NextAppend,
                b'h' => Kind::Hold,
                b'H' => Kind::HoldAppend,
                b'g' => Kind::Get,
                b'G' => Kind::GetAppend,
                b'x' => Kind::Exchange,
                b'z' => Kind::Zap,
                b'F' => Kind::FileName,
                b'b' | b't' | b'T' => {
                    let label = self.word_until(true, true);
                    if !label.is_empty() {
                        self.branches.push((index, label));
                    }
                    match c {
                        b'b' => Kind::Branch(None),
                        b't' => Kind::BranchIfSub(None),
                        _ => Kind::BranchUnlessSub(None),
                    }
                }
                b':' => {
                    if a1.is_some() {
                        return self.error(": doesn't want any addresses");
                    }
                    let label = self.word(true);
                    if label.is_empty() {
                        return self.error("\":\" lacks a label");
                    }
                    self.labels.insert(label, index);
                    Kind::Label
                }
                b'r' => Kind::ReadFile(self.word(false)),
                b'w' => Kind::WriteFile(self.word(false)),
                _ => {
                    let shown = String::from_utf8_lossy(&self.s[self.i - 1..self.i]).into_owned();
                    return self.error(format!("unknown command: `{shown}'"));
                }
            };
            let opens_block = matches!(kind, Kind::Block(_));
            self.commands.push(Command { a1, a2, negate, kind });
            if opens_block {
                continue;
            }
            // After a command: spaces, then `;`, a newline, `}` or `#`.
            self.skip_spaces();
            match self.peek() {
                None | Some(b';' | b'\n' | b'}' | b'#') => {}
                Some(_) => {
                    self.i += 1;
                    return self.error("extra characters after command");
                }
            }
        }
        if !self.blocks.is_empty() {
            return Err(ParseError { at: Some(0), message: "unmatched `{'".into() });
        }
        for (index, label) in std::mem::take(&mut self.branches) {
            let Some(&target) = self.labels.get(&label) else {
                return Err(ParseError { at: None, message: format!("can't find label for jump to `{label}'") });
            };
            match &mut self.commands[index].kind {
                Kind::Branch(slot) | Kind::BranchIfSub(slot) | Kind::BranchUnlessSub(slot) => *slot = Some(target),
                _ => {}
            }
        }
        Ok(())
    }
}
