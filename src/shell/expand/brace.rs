//! Brace expansion: `{a,b}`, `{1..5}`, `{a..e}`, `{01..10}`, `{1..10..2}`.

use super::*;

/// Brace expansion of a raw word: `{a,b}`, `{1..5}`, `{a..e}`, `{01..10}`,
/// `{1..10..2}`, nested. Quoted and `$`-constructs are left alone.
pub(crate) fn brace_expand(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    brace_into(word, &mut out);
    out
}

pub(super) fn brace_into(word: &str, out: &mut Vec<String>) {
    if out.len() > MAX_BRACE_WORDS {
        return;
    }
    // One level per brace group: past the stack's room the rest stays literal.
    if crate::shell::stack::too_deep() {
        out.push(word.to_string());
        return;
    }
    let Some((open, close, items)) = find_brace(word) else {
        out.push(word.to_string());
        return;
    };
    let prefix = &word[..open];
    let suffix = &word[close + 1..];
    for item in items {
        if out.len() > MAX_BRACE_WORDS {
            return;
        }
        brace_into(&format!("{prefix}{item}{suffix}"), out);
    }
}

/// Skips a quoted or `$`-construct starting at `i`; returns the index after it.
pub(super) fn skip_construct(bytes: &[u8], i: usize) -> usize {
    let n = bytes.len();
    match bytes[i] {
        b'\\' => (i + 2).min(n),
        b'\'' => bytes[i + 1..].iter().position(|&b| b == b'\'').map_or(n, |p| i + 1 + p + 1),
        b'"' => {
            let mut j = i + 1;
            while j < n && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(n)
        }
        b'`' => bytes[i + 1..].iter().position(|&b| b == b'`').map_or(n, |p| i + 1 + p + 1),
        b'$' if i + 1 < n && (bytes[i + 1] == b'{' || bytes[i + 1] == b'(') => {
            let (open, close) = if bytes[i + 1] == b'{' { (b'{', b'}') } else { (b'(', b')') };
            let mut depth = 0;
            let mut j = i + 1;
            while j < n {
                let b = bytes[j];
                if b == b'\\' || b == b'\'' || b == b'"' {
                    j = skip_construct(bytes, j);
                    continue;
                }
                if b == open {
                    depth += 1;
                } else if b == close {
                    depth -= 1;
                    if depth == 0 {
                        return j + 1;
                    }
                }
                j += 1;
            }
            n
        }
        _ => i + 1,
    }
}

/// The first brace expression of a word: (open, close, alternatives).
pub(super) fn find_brace(word: &str) -> Option<(usize, usize, Vec<String>)> {
    let bytes = word.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        match bytes[i] {
            b'\\' | b'\'' | b'"' | b'`' | b'$' => {
                i = skip_construct(bytes, i);
                continue;
            }
            b'{' => {
                if let Some(found) = brace_at(word, i) {
                    return Some(found);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

pub(super) fn brace_at(word: &str, open: usize) -> Option<(usize, usize, Vec<String>)> {
    let bytes = word.as_bytes();
    let n = bytes.len();
    let mut depth = 0;
    let mut commas = Vec::new();
    let mut j = open;
    while j < n {
        match bytes[j] {
            b'\\' | b'\'' | b'"' | b'`' | b'$' => {
                j = skip_construct(bytes, j);
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    let inner = &word[open + 1..j];
                    if !commas.is_empty() {
                        let mut items = Vec::new();
                        let mut start = open + 1;
                        for &c in &commas {
                            items.push(word[start..c].to_string());
                            start = c + 1;
                        }
                        items.push(word[start..j].to_string());
                        return Some((open, j, items));
                    }
                    return sequence(inner).map(|items| (open, j, items));
                }
            }
            b',' if depth == 1 => commas.push(j),
            _ => {}
        }
        j += 1;
    }
    None
}

/// `1..5`, `a..e`, `01..10`, `1..10..2`.
pub(super) fn sequence(inner: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if parts.len() != 2 && parts.len() != 3 {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse().ok()?,
        None => 1,
    };
    let step = step.checked_abs()?.max(1);
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let width = |s: &str| {
            let digits = s.trim_start_matches(['-', '+']);
            if digits.len() > 1 && digits.starts_with('0') {
                s.len()
            } else {
                0
            }
        };
        let pad = width(parts[0]).max(width(parts[1]));
        let count = (a.abs_diff(b) / step as u64) + 1;
        if count as usize > MAX_BRACE_WORDS {
            return Some(vec![String::new(); MAX_BRACE_WORDS + 1]);
        }
        let mut items = Vec::with_capacity(count as usize);
        let mut v = a;
        for _ in 0..count {
            items.push(if pad > 0 {
                crate::shell::commands::layout::zero_padded(i128::from(v), pad)
            } else {
                v.to_string()
            });
            v = if a <= b { v.saturating_add(step) } else { v.saturating_sub(step) };
        }
        return Some(items);
    }
    let single = |s: &str| {
        let mut chars = s.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c.is_ascii_alphabetic()).then_some(c)
    };
    let (a, b) = (single(parts[0])?, single(parts[1])?);
    let (a, b) = (a as u8, b as u8);
    let mut items = Vec::new();
    let mut v = i64::from(a);
    let end = i64::from(b);
    loop {
        items.push((v as u8 as char).to_string());
        if v == end {
            break;
        }
        v += if a <= b { step } else { -step };
        if (a <= b && v > end) || (a > b && v < end) {
            break;
        }
    }
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces() {
        assert_eq!(brace_expand("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(brace_expand("{1..3}"), ["1", "2", "3"]);
        assert_eq!(brace_expand("{3..1}"), ["3", "2", "1"]);
        assert_eq!(brace_expand("{01..03}"), ["01", "02", "03"]);
        assert_eq!(brace_expand("{1..10..4}"), ["1", "5", "9"]);
        assert_eq!(brace_expand("{a..c}"), ["a", "b", "c"]);
        assert_eq!(brace_expand("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"]);
        assert_eq!(brace_expand("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(brace_expand("{a}"), ["{a}"]);
        assert_eq!(brace_expand("'{a,b}'"), ["'{a,b}'"]);
        assert_eq!(brace_expand("${x:-{a,b}}"), ["${x:-{a,b}}"]);
        assert_eq!(brace_expand("{,x}"), ["", "x"]);
        assert!(brace_expand("{1..99999999999999}").len() > MAX_BRACE_WORDS);
    }
}
