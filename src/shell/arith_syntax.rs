//! bash's diagnosis of an arithmetic expression it cannot read: which
//! message (`syntax error: operand expected`, `` `:' expected for
//! conditional expression``, `invalid arithmetic base`…) and which error
//! token, as bash 5.2's `expr.c` finds them. The grammar of the vendored
//! parser only says yes or no; when it says no, this walks the text as
//! bash's tokenizer and recursive descent do (without evaluating anything)
//! and reports the first error they would meet. An error bash finds only
//! while evaluating (a division by 0 left of the syntax error) is not
//! seen here.

/// A token of bash's arithmetic tokenizer (`readtok`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    End,
    Num,
    Str,
    PostInc,
    PreInc,
    /// A one-character operator (`+`, `(`, `?`, `=`…).
    Op(u8),
    EqEq,
    Neq,
    Leq,
    Geq,
    Lsh,
    Rsh,
    Land,
    Lor,
    Power,
    /// `+=`, `<<=` and the other `OP=`.
    OpAssign,
}

/// An error: the message, where the expression shown ends and where the
/// error token starts.
struct Diag {
    message: &'static str,
    shown_end: usize,
    token: Option<usize>,
}

type R = Result<(), Diag>;

struct Lexer<'a> {
    s: &'a [u8],
    /// Where the next token is read from.
    tp: usize,
    /// Where the last token read started (bash's `lasttp`).
    lasttp: Option<usize>,
    cur: Tok,
    last: Tok,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_arithop(c: u8) -> bool {
    b"=><+-*/%!()&|^~?:,".contains(&c)
}

/// The message bash prints for arithmetic text it cannot read
/// (`1 +: syntax error: operand expected (error token is "+")`), or `None`
/// when bash would read it.
pub(crate) fn diagnose(text: &str) -> Option<String> {
    let s = text.as_bytes();
    let mut lx = Lexer { s, tp: 0, lasttp: None, cur: Tok::End, last: Tok::End };
    let result = lx.readtok().and_then(|()| lx.comma()).and_then(|()| {
        if lx.cur == Tok::End {
            Ok(())
        } else {
            Err(lx.err("syntax error in expression"))
        }
    });
    let diag = result.err()?;
    let shown_start = s.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(s.len()).min(diag.shown_end);
    let shown = String::from_utf8_lossy(&s[shown_start..diag.shown_end]);
    let token = diag.token.map_or(std::borrow::Cow::Borrowed(""), |t| String::from_utf8_lossy(&s[t..diag.shown_end]));
    Some(format!("{shown}: {} (error token is \"{token}\")", diag.message))
}

impl Lexer<'_> {
    fn err(&self, message: &'static str) -> Diag {
        Diag { message, shown_end: self.s.len(), token: self.lasttp }
    }

    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    fn set(&mut self, tok: Tok) {
        self.last = self.cur;
        self.cur = tok;
    }

    fn readtok(&mut self) -> R {
        let s = self.s;
        let mut cp = self.tp;
        while cp < s.len() && is_ws(s[cp]) {
            cp += 1;
        }
        if cp >= s.len() {
            self.tp = cp;
            self.set(Tok::End);
            return Ok(());
        }
        let start = cp;
        let c = s[cp];
        cp += 1;
        self.lasttp = Some(start);
        if c.is_ascii_alphabetic() || c == b'_' {
            while cp < s.len() && (s[cp].is_ascii_alphanumeric() || s[cp] == b'_') {
                cp += 1;
            }
            if self.at(cp) == b'[' {
                match skip_subscript(s, cp) {
                    Some(end) => cp = end + 1,
                    None => return Err(self.err("bad array subscript")),
                }
            }
            self.set(Tok::Str);
        } else if c.is_ascii_digit() {
            while cp < s.len() && (s[cp].is_ascii_alphanumeric() || matches!(s[cp], b'#' | b'@' | b'_')) {
                cp += 1;
            }
            if let Some(message) = number_error(&s[start..cp]) {
                return Err(Diag { message, shown_end: cp, token: Some(start) });
            }
            self.set(Tok::Num);
        } else {
            let c1 = self.at(cp);
            cp += 1;
            let tok = match (c, c1) {
                (b'=', b'=') => Tok::EqEq,
                (b'!', b'=') => Tok::Neq,
                (b'>', b'=') => Tok::Geq,
                (b'<', b'=') => Tok::Leq,
                (b'<', b'<') | (b'>', b'>') => {
                    if self.at(cp) == b'=' {
                        cp += 1;
                        Tok::OpAssign
                    } else if c == b'<' {
                        Tok::Lsh
                    } else {
                        Tok::Rsh
                    }
                }
                (b'&', b'&') => Tok::Land,
                (b'|', b'|') => Tok::Lor,
                (b'*', b'*') => Tok::Power,
                (b'+' | b'-', _) if c1 == c && self.cur == Tok::Str => Tok::PostInc,
                (b'+' | b'-', _) if c1 == c && self.cur == Tok::Num && self.last == Tok::PreInc => {
                    let message =
                        if c == b'-' { "--: assignment requires lvalue" } else { "++: assignment requires lvalue" };
                    return Err(self.err(message));
                }
                (b'+' | b'-', _) if c1 == c => {
                    let mut xp = cp;
                    while xp < s.len() && is_ws(s[xp]) {
                        xp += 1;
                    }
                    let next = self.at(xp);
                    if next.is_ascii_alphabetic() || next == b'_' {
                        Tok::PreInc
                    } else {
                        cp -= 1;
                        Tok::Op(c)
                    }
                }
                (b'*' | b'/' | b'%' | b'+' | b'-' | b'&' | b'^' | b'|', b'=') => Tok::OpAssign,
                _ if !is_arithop(c) => {
                    let multiop = matches!(
                        self.cur,
                        Tok::EqEq
                            | Tok::Neq
                            | Tok::Leq
                            | Tok::Geq
                            | Tok::Land
                            | Tok::Lor
                            | Tok::Lsh
                            | Tok::Rsh
                            | Tok::OpAssign
                            | Tok::Power
                    );
                    let message = if self.cur == Tok::End || matches!(self.cur, Tok::Op(_)) || multiop {
                        "syntax error: operand expected"
                    } else {
                        "syntax error: invalid arithmetic operator"
                    };
                    return Err(self.err(message));
                }
                _ => {
                    cp -= 1;
                    Tok::Op(c)
                }
            };
            self.set(tok);
        }
        self.tp = cp;
        Ok(())
    }

    // The grammar, from the loosest operator to the tightest.

    fn comma(&mut self) -> R {
        self.assign()?;
        while self.cur == Tok::Op(b',') {
            self.readtok()?;
            self.assign()?;
        }
        Ok(())
    }

    fn assign(&mut self) -> R {
        self.cond()?;
        if matches!(self.cur, Tok::Op(b'=') | Tok::OpAssign) {
            if self.last != Tok::Str {
                return Err(self.err("attempted assignment to non-variable"));
            }
            self.readtok()?;
            self.assign()?;
        }
        Ok(())
    }

    fn cond(&mut self) -> R {
        self.binary(0)?;
        if self.cur == Tok::Op(b'?') {
            self.readtok()?;
            if matches!(self.cur, Tok::End | Tok::Op(b':')) {
                return Err(self.err("expression expected"));
            }
            self.comma()?;
            if self.cur != Tok::Op(b':') {
                return Err(self.err("`:' expected for conditional expression"));
            }
            self.readtok()?;
            if self.cur == Tok::End {
                return Err(self.err("expression expected"));
            }
            self.cond()?;
        }
        Ok(())
    }

    /// The binary operators' levels: `||`, `&&`, `|`, `^`, `&`, `== !=`,
    /// `< > <= >=`, `<< >>`, `+ -`, `* / %`.
    fn binary(&mut self, level: usize) -> R {
        const LEVELS: usize = 10;
        if level == LEVELS {
            return self.power();
        }
        self.binary(level + 1)?;
        loop {
            let here = match level {
                0 => self.cur == Tok::Lor,
                1 => self.cur == Tok::Land,
                2 => self.cur == Tok::Op(b'|'),
                3 => self.cur == Tok::Op(b'^'),
                4 => self.cur == Tok::Op(b'&'),
                5 => matches!(self.cur, Tok::EqEq | Tok::Neq),
                6 => matches!(self.cur, Tok::Leq | Tok::Geq | Tok::Op(b'<' | b'>')),
                7 => matches!(self.cur, Tok::Lsh | Tok::Rsh),
                8 => matches!(self.cur, Tok::Op(b'+' | b'-')),
                _ => matches!(self.cur, Tok::Op(b'*' | b'/' | b'%')),
            };
            if !here {
                return Ok(());
            }
            self.readtok()?;
            self.binary(level + 1)?;
            self.last = Tok::Num;
        }
    }

    fn power(&mut self) -> R {
        self.unary()?;
        while self.cur == Tok::Power {
            self.readtok()?;
            self.power()?;
            self.last = Tok::Num;
        }
        Ok(())
    }

    fn unary(&mut self) -> R {
        if matches!(self.cur, Tok::Op(b'!' | b'~' | b'-' | b'+')) {
            self.readtok()?;
            self.unary()?;
            self.last = Tok::Num;
            return Ok(());
        }
        self.primary()
    }

    fn primary(&mut self) -> R {
        match self.cur {
            Tok::PreInc => {
                self.last = self.cur;
                self.readtok()?;
                if self.cur != Tok::Str {
                    return Err(self.err("identifier expected after pre-increment or pre-decrement"));
                }
                // As bash: `--x=7` and `++x++` are errors.
                self.cur = Tok::Num;
                self.readtok()
            }
            Tok::Op(b'(') => {
                self.readtok()?;
                self.comma()?;
                if self.cur != Tok::Op(b')') {
                    return Err(self.err("missing `)'"));
                }
                self.readtok()
            }
            Tok::Num => self.readtok(),
            Tok::Str => {
                // bash looks one token ahead for `x++`, then puts it back.
                let saved = (self.tp, self.lasttp, self.cur, self.last);
                self.readtok()?;
                if self.cur == Tok::PostInc {
                    self.last = Tok::Str;
                } else {
                    (self.tp, self.lasttp, self.cur, self.last) = saved;
                }
                self.readtok()
            }
            _ => Err(self.err("syntax error: operand expected")),
        }
    }
}

/// The index of the `]` closing the subscript opened at `open`.
fn skip_subscript(s: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate().skip(open) {
        match b {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// What bash's `strlong` refuses in a number token (`08`, `1#1`, `10#`).
fn number_error(num: &[u8]) -> Option<&'static str> {
    let mut base: u64 = 10;
    let mut found_base = false;
    let mut i = 0;
    if num.first() == Some(&b'0') {
        i = 1;
        if num.len() == 1 {
            return None;
        }
        if matches!(num[1], b'x' | b'X') {
            base = 16;
            i = 2;
        } else {
            base = 8;
        }
        found_base = true;
    }
    let mut val: u64 = 0;
    while i < num.len() {
        let c = num[i];
        i += 1;
        if c == b'#' {
            if found_base {
                return Some("invalid number");
            }
            if !(2..=64).contains(&val) {
                return Some("invalid arithmetic base");
            }
            base = val;
            val = 0;
            found_base = true;
            if i >= num.len() {
                return Some("invalid integer constant");
            }
            continue;
        }
        let digit = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'z' => u64::from(c - b'a') + 10,
            b'A'..=b'Z' => u64::from(c - b'A') + if base <= 36 { 10 } else { 36 },
            b'@' => 62,
            _ => 63,
        };
        if digit >= base {
            return Some("value too great for base");
        }
        val = val.wrapping_mul(base).wrapping_add(digit);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::diagnose;

    /// Each message as bash 5.2 prints it for `$((TEXT))`.
    #[test]
    fn as_bash_says() {
        let cases = [
            ("1 +", "1 +: syntax error: operand expected (error token is \"+\")"),
            (" 1 + ", "1 + : syntax error: operand expected (error token is \"+ \")"),
            ("1 2", "1 2: syntax error in expression (error token is \"2\")"),
            ("1 +* 2", "1 +* 2: syntax error: operand expected (error token is \"* 2\")"),
            ("1 ? 2", "1 ? 2: `:' expected for conditional expression (error token is \"2\")"),
            ("1 ? : 2", "1 ? : 2: expression expected (error token is \": 2\")"),
            ("1 ? 2 :", "1 ? 2 :: expression expected (error token is \":\")"),
            ("1 = 2", "1 = 2: attempted assignment to non-variable (error token is \"= 2\")"),
            ("x+1 = 2", "x+1 = 2: attempted assignment to non-variable (error token is \"= 2\")"),
            ("1+=2", "1+=2: attempted assignment to non-variable (error token is \"+=2\")"),
            ("x++ ++", "x++ ++: syntax error: operand expected (error token is \"+\")"),
            ("--", "--: syntax error: operand expected (error token is \"-\")"),
            ("1..2", "1..2: syntax error: invalid arithmetic operator (error token is \"..2\")"),
            ("1 @ 2", "1 @ 2: syntax error: invalid arithmetic operator (error token is \"@ 2\")"),
            ("@", "@: syntax error: operand expected (error token is \"@\")"),
            ("1 + 08 + 2", "1 + 08: value too great for base (error token is \"08\")"),
            ("1 + 0#1 + 2", "1 + 0#1: invalid number (error token is \"0#1\")"),
            ("1#1", "1#1: invalid arithmetic base (error token is \"1#1\")"),
            ("10#", "10#: invalid integer constant (error token is \"10#\")"),
            ("a[1", "a[1: bad array subscript (error token is \"a[1\")"),
            ("++x++", "++x++: ++: assignment requires lvalue (error token is \"++\")"),
            ("(1", "(1: missing `)' (error token is \"1\")"),
            ("x =+ ", "x =+ : syntax error: operand expected (error token is \"+ \")"),
            ("i<", "i<: syntax error: operand expected (error token is \"<\")"),
        ];
        for (text, message) in cases {
            assert_eq!(diagnose(text).as_deref(), Some(message), "{text}");
        }
        for fine in ["1 ++ 2", "++5", "37#1", "0x", "x++ + ++y", "a[b[1]] = 2, c ? d : e"] {
            assert_eq!(diagnose(fine), None, "{fine}");
        }
    }
}
