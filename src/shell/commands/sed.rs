//! `sed` (GNU sed 4.9, C locale) over the storage.
//!
//! Supported: `-n`, `-e`, `-f`, `-E`/`-r`, `-i[SUFFIX]`, `-s`;
//! addresses `N`, `$`, `/re/` and `\%re%` (flags `I`), `first~step`,
//! `addr1,addr2`, `0,/re/`, `addr,+N`, `addr,~N`, `!`; commands
//! `s` (flags `g`, `p`, N, `i`/`I`, `w FILE`; `&`, `\1`–`\9`, `\n`, `\U \L
//! \u \l \E` in the replacement), `p P d D q Q = l a i c y n N h H g G x
//! b t T : { } r w z F #`.
//!
//! Differences from GNU sed (for docs/SHELL.md): regexes are leftmost-first
//! and have no back-references inside the pattern (see `regex_syntax`); the
//! `M`, `e` flags and the `e`, `R`, `W`, `v` commands, `-z` and `--posix`
//! are not supported; error positions (`char N`) may differ from GNU's.

use std::collections::BTreeMap;
use std::rc::Rc;

use regex::bytes::{Regex, RegexBuilder};

use super::options::{self, Arg, HasArg, Spec};
use super::regex_syntax::{translate, Dialect};
use crate::shell::command::{CommandFn, Context, Lines, ReadFailed, Reader, Stdin};
use crate::shell::LimitHit;
use crate::storage::Storage;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("sed", sed)];

/// Largest pattern or hold space, so a runaway script fails instead of
/// eating memory.
const MAX_SPACE: usize = 64 << 20;

/// Output is held up to this much before it is written out.
const OUT_BUF: usize = 64 << 10;

/// GNU sed's usage text, printed on stderr for a bad command line.
const USAGE: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n";

#[derive(Debug, Clone)]
enum Addr {
    Line(u64),
    Last,
    /// None: the last regex used (`//`).
    Regex(Option<Rc<Regex>>),
    Step(u64, u64),
    /// `0,/re/`.
    Zero,
}

#[derive(Debug, Clone)]
enum Addr2 {
    Addr(Addr),
    Plus(u64),
    Tilde(u64),
}

#[derive(Debug, Clone)]
enum Piece {
    Literal(Vec<u8>),
    Group(usize),
    /// `\U`, `\L`, `\E`: 'U', 'L', 'E'; `\u`, `\l`: 'u', 'l'.
    Case(u8),
}

#[derive(Debug, Clone)]
struct Subst {
    regex: Option<Rc<Regex>>,
    replacement: Vec<Piece>,
    /// The replacement uses a group (`\\1`…): matches are found with
    /// their groups (slower), not only their bounds.
    groups: bool,
    global: bool,
    nth: usize,
    print: bool,
    write: Option<String>,
}

#[derive(Debug, Clone)]
enum Kind {
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
struct Command {
    a1: Option<Addr>,
    a2: Option<Addr2>,
    negate: bool,
    kind: Kind,
}

/// A command's range state: inside the range, and the line it ends at for
/// `+N` (apart from the commands, which are only read while running).
#[derive(Debug, Clone, Copy, Default)]
struct RangeState {
    active: bool,
    end_line: u64,
}

/// A script error: message and the 1-based position GNU reports (None:
/// no position, and exit status 4 as GNU's "panic" errors).
struct ParseError {
    at: Option<usize>,
    message: String,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    extended: bool,
    commands: Vec<Command>,
    /// Open `{` indexes.
    blocks: Vec<usize>,
    /// (command index, label) for branches, resolved at the end.
    branches: Vec<(usize, String)>,
    labels: BTreeMap<String, usize>,
}

impl Parser<'_> {
    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError { at: Some(self.i), message: message.into() })
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).ok()?.parse().ok()
    }

    /// Reads up to the unescaped `delim`; `\delim` becomes `delim`, other
    /// escapes are kept; a newline stays as is. Returns None at the end.
    fn delimited(&mut self, delim: u8, regex: bool) -> Option<Vec<u8>> {
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

    fn compile(&self, pattern: &[u8], ignore_case: bool) -> Result<Option<Rc<Regex>>, ParseError> {
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

    fn address(&mut self) -> Result<Option<Addr>, ParseError> {
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
    fn text(&mut self) -> Vec<u8> {
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
    fn word(&mut self, semicolon_ends: bool) -> String {
        self.word_until(semicolon_ends, false)
    }

    fn word_until(&mut self, semicolon_ends: bool, brace_ends: bool) -> String {
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

    fn replacement(&self, text: &[u8]) -> Vec<Piece> {
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

    fn substitute(&mut self) -> Result<Kind, ParseError> {
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

    fn translate_command(&mut self) -> Result<Kind, ParseError> {
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

    fn parse(&mut self) -> Result<(), ParseError> {
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

/// One input of sed: a file's bytes (for `-i`, which keeps them for the
/// backup), a file not opened yet, an open file read a piece at a time, or
/// stdin read line by line as it comes.
enum Data<'s> {
    Bytes(Vec<u8>),
    Path,
    Open(Lines<'s>),
    Stdin,
}

/// The input: every file, read line by line across files. Stdin is read a
/// line at a time (so `q` stops reading it), with one line of look-ahead
/// when `$` or `n`/`N` ask whether the current line is the last.
struct Input<'s> {
    /// (name as the user wrote it, shown by `F`; its data).
    files: Vec<(String, Data<'s>)>,
    file: usize,
    pos: usize,
    stdin: &'s Stdin,
    storage: &'s dyn Storage,
    cwd: &'s str,
    max_memory: usize,
    /// Messages for files that could not be read, printed as they are met.
    errors: Vec<String>,
    /// A line read ahead of the current one (from stdin).
    peeked: Option<(Vec<u8>, bool)>,
    /// The buffer the next look-ahead is read into (a line's buffer is
    /// reused, not allocated per line).
    spare: Vec<u8>,
    /// The limit that stopped a read of stdin: the run ends with it.
    hit: Option<LimitHit>,
}

impl<'s> Input<'s> {
    fn new(files: Vec<(String, Data<'s>)>, ctx: &Context<'s>) -> Self {
        Input {
            files,
            file: 0,
            pos: 0,
            stdin: ctx.stdin,
            storage: ctx.storage,
            cwd: ctx.cwd,
            max_memory: ctx.max_memory,
            errors: Vec::new(),
            peeked: None,
            spare: Vec::new(),
            hit: None,
        }
    }

    /// Puts the next line into `buf` (replacing what it held); whether
    /// it ended with a newline, None at the end (`buf` is then empty).
    fn next_line(&mut self, buf: &mut Vec<u8>) -> Option<bool> {
        if let Some((mut line, newline)) = self.peeked.take() {
            std::mem::swap(buf, &mut line);
            self.spare = line;
            return Some(newline);
        }
        self.read_next(buf)
    }

    fn read_next(&mut self, buf: &mut Vec<u8>) -> Option<bool> {
        buf.clear();
        while self.file < self.files.len() {
            match &mut self.files[self.file].1 {
                Data::Bytes(data) => {
                    if self.pos < data.len() {
                        let start = self.pos;
                        let (end, newline) = match memchr::memchr(b'\n', &data[start..]) {
                            Some(i) => (start + i, true),
                            None => (data.len(), false),
                        };
                        self.pos = end + 1;
                        buf.extend_from_slice(&data[start..end]);
                        return Some(newline);
                    }
                }
                Data::Stdin if self.hit.is_none() => match self.stdin.read_until(b'\n', buf) {
                    Ok(true) => {
                        let newline = buf.last() == Some(&b'\n');
                        if newline {
                            buf.pop();
                        }
                        return Some(newline);
                    }
                    Ok(false) => {}
                    Err(hit) => {
                        buf.clear();
                        self.hit = Some(hit);
                    }
                },
                Data::Stdin => {}
                Data::Path => {
                    let name = &self.files[self.file].0;
                    match Reader::file(self.storage, self.cwd, name) {
                        Ok(reader) => {
                            self.files[self.file].1 = Data::Open(Lines::new(reader, self.max_memory));
                            continue;
                        }
                        Err(error) => {
                            let reason = crate::shell::command::error_reason(&error);
                            self.errors.push(format!("can't read {name}: {reason}"));
                        }
                    }
                }
                Data::Open(lines) if self.hit.is_none() => match lines.next_line(b'\n') {
                    Ok(Some(line)) => {
                        buf.extend_from_slice(line);
                        return Some(lines.delimited());
                    }
                    Ok(None) => self.files[self.file].1 = Data::Bytes(Vec::new()),
                    Err(ReadFailed::Limit(hit)) => self.hit = Some(hit),
                    Err(ReadFailed::Storage(error)) => {
                        let reason = crate::shell::command::error_reason(&error);
                        self.errors.push(format!("read error on {}: {reason}", self.files[self.file].0));
                        self.files[self.file].1 = Data::Bytes(Vec::new());
                    }
                },
                Data::Open(_) => {}
            }
            self.file += 1;
            self.pos = 0;
        }
        None
    }

    fn is_last(&mut self) -> bool {
        if self.peeked.is_none() {
            let mut buf = std::mem::take(&mut self.spare);
            self.peeked = self.read_next(&mut buf).map(|newline| (buf, newline));
        }
        self.peeked.is_none()
    }

    fn name(&self) -> &str {
        self.files.get(self.file.min(self.files.len().saturating_sub(1))).map_or("-", |(name, _)| name.as_str())
    }
}

/// Why a cycle ended early.
enum Flow {
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

struct Exec<'p> {
    commands: &'p [Command],
    ranges: Vec<RangeState>,
    quiet: bool,
    line: u64,
    pattern: Vec<u8>,
    hold: Vec<u8>,
    newline: bool,
    substituted: bool,
    last_regex: Option<Rc<Regex>>,
    append: Vec<u8>,
    /// A second buffer for `s` results and `N`'s next line.
    scratch: Vec<u8>,
    out: Vec<u8>,
    /// The output goes to stdout (not to a file edited in place).
    to_stdout: bool,
    /// The temporary file a large file edited in place is written to, a
    /// piece at a time, and what stopped a write to it.
    sink: Option<String>,
    sink_error: Option<crate::storage::StorageError>,
    /// A line printed without its newline (last input line had none):
    /// the newline is owed if anything else is printed.
    owed_newline: bool,
    writes: BTreeMap<String, Vec<u8>>,
    status: i32,
    /// A file could not be read (status 2 at the end, as GNU sed).
    failed: bool,
}

/// The options of GNU sed 4.9 that we take, in its table's order.
const SPEC: Spec = Spec {
    short: "nrsuEe:f:i::",
    long: &[
        ("regexp-extended", "r", HasArg::No),
        ("debug", "debug", HasArg::No),
        ("in-place", "i", HasArg::Optional),
        ("expression", "e", HasArg::Yes),
        ("file", "f", HasArg::Yes),
        ("quiet", "n", HasArg::No),
        ("posix", "posix", HasArg::No),
        ("silent", "n", HasArg::No),
        ("sandbox", "sandbox", HasArg::No),
        ("separate", "s", HasArg::No),
        ("unbuffered", "u", HasArg::No),
        ("follow-symlinks", "follow-symlinks", HasArg::No),
    ],
};

fn sed(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut quiet = false;
    let mut extended = false;
    let mut separate = false;
    let mut in_place: Option<String> = None;
    let mut follow_symlinks = false;
    let mut scripts: Vec<String> = Vec::new();
    let mut script_given = false;
    let mut files = Vec::new();
    for arg in options::Parser::new(&SPEC, args) {
        let (key, value) = match arg {
            Ok(Arg::Operand(file)) => {
                files.push(file);
                continue;
            }
            Ok(Arg::Opt(key, value)) => (key, value),
            Err(message) => {
                ctx.error(message)?;
                ctx.stderr.write_str(USAGE)?;
                return Ok(1);
            }
        };
        match key {
            "n" => quiet = true,
            "E" | "r" => extended = true,
            "s" => separate = true,
            "i" => in_place = Some(value.unwrap_or_default()),
            "e" => {
                scripts.push(value.unwrap_or_default());
                script_given = true;
            }
            "f" => {
                let Some(text) = script_file(ctx, &value.unwrap_or_default())? else { return Ok(4) };
                scripts.push(text);
                script_given = true;
            }
            "follow-symlinks" => follow_symlinks = true,
            // -u, --posix, --debug, --sandbox: no effect here.
            _ => {}
        }
    }
    if !script_given {
        if files.is_empty() {
            ctx.stderr.write_str(USAGE)?;
            return Ok(1);
        }
        scripts.push(files.remove(0));
    }
    // Parse each -e piece on its own first, for GNU's `expression #N` in errors.
    let mut commands = Vec::new();
    {
        let script = scripts.join("\n");
        let mut parser = Parser {
            s: script.as_bytes(),
            i: 0,
            extended,
            commands: Vec::new(),
            blocks: Vec::new(),
            branches: Vec::new(),
            labels: BTreeMap::new(),
        };
        if let Err(error) = parser.parse() {
            let Some(mut at) = error.at else {
                ctx.error(error.message)?;
                return Ok(4);
            };
            // Which -e piece the position falls in, and the position inside it.
            let mut number = 1;
            for piece in &scripts {
                if at <= piece.len() || number == scripts.len() {
                    break;
                }
                at -= piece.len() + 1;
                number += 1;
            }
            ctx.error(format!("-e expression #{number}, char {at}: {}", error.message))?;
            return Ok(1);
        }
        commands.append(&mut parser.commands);
    }
    let ranges =
        commands.iter().map(|c| RangeState { active: matches!(c.a1, Some(Addr::Zero)), end_line: 0 }).collect();
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    let mut loaded = Vec::new();
    if in_place.is_some() && files.iter().all(|f| f == "-") {
        ctx.error("no input files")?;
        return Ok(4);
    }
    for file in &files {
        if file != "-" && ctx.stat(file).is_ok_and(|m| m.kind == crate::storage::FileKind::Directory) {
            // GNU handles the files before it, then stops with status 4.
            if in_place.is_some() {
                ctx.error(format!("couldn't edit {file}: not a regular file"))?;
            } else {
                ctx.error(format!("read error on {file}: Is a directory"))?;
            }
            status = 4;
            break;
        }
        if file == "-" {
            // Stdin is read as it comes, line by line.
            loaded.push((file.clone(), Data::Stdin));
            continue;
        }
        if in_place.is_none() {
            // Every file is opened first (GNU's messages come before its
            // buffered output); a small one is kept, a large one opened
            // again when reached and read a piece at a time.
            match ctx.open(file).map(Reader::into_whole) {
                Ok(Ok(data)) => loaded.push((file.clone(), Data::Bytes(data))),
                // A pipe (`<(cmd)`) cannot be opened again: it stays open.
                Ok(Err(reader)) if reader.is_stream() => {
                    loaded.push((file.clone(), Data::Open(Lines::new(reader, ctx.max_memory))));
                }
                Ok(Err(_)) => loaded.push((file.clone(), Data::Path)),
                Err(error) => {
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("can't read {file}: {reason}"))?;
                    status = 2;
                }
            }
            continue;
        }
        // In place: a small file is edited in memory; a large regular
        // file is read a piece at a time when reached, its result written
        // to a temporary file beside it that then replaces it (as GNU).
        let opened = match ctx.open(file).map(Reader::into_whole) {
            Ok(Ok(data)) => Ok(data),
            Ok(Err(reader))
                if !reader.is_stream()
                    && ctx.storage.lstat(&ctx.path(file)).is_ok_and(|m| m.kind == crate::storage::FileKind::File) =>
            {
                loaded.push((file.clone(), Data::Path));
                continue;
            }
            Ok(Err(_)) => ctx.read(file),
            Err(error) => Err(error),
        };
        match opened {
            Ok(data) => loaded.push((file.clone(), Data::Bytes(data))),
            Err(error) => {
                let reason = crate::shell::command::error_reason(&error);
                ctx.error(format!("can't read {file}: {reason}"))?;
                status = 2;
            }
        }
    }
    let mut exec = Exec {
        commands: &commands,
        ranges,
        quiet,
        line: 0,
        pattern: Vec::new(),
        hold: Vec::new(),
        newline: true,
        substituted: false,
        last_regex: None,
        append: Vec::new(),
        scratch: Vec::new(),
        out: Vec::new(),
        to_stdout: true,
        sink: None,
        sink_error: None,
        owed_newline: false,
        writes: BTreeMap::new(),
        status: 0,
        failed: false,
    };
    for command in exec.commands.iter() {
        let path = match &command.kind {
            Kind::WriteFile(path) => Some(path.clone()),
            Kind::Subst(subst) => subst.write.clone(),
            _ => None,
        };
        if let Some(path) = path {
            exec.writes.insert(path, Vec::new());
        }
    }
    let groups: Vec<Vec<(String, Data)>> =
        if in_place.is_some() || separate { loaded.into_iter().map(|f| vec![f]).collect() } else { vec![loaded] };
    for group in groups {
        let target = group.first().map(|(name, _)| name.clone());
        let streamed = in_place.is_some() && matches!(group.first(), Some((_, Data::Path)));
        if let (true, Some(target)) = (streamed, &target) {
            match temporary_file(ctx, target) {
                Ok(temp) => exec.sink = Some(temp),
                Err(message) => {
                    ctx.error(message)?;
                    return Ok(4);
                }
            }
        }
        let mut input = Input::new(group, ctx);
        if in_place.is_some() || separate {
            exec.line = 0;
        }
        // A limit stops the run: the original stays, the temporary goes.
        let quit = match exec.run(ctx, &mut input, in_place.is_none()) {
            Ok(quit) if input.hit.is_none() => quit,
            result => {
                if let Some(temp) = exec.sink.take() {
                    let _ = ctx.storage.remove(&temp, false);
                }
                return Err(result.err().or(input.hit).unwrap_or(LimitHit::Memory));
            }
        };
        let read_failed = !input.errors.is_empty();
        if read_failed {
            for message in std::mem::take(&mut input.errors) {
                ctx.error(message)?;
            }
            status = 2;
        }
        let backup_name = |suffix: &str, target: &str| {
            if suffix.contains('*') {
                suffix.replace('*', target.rsplit('/').next().unwrap_or(target))
            } else {
                format!("{target}{suffix}")
            }
        };
        if let (Some(temp), Some(suffix), Some(target)) = (exec.sink.take(), &in_place, &target) {
            // The temporary file replaces the original (which becomes the
            // backup, if one is asked), unless something failed on the way.
            let path = ctx.path(target);
            let written = match exec.sink_error.take() {
                Some(error) => Err(error),
                None if read_failed => Ok(false),
                None if suffix.is_empty() => Ok(true),
                None => ctx.storage.rename(&path, &ctx.path(&backup_name(suffix, target))).map(|()| true),
            };
            match written
                .and_then(|keep| if keep { ctx.storage.rename(&temp, &path).map(|()| true) } else { Ok(false) })
            {
                Ok(true) => {}
                Ok(false) => {
                    let _ = ctx.storage.remove(&temp, false);
                }
                Err(error) => {
                    let _ = ctx.storage.remove(&temp, false);
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("couldn't edit {target}: {reason}"))?;
                    status = 4;
                }
            }
        } else if let (Some(suffix), Some(target)) = (&in_place, target) {
            if target != "-" {
                let path = ctx.path(&target);
                let out = std::mem::take(&mut exec.out);
                let backup = if suffix.is_empty() {
                    Ok(())
                } else {
                    let backup_name = backup_name(suffix, &target);
                    let original = match &input.files[0].1 {
                        Data::Bytes(data) => data.as_slice(),
                        _ => &[],
                    };
                    ctx.storage.write(&ctx.path(&backup_name), original)
                };
                // GNU (without --follow-symlinks) replaces a symlink with
                // the edited file, leaving the link's target as it was.
                if !follow_symlinks
                    && ctx.storage.lstat(&path).is_ok_and(|m| m.kind == crate::storage::FileKind::Symlink)
                {
                    let _ = ctx.storage.remove(&path, false);
                }
                if let Err(error) = backup.and_then(|()| ctx.storage.write(&path, &out)) {
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("couldn't open file {target}: {reason}"))?;
                    status = 4;
                }
            }
        }
        if quit {
            break;
        }
    }
    let writes = std::mem::take(&mut exec.writes);
    for (path, data) in writes {
        let result = match path.as_str() {
            "/dev/stdout" | "/dev/stderr" => Ok(()),
            _ => ctx.storage.write(&ctx.path(&path), &data),
        };
        if let Err(error) = result {
            let reason = crate::shell::command::error_reason(&error);
            ctx.error(format!("couldn't open file {path}: {reason}"))?;
            status = 4;
        }
    }
    if exec.failed {
        status = 2;
    }
    Ok(if exec.status != 0 { exec.status } else { status })
}

/// A new empty file beside `target` (GNU's `sedXXXXXX`) with its mode:
/// the path, or GNU's message when it cannot be made.
fn temporary_file(ctx: &mut Context<'_>, target: &str) -> Result<String, String> {
    use std::hash::{BuildHasher, Hasher};
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let dir = match target.rfind('/') {
        Some(0) => "/",
        Some(at) => &target[..at],
        None => ".",
    };
    let mode = ctx.storage.stat(&ctx.path(target)).map(|m| m.mode).ok();
    let mut last = String::new();
    for attempt in 0..100u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(attempt);
        let mut bits = hasher.finish();
        let mut name = String::from("sed");
        for _ in 0..6 {
            name.push(char::from(LETTERS[(bits % LETTERS.len() as u64) as usize]));
            bits /= LETTERS.len() as u64;
        }
        let shown = if dir.ends_with('/') { format!("{dir}{name}") } else { format!("{dir}/{name}") };
        let path = ctx.path(&shown);
        if ctx.storage.lstat(&path).is_ok() {
            continue;
        }
        match ctx.storage.write(&path, b"") {
            Ok(()) => {
                if let Some(mode) = mode {
                    let _ = ctx.storage.set_mode(&path, mode);
                }
                return Ok(path);
            }
            Err(error) => {
                last = format!("couldn't open temporary file {shown}: {}", crate::shell::command::error_reason(&error));
                break;
            }
        }
    }
    Err(last)
}

/// `-f FILE`: the script text (a trailing newline dropped).
fn script_file(ctx: &mut Context<'_>, path: &str) -> Result<Option<String>, LimitHit> {
    match ctx.read(path) {
        Ok(data) => {
            let text = String::from_utf8_lossy(&data).into_owned();
            Ok(Some(text.strip_suffix('\n').map(String::from).unwrap_or(text)))
        }
        Err(error) => {
            let reason = crate::shell::command::error_reason(&error);
            ctx.error(format!("couldn't open file {path}: {reason}"))?;
            Ok(None)
        }
    }
}

impl Exec<'_> {
    fn emit(&mut self, bytes: &[u8]) {
        if self.owed_newline {
            self.out.push(b'\n');
            self.owed_newline = false;
        }
        self.out.extend_from_slice(bytes);
    }

    /// Prints the pattern space's first `end` bytes as a line: its newline
    /// only when the input line had one (`newline`).
    fn emit_pattern(&mut self, end: usize, newline: bool) {
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
    fn flush(&mut self, ctx: &mut Context<'_>, to_stdout: bool) -> Result<(), LimitHit> {
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
    fn flush_some(&mut self, ctx: &mut Context<'_>, to_stdout: bool) -> Result<(), LimitHit> {
        if self.out.len() >= OUT_BUF {
            self.flush(ctx, to_stdout)?;
        }
        Ok(())
    }

    fn end_cycle_output(&mut self, autoprint: bool) {
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

    fn read_line(&mut self, ctx: &mut Context<'_>, input: &mut Input) -> Result<bool, LimitHit> {
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

    fn regex_matches(&mut self, regex: &Option<Rc<Regex>>) -> bool {
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

    fn addr_matches(&mut self, addr: &Addr, input: &mut Input) -> bool {
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
    fn selected(&mut self, index: usize, input: &mut Input) -> bool {
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
    fn run(&mut self, ctx: &mut Context<'_>, input: &mut Input, to_stdout: bool) -> Result<bool, LimitHit> {
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

    fn too_big(&self) -> bool {
        self.pattern.len() > MAX_SPACE || self.hold.len() > MAX_SPACE
    }

    fn cycle(&mut self, ctx: &mut Context<'_>, input: &mut Input) -> Result<Flow, LimitHit> {
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

    fn write_to(&mut self, ctx: &mut Context<'_>, path: &str, bytes: &[u8]) -> Result<(), LimitHit> {
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

    fn substitute(&mut self, subst: &Subst) -> bool {
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
fn expand(text: &[u8], group: &dyn Fn(usize) -> Option<(usize, usize)>, pieces: &[Piece], out: &mut Vec<u8>) {
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
fn list(pattern: &[u8]) -> Vec<u8> {
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

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    /// The files of the directory the expectations were recorded in.
    fn storage() -> MemoryStorage {
        let s = MemoryStorage::default();
        for (path, data) in [
            ("/f1", &b"1\n2\n"[..]),
            ("/f2", b"3\n4\n"),
            ("/l", b"a\nb\nc\nd\ne\nf\ng\nh\n"),
            ("/t", b"hello world\nfoo bar\nHello again\n"),
            ("/script.sed", b"s/o/0/g\n# comment\n2d\n"),
        ] {
            s.write(path, data).unwrap();
        }
        s
    }

    thread_local! {
        static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    fn check(s: &MemoryStorage, args: &[&str], stdin: &str, status: i32, stdout: &str, stderr: &str) {
        let got = run_for_test(s, "sed", args, stdin);
        let want = (status, stdout.to_string(), stderr.to_string());
        if got != want {
            FAILURES.with(|failures| failures.borrow_mut().push(format!("sed {args:?}\n got {got:?}\nwant {want:?}")));
        }
    }

    fn assert_no_failures() {
        let failures = FAILURES.with(|failures| failures.take());
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    }

    /// Every expectation below is what GNU sed 4.9 printed (LC_ALL=C) in a
    /// directory holding the same files.
    #[test]
    fn behaves_like_gnu_sed() {
        let s = storage();
        check(&s, &["p", "f1"], "", 0, "1\n1\n2\n2\n", "");
        check(&s, &["-n", "p", "f1", "f2"], "", 0, "1\n2\n3\n4\n", "");
        check(&s, &["-n", "$p", "f1", "f2"], "", 0, "4\n", "");
        check(&s, &["-s", "-n", "$=", "f1", "f2"], "", 0, "2\n2\n", "");
        check(&s, &["-s", "1d", "f1", "f2"], "", 0, "2\n4\n", "");
        check(&s, &["s/o/0/", "t"], "", 0, "hell0 world\nf0o bar\nHell0 again\n", "");
        check(&s, &["s/o/0/g", "t"], "", 0, "hell0 w0rld\nf00 bar\nHell0 again\n", "");
        check(&s, &["s/o/0/2", "t"], "", 0, "hello w0rld\nfo0 bar\nHello again\n", "");
        check(&s, &["s/o/0/2g", "t"], "", 0, "hello w0rld\nfo0 bar\nHello again\n", "");
        check(&s, &["-n", "s/hello/X/Ip", "t"], "", 0, "X world\nX again\n", "");
        check(&s, &["s|o|/|g", "t"], "", 0, "hell/ w/rld\nf// bar\nHell/ again\n", "");
        check(&s, &["s,o\\,,X,", "t"], "", 0, "hello world\nfoo bar\nHello again\n", "");
        check(
            &s,
            &["s/\\(l\\+\\)o/[\\1]\\U&x\\E!/", "t"],
            "",
            0,
            "he[ll]LLOX! world\nfoo bar\nHe[ll]LLOX! again\n",
            "",
        );
        check(&s, &["-E", "s/(\\w+) (\\w+)/\\u\\2 \\L\\1/", "t"], "", 0, "World hello\nBar foo\nAgain hello\n", "");
        check(&s, &["-r", "s/(o+)|x/<\\1>/g", "t"], "", 0, "hell<o> w<o>rld\nf<oo> bar\nHell<o> again\n", "");
        check(&s, &["s/o/\\n/", "t"], "", 0, "hell\n world\nf\no bar\nHell\n again\n", "");
        check(&s, &["s/$/ end/;s/^/> /", "t"], "", 0, "> hello world end\n> foo bar end\n> Hello again end\n", "");
        check(&s, &["s/x*/-/g"], "abc\n", 0, "-a-b-c-\n", "");
        check(&s, &["s/b*/-/g"], "abc\n", 0, "-a-c-\n", "");
        check(&s, &["s/[[:space:]]/_/g;s/[^a-z_]/#/g", "t"], "", 0, "hello_world\nfoo_bar\n#ello_again\n", "");
        check(&s, &["s/a/b"], "a\n", 1, "", "sed: -e expression #1, char 5: unterminated `s' command\n");
        check(
            &s,
            &["s/a/\\2/"],
            "a\n",
            1,
            "",
            "sed: -e expression #1, char 7: invalid reference \\2 on `s' command's RHS\n",
        );
        check(&s, &["k"], "a\n", 1, "", "sed: -e expression #1, char 1: unknown command: `k'\n");
        check(
            &s,
            &["-e", "p", "-e", "s/a/"],
            "a\n",
            1,
            "",
            "sed: -e expression #2, char 4: unterminated `s' command\n",
        );
        check(&s, &["pq"], "a\n", 1, "", "sed: -e expression #1, char 2: extra characters after command\n");
        check(&s, &["p", "nofile", "f1"], "", 2, "1\n1\n2\n2\n", "sed: can't read nofile: No such file or directory\n");
        check(&s, &["2q", "l"], "", 0, "a\nb\n", "");
        check(&s, &["2Q", "l"], "", 0, "a\n", "");
        check(&s, &["q5"], "a\nb\n", 5, "a\n", "");
        check(&s, &["3,5d", "l"], "", 0, "a\nb\nf\ng\nh\n", "");
        check(&s, &["3,5!d", "l"], "", 0, "c\nd\ne\n", "");
        check(&s, &["-n", "/b/,/d/p", "l"], "", 0, "b\nc\nd\n", "");
        check(&s, &["-n", "/c/,+2p", "l"], "", 0, "c\nd\ne\n", "");
        check(&s, &["-n", "2,~4p", "l"], "", 0, "b\nc\nd\n", "");
        check(&s, &["-n", "0,/a/p", "l"], "", 0, "a\n", "");
        check(&s, &["-n", "1,/a/p", "l"], "", 0, "a\nb\nc\nd\ne\nf\ng\nh\n", "");
        check(&s, &["-n", "5,2p", "l"], "", 0, "e\n", "");
        check(&s, &["-n", "2~3p", "l"], "", 0, "b\ne\nh\n", "");
        check(&s, &["-n", "0~4p", "l"], "", 0, "d\nh\n", "");
        check(&s, &["-n", "$!{$!p}", "f1"], "", 0, "1\n", "");
        check(&s, &["-n", "\\%c%,\\,e,p", "l"], "", 0, "c\nd\ne\n", "");
        check(&s, &["-n", "/A/Ip", "l"], "", 0, "a\n", "");
        check(&s, &["2c\\\nchanged", "l"], "", 0, "a\nchanged\nc\nd\ne\nf\ng\nh\n", "");
        check(&s, &["2,4c X", "l"], "", 0, "a\nX\ne\nf\ng\nh\n", "");
        check(&s, &["2!c X", "f1"], "", 0, "X\n2\n", "");
        check(&s, &["1i\\  lead", "f1"], "", 0, "  lead\n1\n2\n", "");
        check(&s, &["1a\\\n  lead2", "f1"], "", 0, "1\n  lead2\n2\n", "");
        check(&s, &["a hello", "f1"], "", 0, "1\nhello\n2\nhello\n", "");
        check(&s, &["$a\\\nend\\\nmore", "f1"], "", 0, "1\n2\nend\nmore\n", "");
        check(&s, &["i\\\nbefore", "f1"], "", 0, "before\n1\nbefore\n2\n", "");
        check(&s, &["=", "f1"], "", 0, "1\n1\n2\n2\n", "");
        check(&s, &["-n", "/2/=", "f1"], "", 0, "2\n", "");
        check(&s, &["-n", "l"], "a\tb\\c\u{1}\n", 0, "a\\tb\\\\c\\001$\n", "");
        check(&s, &["y/abc/xyz/"], "aabbcc\n", 0, "xxyyzz\n", "");
        check(&s, &["y/abc/\\n\\\\x/"], "abc\n", 0, "\n\\x\n", "");
        check(
            &s,
            &["y/ab/x/"],
            "abc\n",
            1,
            "",
            "sed: -e expression #1, char 7: strings for `y' command are different lengths\n",
        );
        check(&s, &["N;N;D", "l"], "", 0, "d\ne\nf\ng\nh\n", "");
        check(&s, &["$!N;P;D", "l"], "", 0, "a\nb\nc\nd\ne\nf\ng\nh\n", "");
        check(&s, &["-n", "h;n;G;p", "l"], "", 0, "b\na\nd\nc\nf\ne\nh\ng\n", "");
        check(&s, &["N;s/\\n/-/"], "1\n2\n3\n", 0, "1-2\n3\n", "");
        check(&s, &["G"], "a\nb\n", 0, "a\n\nb\n\n", "");
        check(&s, &["x;$!d;x;G"], "a\nb\nc\n", 0, "c\nb\n", "");
        check(&s, &["-n", "H;${x;s/\\n/,/g;p}"], "a\nb\nc\n", 0, ",a,b,c\n", "");
        check(&s, &["1!G;h;$!d"], "a\nb\nc\n", 0, "c\nb\na\n", "");
        check(&s, &[":a;N;$!ba;s/\\n/ /g"], "a\nb\nc\n", 0, "a b c\n", "");
        check(&s, &[":a;s/^.\\{1,4\\}$/ &/;ta"], "ab\nabcdef\n", 0, "   ab\nabcdef\n", "");
        check(&s, &["s/a/A/;T;s/$/!/"], "a\nb\n", 0, "A!\nb\n", "");
        check(&s, &["s/a/A/;tx;s/$/?/;:x"], "a\nb\n", 0, "A\nb?\n", "");
        check(&s, &["-n", "/b/{p;p}"], "a\nb\n", 0, "b\nb\n", "");
        check(&s, &["/a/b end;s/$/-/;:end"], "a\nb\n", 0, "a\nb-\n", "");
        check(&s, &["/a/{s/a/x/;b};s/$/-/"], "a\nb\n", 0, "x\nb-\n", "");
        check(&s, &["z;s/^$/empty/"], "a\n", 0, "empty\n", "");
        check(&s, &["p"], "a", 0, "a\na", "");
        check(&s, &["$d"], "a\nb", 0, "a\n", "");
        check(&s, &["-n", "/x/p"], "", 0, "", "");
        check(&s, &["-f", "script.sed", "t"], "", 0, "hell0 w0rld\nHell0 again\n", "");
        check(&s, &["-f", "nope.sed", "t"], "", 4, "", "sed: couldn't open file nope.sed: No such file or directory\n");
        check(
            &s,
            &["--expression=s/o/0/", "--quiet", "-e", "p", "t"],
            "",
            0,
            "hell0 world\nf0o bar\nHell0 again\n",
            "",
        );
        check(&s, &["-n", "-e", "2{", "-e", "p", "-e", "}", "t"], "", 0, "foo bar\n", "");
        check(&s, &["{p"], "a\n", 1, "", "sed: -e expression #1, char 0: unmatched `{'\n");
        check(&s, &["p}"], "a\n", 1, "", "sed: -e expression #1, char 2: unexpected `}'\n");
        check(&s, &["bnowhere"], "a\n", 4, "", "sed: can't find label for jump to `nowhere'\n");
        check(&s, &["0p"], "a\n", 1, "", "sed: -e expression #1, char 2: invalid usage of line address 0\n");
        check(&s, &["s/\\./!/g;s/[.]/?/"], "a.b.c\n", 0, "a!b!c\n", "");
        check(&s, &["s/a\\|b/X/g"], "abc\n", 0, "XXc\n", "");
        check(&s, &["-E", "s/a|b/X/g"], "abc\n", 0, "XXc\n", "");
        check(&s, &["s/a|b/X/g"], "a|b\n", 0, "X\n", "");
        check(&s, &["-E", "s/a{2}/X/"], "aaa\n", 0, "Xa\n", "");
        check(&s, &["s/a\\{2\\}/X/"], "aaa\n", 0, "Xa\n", "");
        check(&s, &["s/&/and/;s/x/[&]/"], "&x\n", 0, "and[x]\n", "");
        check(&s, &["s/x/a\\&b\\\\c/"], "x\n", 0, "a&b\\c\n", "");
        check(&s, &["s/x/a\\\nb/"], "x\n", 0, "a\nb\n", "");
        check(&s, &["-n", "/[0-9]\\+/p"], "a1\nb\n22\n", 0, "a1\n22\n", "");
        check(&s, &["s/.*/\"&\"/"], "it's\n", 0, "\"it's\"\n", "");
        check(&s, &["1d;$d"], "1\n2\n3\n", 0, "2\n", "");
        check(&s, &["-n", "2{p;q}"], "1\n2\n3\n", 0, "2\n", "");
        check(&s, &["$!s/$/,/"], "1\n2\n3\n", 0, "1,\n2,\n3\n", "");
        check(&s, &["F"], "a\n", 0, "-\na\n", "");
        check(&s, &["s/^[ \\t]*//;s/[ \\t]*$//"], "  a b  \n", 0, "a b\n", "");
        check(&s, &["-E", "s/^([^=]+)=(.*)$/\\2=\\1/"], "k=v\n", 0, "v=k\n", "");
        check(&s, &["s/\\<./\\u&/g"], "hello big world\n", 0, "Hello Big World\n", "");
        check(&s, &["s/\\bw/W/g"], "war and wow\n", 0, "War and Wow\n", "");
        check(&s, &[], "", 1, "", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n");
        check(&s, &["-x", "p"], "", 1, "", "sed: invalid option -- 'x'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n");
        assert_no_failures();
    }

    #[test]
    fn in_place_edits_each_file() {
        let s = storage();
        let (status, out, err) = run_for_test(&s, "sed", &["-i", "s/^/x/;1d", "f1", "f2"], "");
        assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
        assert_eq!(s.read("/f1").unwrap(), b"x2\n");
        assert_eq!(s.read("/f2").unwrap(), b"x4\n");
        let (status, _, _) = run_for_test(&s, "sed", &["-i.bak", "s/x/y/", "f1"], "");
        assert_eq!(status, 0);
        assert_eq!(s.read("/f1").unwrap(), b"y2\n");
        assert_eq!(s.read("/f1.bak").unwrap(), b"x2\n");
        let (status, _, err) = run_for_test(&s, "sed", &["-i", "p", "nope"], "");
        assert_eq!((status, err.as_str()), (2, "sed: can't read nope: No such file or directory\n"));
    }

    #[test]
    fn write_files() {
        let s = storage();
        let (status, out, _) = run_for_test(&s, "sed", &["-n", "s/o/0/w out\n/again/w out2", "t"], "");
        assert_eq!((status, out.as_str()), (0, ""));
        assert_eq!(s.read("/out").unwrap(), b"hell0 world\nf0o bar\nHell0 again\n");
        assert_eq!(s.read("/out2").unwrap(), b"Hell0 again\n");
        let (_, out, _) = run_for_test(&s, "sed", &["-n", "s/1/X/w /dev/stdout"], "1\n2\n");
        assert_eq!(out, "X\n");
        let (_, out, _) = run_for_test(&s, "sed", &["r f2"], "a\n");
        assert_eq!(out, "a\n3\n4\n");
    }

    #[test]
    fn runaway_scripts_stop() {
        let s = storage();
        let (status, _, err) = run_for_test(&s, "sed", &[":a;G;h;ba"], "a\n");
        assert_eq!(status, 4);
        assert!(err.contains("too large"), "{err}");
    }

    #[test]
    fn large_files_are_read_in_pieces_across_files() {
        let s = MemoryStorage::default();
        // More than one piece (256 KiB), without a final newline.
        let big: String = (0..60_000).map(|n| format!("{n:05}\n")).collect::<String>() + "end";
        s.write("/big", big.as_bytes()).unwrap();
        s.write("/small", b"s1\ns2\n").unwrap();
        let (status, out, err) = run_for_test(&s, "sed", &["2,59999d", "big"], "");
        assert_eq!((status, out.as_str(), err.as_str()), (0, "00000\n59999\nend", ""));
        let (status, out, _) = run_for_test(&s, "sed", &["-n", "$p"], "");
        assert_eq!((status, out.as_str()), (0, ""));
        let (status, out, err) = run_for_test(&s, "sed", &["-n", "1p;59999,60002p;$p", "big", "nope", "small"], "");
        assert_eq!(
            (status, out.as_str(), err.as_str()),
            (2, "00000\n59998\n59999\nend\ns1\ns2\n", "sed: can't read nope: No such file or directory\n")
        );
        let (status, out, _) = run_for_test(&s, "sed", &["-s", "-n", "$p", "big", "small"], "");
        assert_eq!((status, out.as_str()), (0, "end\ns2\n"));
        let (status, out, _) = run_for_test(&s, "sed", &["3q", "big"], "");
        assert_eq!((status, out.as_str()), (0, "00000\n00001\n00002\n"));
        let (_, out, _) = run_for_test(&s, "sed", &["-n", "$="], "");
        assert_eq!(out, "");
        let (_, out, _) = run_for_test(&s, "sed", &["-n", "$=", "big"], "");
        assert_eq!(out, "60001\n");
    }

    /// A file of more than one piece edited in place goes through a
    /// temporary file beside it: the result replaces it whole, its mode
    /// stays, the original becomes the backup, and no temporary is left.
    #[test]
    fn large_files_edited_in_place_go_through_a_temporary_file() {
        let s = MemoryStorage::default();
        let big: String = (0..60_000).map(|n| format!("{n:05}\n")).collect::<String>() + "end";
        s.mkdir("/d", false).unwrap();
        s.write("/d/big", big.as_bytes()).unwrap();
        s.set_mode("/d/big", 0o600).unwrap();
        let (status, out, err) = run_for_test(&s, "sed", &["-i.orig", "s/0/o/;$s/$/!/", "d/big"], "");
        assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
        let edited: String =
            (0..60_000).map(|n| format!("{n:05}\n").replacen('0', "o", 1)).collect::<String>() + "end!";
        assert_eq!(String::from_utf8(s.read("/d/big").unwrap()).unwrap(), edited);
        assert_eq!(s.read("/d/big.orig").unwrap(), big.as_bytes());
        assert_eq!(s.stat("/d/big").unwrap().mode & 0o777, 0o600);
        let names: Vec<String> = s.list("/d").unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["big", "big.orig"]);
        // `q` ends the file there, as GNU's -i does.
        let (status, _, _) = run_for_test(&s, "sed", &["-i", "2q", "d/big"], "");
        assert_eq!(status, 0);
        assert_eq!(s.read("/d/big").unwrap(), b"o0000\no0001\n");
    }
}
