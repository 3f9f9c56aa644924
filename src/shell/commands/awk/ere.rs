//! awk's extended regular expressions, translated to the `regex` crate's
//! syntax and compiled over bytes with Unicode off (C-locale semantics: `.`
//! is one byte and matches a newline too).
//!
//! Inside bracket expressions a backslash escapes the next character, as
//! in gawk (`[\]]`, `[\/]`); `[:alpha:]`-style classes work; `{n,m}` is an
//! interval when it is a well-formed one and literal braces otherwise.
//! gawk's `\y \B \< \> \w \W \s \S` are supported; other escaped letters
//! stand for themselves (`\d` is `d`), as in gawk.

use regex::bytes::{Regex, RegexBuilder};

/// Compiles an awk ERE.
pub fn compile(pattern: &[u8]) -> Result<Regex, String> {
    let translated = translate(pattern)?;
    RegexBuilder::new(&translated).unicode(false).dot_matches_new_line(true).size_limit(1 << 23).build().map_err(|e| {
        format!("regular expression /{}/: {}", String::from_utf8_lossy(pattern), first_line(&e.to_string()))
    })
}

fn first_line(s: &str) -> String {
    s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("invalid").trim().to_string()
}

/// A regex matching `bytes` literally.
pub fn literal(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        push_literal(&mut out, b);
    }
    out
}

fn push_literal(out: &mut String, b: u8) {
    if b.is_ascii_alphanumeric() || b == b'_' {
        out.push(b as char);
    } else if b.is_ascii() && !b.is_ascii_control() && b != b' ' {
        out.push('\\');
        out.push(b as char);
    } else {
        out.push_str(&format!("\\x{b:02x}"));
    }
}

/// A byte inside a bracket expression of the regex crate's syntax.
fn push_class_byte(out: &mut String, b: u8) {
    if b.is_ascii_alphanumeric() {
        out.push(b as char);
    } else {
        out.push_str(&format!("\\x{b:02x}"));
    }
}

fn escape_char(c: u8) -> Option<u8> {
    Some(match c {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'f' => 0x0c,
        b'v' => 0x0b,
        b'a' => 0x07,
        b'b' => 0x08,
        b'/' => b'/',
        b'"' => b'"',
        b'\\' => b'\\',
        _ => return None,
    })
}

/// Reads an octal escape `\ooo` starting at `i` (after the backslash).
fn octal(p: &[u8], i: usize) -> Option<(u8, usize)> {
    let mut value: u32 = 0;
    let mut j = i;
    while j < p.len() && j < i + 3 && (b'0'..=b'7').contains(&p[j]) {
        value = value * 8 + (p[j] - b'0') as u32;
        j += 1;
    }
    (j > i).then_some(((value & 0xff) as u8, j))
}

/// An awk ERE in the regex crate's syntax.
pub fn translate(p: &[u8]) -> Result<String, String> {
    let mut out = String::with_capacity(p.len() * 2);
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        match c {
            b'\\' => {
                i += 1;
                let Some(&e) = p.get(i) else {
                    out.push_str("\\\\");
                    break;
                };
                if let Some((b, next)) = octal(p, i) {
                    push_literal(&mut out, b);
                    i = next;
                    continue;
                }
                i += 1;
                match e {
                    b'y' => out.push_str("\\b"),
                    b'B' => out.push_str("\\B"),
                    b'<' => out.push_str("\\b{start}"),
                    b'>' => out.push_str("\\b{end}"),
                    b'w' | b'W' | b's' | b'S' => {
                        out.push('\\');
                        out.push(e as char);
                    }
                    b'`' => out.push_str("\\A"),
                    b'\'' => out.push_str("\\z"),
                    _ => match escape_char(e) {
                        Some(b) => push_literal(&mut out, b),
                        None => push_literal(&mut out, e),
                    },
                }
            }
            b'[' => {
                i = bracket(p, i, &mut out)?;
            }
            b'{' => {
                // An interval only when well formed and after something.
                let end = p[i..].iter().position(|&b| b == b'}').map(|e| i + e);
                let body = end.map(|e| &p[i + 1..e]);
                let valid = body.is_some_and(|b| {
                    let (lo, hi) = match b.iter().position(|&x| x == b',') {
                        Some(k) => (&b[..k], Some(&b[k + 1..])),
                        None => (b, None),
                    };
                    !lo.is_empty()
                        && lo.iter().all(u8::is_ascii_digit)
                        && hi.is_none_or(|h| h.iter().all(u8::is_ascii_digit))
                        && lo.len() < 4
                        && hi.is_none_or(|h| h.len() < 4)
                }) && !out.is_empty()
                    && !out.ends_with('(')
                    && !out.ends_with('|');
                match (valid, end) {
                    (true, Some(e)) => {
                        out.push_str(&String::from_utf8_lossy(&p[i..=e]));
                        i = e + 1;
                    }
                    _ => {
                        out.push_str("\\{");
                        i += 1;
                    }
                }
            }
            b'}' => {
                out.push_str("\\}");
                i += 1;
            }
            b'*' | b'+' | b'?' => {
                // A leading repetition operator is literal in awk.
                if out.is_empty() || out.ends_with('(') || out.ends_with('|') || out.ends_with('^') {
                    out.push('\\');
                }
                out.push(c as char);
                i += 1;
            }
            b'.' | b'(' | b')' | b'|' | b'^' | b'$' => {
                out.push(c as char);
                i += 1;
            }
            _ => {
                push_literal(&mut out, c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Translates the bracket expression starting at `p[start] == '['`;
/// returns the index after its closing `]`.
fn bracket(p: &[u8], start: usize, out: &mut String) -> Result<usize, String> {
    let mut i = start + 1;
    let mut class = String::from("[");
    if p.get(i) == Some(&b'^') {
        class.push('^');
        i += 1;
    }
    let mut first = true;
    let mut items = 0usize;
    loop {
        let Some(&c) = p.get(i) else {
            return Err(format!("regular expression /{}/: unterminated [", String::from_utf8_lossy(p)));
        };
        if c == b']' && !first {
            i += 1;
            break;
        }
        first = false;
        if c == b'[' && matches!(p.get(i + 1), Some(b':' | b'=' | b'.')) {
            let kind = p[i + 1];
            let close = [kind, b']'];
            let rest = &p[i + 2..];
            let Some(end) = rest.windows(2).position(|w| w == close) else {
                return Err(format!("regular expression /{}/: bad bracket", String::from_utf8_lossy(p)));
            };
            let name = &rest[..end];
            if kind == b':' {
                let name = String::from_utf8_lossy(name);
                if !matches!(
                    &*name,
                    "alpha"
                        | "digit"
                        | "alnum"
                        | "upper"
                        | "lower"
                        | "space"
                        | "blank"
                        | "punct"
                        | "print"
                        | "graph"
                        | "cntrl"
                        | "xdigit"
                ) {
                    return Err(format!("invalid character class [:{name}:]"));
                }
                class.push_str(&format!("[:{name}:]"));
            } else {
                for &b in name {
                    push_class_byte(&mut class, b);
                }
            }
            i += 2 + end + 2;
            items += 1;
            continue;
        }
        let (lo, next) = class_char(p, i);
        i = next;
        if p.get(i) == Some(&b'-') && p.get(i + 1).is_some_and(|&b| b != b']') {
            let (hi, next) = class_char(p, i + 1);
            if hi < lo {
                return Err(format!("regular expression /{}/: invalid range", String::from_utf8_lossy(p)));
            }
            push_class_byte(&mut class, lo);
            class.push('-');
            push_class_byte(&mut class, hi);
            i = next;
        } else {
            push_class_byte(&mut class, lo);
        }
        items += 1;
    }
    class.push(']');
    if items == 0 {
        // `[^]` cannot happen (']' first is literal), but keep it total.
        out.push_str("[^\\x00-\\xff]");
    } else {
        out.push_str(&class);
    }
    Ok(i)
}

/// One (possibly backslash-escaped) character in a bracket expression.
fn class_char(p: &[u8], i: usize) -> (u8, usize) {
    if p[i] == b'\\' && i + 1 < p.len() {
        if let Some((b, next)) = octal(p, i + 1) {
            return (b, next);
        }
        let e = p[i + 1];
        return (escape_char(e).unwrap_or(e), i + 2);
    }
    (p[i], i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(re: &str, s: &str) -> bool {
        compile(re.as_bytes()).unwrap().is_match(s.as_bytes())
    }

    #[test]
    fn translation() {
        assert!(m("[[:alpha:]]+", "abc"));
        assert!(!m("^[[:digit:]]+$", "12a"));
        assert!(m("a\\.b", "a.b"));
        assert!(!m("a\\.b", "axb"));
        assert!(m("[]a]", "]"));
        assert!(m("[^]a]", "b"));
        assert!(m("[a\\]]", "]"));
        assert!(m("a{2}", "aa"));
        assert!(!m("^a{2}$", "a"));
        assert!(m("a{", "a{"));
        assert!(m("[.]", "."));
        assert!(!m("[.]", "x"));
        assert!(m("a|b", "b"));
        assert!(m("[&~-]", "-"));
        assert!(m("[a-c-]", "-"));
        assert!(m("x.y", "x\ny"));
        assert!(m("\\/", "/"));
        assert!(m("^+", "+"));
        assert!(compile(b"(").is_err());
        assert!(compile(b"[abc").is_err());
    }
}
