//! `expr`: GNU's grammar (`|`, `&`, comparisons, `+ -`, `* / %`, `:`,
//! and `match`, `substr`, `index`, `length`, `+ TOKEN`, parentheses).
//! Integers are 128-bit (GNU's are unbounded): a result past that is an
//! error. `:` uses the shell's BRE translation, anchored at the start.

use crate::shell::command::Context;
use crate::shell::commands::regex_syntax::{translate, Dialect};
use crate::shell::LimitHit;

use super::quote;

#[derive(Debug, Clone)]
enum Value {
    Int(i128),
    Str(String),
}

impl Value {
    fn text(&self) -> String {
        match self {
            Value::Int(n) => n.to_string(),
            Value::Str(s) => s.clone(),
        }
    }

    /// The integer a value is or looks like (`-`? digits).
    fn int(&self) -> Option<i128> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Str(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                s.parse().ok()
            }
        }
    }

    /// Null: the empty string or zero (`0`, `-0`, `00`).
    fn null(&self) -> bool {
        match self {
            Value::Int(n) => *n == 0,
            Value::Str(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                s.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b == b'0'))
            }
        }
    }
}

/// An `expr` failure: its message (exit status 2).
struct Fail(String);

struct Parser<'a> {
    args: &'a [String],
    at: usize,
}

impl Parser<'_> {
    fn next_is(&mut self, token: &str) -> bool {
        if self.args.get(self.at).is_some_and(|arg| arg == token) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn require_more(&self) -> Result<(), Fail> {
        if self.at >= self.args.len() {
            return Err(Fail(format!("syntax error: missing argument after {}", quote(&self.args[self.at - 1]))));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Value, Fail> {
        let mut left = self.and()?;
        while self.next_is("|") {
            let right = self.and()?;
            if left.null() {
                left = if right.null() { Value::Int(0) } else { right };
            }
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Value, Fail> {
        let mut left = self.compare()?;
        while self.next_is("&") {
            let right = self.compare()?;
            if left.null() || right.null() {
                left = Value::Int(0);
            }
        }
        Ok(left)
    }

    fn compare(&mut self) -> Result<Value, Fail> {
        let mut left = self.sum()?;
        loop {
            let op = ["<", "<=", "=", "==", "!=", ">=", ">"].into_iter().find(|op| self.next_is(op));
            let Some(op) = op else { return Ok(left) };
            let right = self.sum()?;
            let order = match (left.int(), right.int()) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => left.text().as_bytes().cmp(right.text().as_bytes()),
            };
            let truth = match op {
                "<" => order.is_lt(),
                "<=" => order.is_le(),
                "=" | "==" => order.is_eq(),
                "!=" => order.is_ne(),
                ">=" => order.is_ge(),
                _ => order.is_gt(),
            };
            left = Value::Int(i128::from(truth));
        }
    }

    fn sum(&mut self) -> Result<Value, Fail> {
        let mut left = self.product()?;
        loop {
            let op = ["+", "-"].into_iter().find(|op| self.next_is(op));
            let Some(op) = op else { return Ok(left) };
            let right = self.product()?;
            let (a, b) = integers(&left, &right)?;
            let result = if op == "+" { a.checked_add(b) } else { a.checked_sub(b) };
            left = Value::Int(result.ok_or_else(too_large)?);
        }
    }

    fn product(&mut self) -> Result<Value, Fail> {
        let mut left = self.colon()?;
        loop {
            let op = ["*", "/", "%"].into_iter().find(|op| self.next_is(op));
            let Some(op) = op else { return Ok(left) };
            let right = self.colon()?;
            let (a, b) = integers(&left, &right)?;
            if op != "*" && b == 0 {
                return Err(Fail("division by zero".to_string()));
            }
            let result = match op {
                "*" => a.checked_mul(b),
                "/" => a.checked_div(b),
                _ => a.checked_rem(b),
            };
            left = Value::Int(result.ok_or_else(too_large)?);
        }
    }

    fn colon(&mut self) -> Result<Value, Fail> {
        let mut left = self.unary()?;
        while self.next_is(":") {
            let right = self.unary()?;
            left = regex_match(&left.text(), &right.text())?;
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Value, Fail> {
        // Each `(` and `length` is a level of recursion: refused where the
        // stack has no more room for one.
        if crate::shell::stack::too_deep() {
            return Err(Fail("expression nested too deeply".to_string()));
        }
        if self.next_is("+") {
            self.require_more()?;
            self.at += 1;
            return Ok(Value::Str(self.args[self.at - 1].clone()));
        }
        if self.next_is("length") {
            let value = self.unary()?;
            return Ok(Value::Int(value.text().len() as i128));
        }
        if self.next_is("match") {
            let (text, pattern) = (self.unary()?, self.unary()?);
            return regex_match(&text.text(), &pattern.text());
        }
        if self.next_is("index") {
            let (text, chars) = (self.unary()?.text(), self.unary()?.text());
            let found = text.bytes().position(|b| chars.as_bytes().contains(&b));
            return Ok(Value::Int(found.map_or(0, |at| at as i128 + 1)));
        }
        if self.next_is("substr") {
            let text = self.unary()?.text();
            let (pos, len) = (self.unary()?.int(), self.unary()?.int());
            let result = match (pos, len) {
                (Some(pos), Some(len)) if pos >= 1 && len >= 1 && (pos as u128) <= text.len() as u128 => {
                    let start = pos as usize - 1;
                    let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX)).min(text.len());
                    String::from_utf8_lossy(&text.as_bytes()[start..end]).into_owned()
                }
                _ => String::new(),
            };
            return Ok(Value::Str(result));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Value, Fail> {
        self.require_more()?;
        if self.next_is("(") {
            let value = self.or()?;
            if self.at >= self.args.len() {
                return Err(Fail(format!("syntax error: expecting ')' after {}", quote(&self.args[self.at - 1]))));
            }
            if !self.next_is(")") {
                return Err(Fail(format!("syntax error: expecting ')' instead of {}", quote(&self.args[self.at]))));
            }
            return Ok(value);
        }
        if self.next_is(")") {
            return Err(Fail("syntax error: unexpected ')'".to_string()));
        }
        self.at += 1;
        Ok(Value::Str(self.args[self.at - 1].clone()))
    }
}

fn too_large() -> Fail {
    Fail("integer result too large".to_string())
}

fn integers(left: &Value, right: &Value) -> Result<(i128, i128), Fail> {
    match (left.int(), right.int()) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Fail("non-integer argument".to_string())),
    }
}

/// `STRING : REGEX`: the BRE anchored at the start; the first group's text
/// when the pattern has one, else how many bytes matched.
fn regex_match(text: &str, pattern: &str) -> Result<Value, Fail> {
    let dialect = Dialect { extended: false, lines: false, sed_escapes: false };
    let translated = translate(pattern, dialect).map_err(Fail)?;
    let regex = regex::bytes::Regex::new(&format!("\\A(?:{translated})")).map_err(|e| Fail(e.to_string()))?;
    let captures = regex.captures(text.as_bytes());
    if regex.captures_len() > 1 {
        let group = captures.as_ref().and_then(|c| c.get(1)).map(|m| m.as_bytes()).unwrap_or_default();
        return Ok(Value::Str(String::from_utf8_lossy(group).into_owned()));
    }
    Ok(Value::Int(captures.and_then(|c| c.get(0)).map_or(0, |m| m.end() as i128)))
}

/// `expr EXPRESSION`: prints the value; status 1 when it is null or 0, 2
/// on an error.
pub(super) fn expr(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let args = match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        _ => args,
    };
    if args.is_empty() {
        return super::usage(ctx, "missing operand", 2);
    }
    let mut parser = Parser { args, at: 0 };
    let result = parser.or().and_then(|value| match args.get(parser.at) {
        Some(extra) => Err(Fail(format!("syntax error: unexpected argument {}", quote(extra)))),
        None => Ok(value),
    });
    match result {
        Ok(value) => {
            ctx.stdout.write_str(&format!("{}\n", value.text()))?;
            Ok(if value.null() { 1 } else { 0 })
        }
        Err(Fail(message)) => {
            ctx.error(message)?;
            Ok(2)
        }
    }
}
