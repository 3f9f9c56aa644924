//! Tokens of an awk program. A `/` is division to the lexer; the parser
//! asks for a regular expression (`read_regex`) where an operand is
//! expected, which is how awk tells `a / b` from `/re/`.

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Length,
    Substr,
    Index,
    Split,
    Sub,
    Gsub,
    Match,
    Sprintf,
    Tolower,
    Toupper,
    Int,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Atan2,
    Rand,
    Srand,
    System,
    Close,
    Fflush,
}

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Newline,
    Eof,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Not,
    Gt,
    Lt,
    Pipe,
    Question,
    Colon,
    Tilde,
    NoMatch,
    Dollar,
    Ge,
    Le,
    Eq,
    Ne,
    And,
    Or,
    Incr,
    Decr,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    ModAssign,
    PowAssign,
    Assign,
    Append,
    Number(f64),
    Str(Vec<u8>),
    Regex(Vec<u8>),
    Name(String),
    /// A name written right before `(`: a user function call.
    FuncName(String),
    Builtin(Builtin),
    Begin,
    End,
    Function,
    If,
    Else,
    While,
    For,
    Do,
    Break,
    Continue,
    Next,
    Nextfile,
    Exit,
    Return,
    Delete,
    In,
    Getline,
    Print,
    Printf,
}

/// The lexer's position; `Copy` so the parser can backtrack.
#[derive(Clone, Copy, Debug)]
pub struct Lexer<'s> {
    src: &'s [u8],
    pub pos: usize,
    pub line: usize,
}

/// Processes the escapes of a string literal (also used for `-v` values).
/// Unknown escapes keep their backslash before regex metacharacters (so
/// `"\."` still means a literal dot as a dynamic regex) and drop it
/// otherwise, as gawk does.
pub fn unescape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c != b'\\' || i + 1 >= s.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = s[i + 1];
        i += 2;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'\\' => out.push(b'\\'),
            b'"' => out.push(b'"'),
            b'/' => out.push(b'/'),
            b'x' if i < s.len() && s[i].is_ascii_hexdigit() => {
                // gawk reads at most two hex digits.
                let mut value: u32 = 0;
                let mut n = 0;
                while n < 2 && i < s.len() && s[i].is_ascii_hexdigit() {
                    value = value * 16 + (s[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                out.push(value as u8);
            }
            b'0'..=b'7' => {
                let mut value: u32 = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                    value = value * 8 + (s[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push((value & 0xff) as u8);
            }
            b'.' | b'[' | b']' | b'(' | b')' | b'*' | b'+' | b'?' | b'{' | b'}' | b'|' | b'^' | b'$' => {
                out.push(b'\\');
                out.push(e);
            }
            _ => out.push(e),
        }
    }
    out
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "BEGIN" => Tok::Begin,
        "END" => Tok::End,
        "function" | "func" => Tok::Function,
        "if" => Tok::If,
        "else" => Tok::Else,
        "while" => Tok::While,
        "for" => Tok::For,
        "do" => Tok::Do,
        "break" => Tok::Break,
        "continue" => Tok::Continue,
        "next" => Tok::Next,
        "nextfile" => Tok::Nextfile,
        "exit" => Tok::Exit,
        "return" => Tok::Return,
        "delete" => Tok::Delete,
        "in" => Tok::In,
        "getline" => Tok::Getline,
        "print" => Tok::Print,
        "printf" => Tok::Printf,
        "length" => Tok::Builtin(Builtin::Length),
        "substr" => Tok::Builtin(Builtin::Substr),
        "index" => Tok::Builtin(Builtin::Index),
        "split" => Tok::Builtin(Builtin::Split),
        "sub" => Tok::Builtin(Builtin::Sub),
        "gsub" => Tok::Builtin(Builtin::Gsub),
        "match" => Tok::Builtin(Builtin::Match),
        "sprintf" => Tok::Builtin(Builtin::Sprintf),
        "tolower" => Tok::Builtin(Builtin::Tolower),
        "toupper" => Tok::Builtin(Builtin::Toupper),
        "int" => Tok::Builtin(Builtin::Int),
        "sqrt" => Tok::Builtin(Builtin::Sqrt),
        "exp" => Tok::Builtin(Builtin::Exp),
        "log" => Tok::Builtin(Builtin::Log),
        "sin" => Tok::Builtin(Builtin::Sin),
        "cos" => Tok::Builtin(Builtin::Cos),
        "atan2" => Tok::Builtin(Builtin::Atan2),
        "rand" => Tok::Builtin(Builtin::Rand),
        "srand" => Tok::Builtin(Builtin::Srand),
        "system" => Tok::Builtin(Builtin::System),
        "close" => Tok::Builtin(Builtin::Close),
        "fflush" => Tok::Builtin(Builtin::Fflush),
        _ => return None,
    })
}

impl<'s> Lexer<'s> {
    /// A lexer over the program text.
    pub fn new(src: &'s [u8]) -> Self {
        Lexer { src, pos: 0, line: 1 }
    }

    fn peek_byte(&self, off: usize) -> Option<u8> {
        self.src.get(self.pos + off).copied()
    }

    /// The next token and the offset where it starts.
    pub fn next_token(&mut self) -> Result<(Tok, usize), String> {
        // Blanks, comments and backslash-newline continuations.
        loop {
            match self.peek_byte(0) {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\\') if self.peek_byte(1) == Some(b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                Some(b'\\') if self.peek_byte(1) == Some(b'\r') && self.peek_byte(2) == Some(b'\n') => {
                    self.pos += 3;
                    self.line += 1;
                }
                Some(b'#') => {
                    while self.peek_byte(0).is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        let start = self.pos;
        let Some(c) = self.peek_byte(0) else {
            return Ok((Tok::Eof, start));
        };
        let two = |lx: &mut Lexer, next: u8, yes: Tok, no: Tok| {
            if lx.peek_byte(1) == Some(next) {
                lx.pos += 2;
                yes
            } else {
                lx.pos += 1;
                no
            }
        };
        let tok = match c {
            b'\n' => {
                self.pos += 1;
                self.line += 1;
                Tok::Newline
            }
            b'{' => self.single(Tok::LBrace),
            b'}' => self.single(Tok::RBrace),
            b'(' => self.single(Tok::LParen),
            b')' => self.single(Tok::RParen),
            b'[' => self.single(Tok::LBracket),
            b']' => self.single(Tok::RBracket),
            b';' => self.single(Tok::Semi),
            b',' => self.single(Tok::Comma),
            b'?' => self.single(Tok::Question),
            b':' => self.single(Tok::Colon),
            b'~' => self.single(Tok::Tilde),
            b'$' => self.single(Tok::Dollar),
            b'+' => match self.peek_byte(1) {
                Some(b'+') => self.double(Tok::Incr),
                Some(b'=') => self.double(Tok::AddAssign),
                _ => self.single(Tok::Plus),
            },
            b'-' => match self.peek_byte(1) {
                Some(b'-') => self.double(Tok::Decr),
                Some(b'=') => self.double(Tok::SubAssign),
                _ => self.single(Tok::Minus),
            },
            b'*' => match (self.peek_byte(1), self.peek_byte(2)) {
                (Some(b'*'), Some(b'=')) => {
                    self.pos += 3;
                    Tok::PowAssign
                }
                (Some(b'*'), _) => self.double(Tok::Caret),
                (Some(b'='), _) => self.double(Tok::MulAssign),
                _ => self.single(Tok::Star),
            },
            b'/' => two(self, b'=', Tok::DivAssign, Tok::Slash),
            b'%' => two(self, b'=', Tok::ModAssign, Tok::Percent),
            b'^' => two(self, b'=', Tok::PowAssign, Tok::Caret),
            b'=' => two(self, b'=', Tok::Eq, Tok::Assign),
            b'!' => match self.peek_byte(1) {
                Some(b'=') => self.double(Tok::Ne),
                Some(b'~') => self.double(Tok::NoMatch),
                _ => self.single(Tok::Not),
            },
            b'<' => two(self, b'=', Tok::Le, Tok::Lt),
            b'>' => match self.peek_byte(1) {
                Some(b'=') => self.double(Tok::Ge),
                Some(b'>') => self.double(Tok::Append),
                _ => self.single(Tok::Gt),
            },
            b'&' if self.peek_byte(1) == Some(b'&') => self.double(Tok::And),
            b'|' => two(self, b'|', Tok::Or, Tok::Pipe),
            b'"' => self.string()?,
            b'0'..=b'9' | b'.' => self.number()?,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let mut end = self.pos;
                while self.src.get(end).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
                    end += 1;
                }
                let word = String::from_utf8_lossy(&self.src[self.pos..end]).into_owned();
                self.pos = end;
                match keyword(&word) {
                    Some(t) => t,
                    None if self.peek_byte(0) == Some(b'(') => Tok::FuncName(word),
                    None => Tok::Name(word),
                }
            }
            c => return Err(format!("syntax error at or near {}", c as char)),
        };
        Ok((tok, start))
    }

    fn single(&mut self, t: Tok) -> Tok {
        self.pos += 1;
        t
    }

    fn double(&mut self, t: Tok) -> Tok {
        self.pos += 2;
        t
    }

    fn string(&mut self) -> Result<Tok, String> {
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek_byte(0) {
                None | Some(b'\n') => return Err("runaway string constant".into()),
                Some(b'"') => break,
                Some(b'\\') if self.peek_byte(1) == Some(b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                Some(b'\\') if self.peek_byte(1).is_some() => self.pos += 2,
                Some(_) => self.pos += 1,
            }
        }
        let raw = &self.src[start..self.pos];
        self.pos += 1;
        // A backslash-newline inside a string continues it.
        if raw.windows(2).any(|w| w == b"\\\n") {
            return Ok(Tok::Str(unescape(&remove_continuations(raw))));
        }
        Ok(Tok::Str(unescape(raw)))
    }

    fn number(&mut self) -> Result<Tok, String> {
        let s = &self.src[self.pos..];
        let mut i = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        if i < s.len() && s[i] == b'.' {
            i += 1;
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i == 1 && s[0] == b'.' {
            return Err("syntax error at or near .".into());
        }
        if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
            let mut j = i + 1;
            if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
                j += 1;
            }
            if j < s.len() && s[j].is_ascii_digit() {
                while j < s.len() && s[j].is_ascii_digit() {
                    j += 1;
                }
                i = j;
            }
        }
        let text = std::str::from_utf8(&s[..i]).map_err(|_| "bad number".to_string())?;
        let n: f64 = text.parse().map_err(|_| format!("syntax error at or near {text}"))?;
        self.pos += i;
        Ok(Tok::Number(n))
    }

    /// Reads a regular expression literal whose opening `/` is at `slash`.
    pub fn read_regex(&mut self, slash: usize) -> Result<Tok, String> {
        let mut i = slash + 1;
        let mut out = Vec::new();
        let mut in_bracket = false;
        let mut bracket_start = 0;
        loop {
            let Some(&c) = self.src.get(i) else {
                return Err("runaway regular expression".into());
            };
            match c {
                b'\n' => return Err("runaway regular expression".into()),
                b'\\' if self.src.get(i + 1) == Some(&b'/') => {
                    out.push(b'/');
                    i += 2;
                    continue;
                }
                b'\\' if self.src.get(i + 1) == Some(&b'\n') => {
                    i += 2;
                    self.line += 1;
                    continue;
                }
                b'\\' if i + 1 < self.src.len() => {
                    out.extend_from_slice(&self.src[i..i + 2]);
                    i += 2;
                    continue;
                }
                b'[' if !in_bracket => {
                    in_bracket = true;
                    out.push(c);
                    i += 1;
                    bracket_start = out.len();
                    if self.src.get(i) == Some(&b'^') {
                        out.push(b'^');
                        i += 1;
                        bracket_start = out.len();
                    }
                    if self.src.get(i) == Some(&b']') {
                        out.push(b']');
                        i += 1;
                    }
                    continue;
                }
                b'[' if in_bracket && matches!(self.src.get(i + 1), Some(b':' | b'.' | b'=')) => {
                    let kind = self.src[i + 1];
                    let rest = &self.src[i + 2..];
                    if let Some(end) = rest.windows(2).position(|w| w[0] == kind && w[1] == b']') {
                        out.extend_from_slice(&self.src[i..i + 2 + end + 2]);
                        i += 2 + end + 2;
                        continue;
                    }
                    out.push(c);
                    i += 1;
                    continue;
                }
                b']' if in_bracket && out.len() > bracket_start => in_bracket = false,
                b'/' if !in_bracket => break,
                _ => {}
            }
            out.push(c);
            i += 1;
        }
        self.pos = i + 1;
        Ok(Tok::Regex(out))
    }
}

/// Removes backslash-newline pairs.
fn remove_continuations(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && s.get(i + 1) == Some(&b'\n') {
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}
