//! The filter's text before jaq sees it: bounding its nesting, and the
//! rewrites that give jq's behaviour.

use super::*;

/// The most operators, brackets and keywords a filter may hold: each can
/// add a level to jaq's recursion (`.|.|…`, `((…))`, `1+1+…`), so this
/// bounds the depth of its parser, compiler and interpreter (about 1.5 KiB
/// of stack a level in a release build, see docs/RELIABILITY.md).
pub(super) const MAX_FILTER_NESTING: usize = 2048;

/// An upper bound on how deep the filter nests: every token that may open a
/// level (an operator, a bracket, an interpolation, a keyword), counted
/// outside strings and comments, without recursion.
pub(super) fn nesting_bound(code: &str) -> usize {
    let bytes = code.as_bytes();
    let mut count = 0usize;
    // For each interpolation we are inside, the bracket depth it opened at.
    let mut interpolations: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' if bytes.get(i + 1) == Some(&b'(') => {
                    count += 1;
                    interpolations.push(depth);
                    depth += 1;
                    in_string = false;
                    i += 2;
                    continue;
                }
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                count += 1;
                depth += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if b == b')' && interpolations.last() == Some(&depth) {
                    interpolations.pop();
                    in_string = true;
                }
            }
            b'|' | b',' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'?' | b':' => count += 1,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &bytes[start..i],
                    b"if" | b"elif" | b"reduce" | b"foreach" | b"try" | b"def" | b"as" | b"label" | b"and" | b"or"
                ) {
                    count += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    count
}

// ---------------------------------------------------------------------------
// Rewriting the filter text

/// Rewrites the filter for two things jaq does differently:
/// - string interpolation prints values as jq does: `"\(x)"` becomes
///   `"\((x) | _tostring)"` (jaq would print `1.0` for a float 1); strings
///   after an `@format` keep the format's own conversion;
/// - every function body starts with `_check |`, so that recursion is
///   checked (time, cancellation, stack budget) at every call.
pub(super) fn rewrite_filter(code: &str) -> String {
    let bytes = code.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut i = 0;
    rewrite_code(bytes, &mut i, &mut out, false);
    String::from_utf8(out).unwrap_or_else(|_| code.to_string())
}

/// Copies code up to an unmatched `)` (when `nested`) or the end.
fn rewrite_code(bytes: &[u8], i: &mut usize, out: &mut Vec<u8>, nested: bool) {
    let mut depth = 0usize;
    let mut after_format = false;
    while *i < bytes.len() {
        let b = bytes[*i];
        match b {
            b'#' => {
                while *i < bytes.len() && bytes[*i] != b'\n' {
                    out.push(bytes[*i]);
                    *i += 1;
                }
                continue;
            }
            b'"' => {
                rewrite_string(bytes, i, out, !after_format);
                after_format = false;
                continue;
            }
            b'@' => {
                out.push(b);
                *i += 1;
                while *i < bytes.len() && (bytes[*i].is_ascii_alphanumeric() || bytes[*i] == b'_') {
                    out.push(bytes[*i]);
                    *i += 1;
                }
                after_format = true;
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                if depth == 0 && nested {
                    return;
                }
                depth = depth.saturating_sub(1);
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                out.push(b);
                *i += 1;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let keyword_position =
                    !matches!(out.last(), Some(b'.' | b'$' | b'@' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'_'));
                let start = *i;
                while *i < bytes.len() && (bytes[*i].is_ascii_alphanumeric() || bytes[*i] == b'_') {
                    *i += 1;
                }
                out.extend_from_slice(&bytes[start..*i]);
                after_format = false;
                let rest = &bytes[*i..];
                let name_follows = rest
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
                if keyword_position && &bytes[start..*i] == b"def" && name_follows {
                    // Copy the header (`name`, `name($a; f)`) through its colon.
                    while *i < bytes.len() && bytes[*i] != b':' {
                        out.push(bytes[*i]);
                        *i += 1;
                    }
                    if *i < bytes.len() {
                        out.extend_from_slice(b": _check |");
                        *i += 1;
                    }
                }
                continue;
            }
            _ => {}
        }
        after_format = false;
        out.push(b);
        *i += 1;
    }
}

/// Copies a string literal from its opening quote, wrapping each
/// interpolation when `wrap`.
fn rewrite_string(bytes: &[u8], i: &mut usize, out: &mut Vec<u8>, wrap: bool) {
    out.push(b'"');
    *i += 1;
    while *i < bytes.len() {
        let b = bytes[*i];
        match b {
            b'"' => {
                out.push(b);
                *i += 1;
                return;
            }
            b'\\' if bytes.get(*i + 1) == Some(&b'(') => {
                *i += 2;
                out.extend_from_slice(if wrap { b"\\((" } else { b"\\(" });
                rewrite_code(bytes, i, out, true);
                if wrap {
                    out.extend_from_slice(b") | _tostring");
                }
                if *i < bytes.len() {
                    out.push(b')');
                    *i += 1;
                }
            }
            b'\\' => {
                out.push(b);
                *i += 1;
                if *i < bytes.len() {
                    out.push(bytes[*i]);
                    *i += 1;
                }
            }
            _ => {
                out.push(b);
                *i += 1;
            }
        }
    }
}

/// `$ENV`: the shell variables whose names appear in the filter.
pub(super) fn env_object(code: &str, var: &dyn Fn(&str) -> Option<String>) -> Val {
    let mut map = Map::default();
    for word in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.is_empty() || word.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        if let Some(value) = var(word) {
            map.insert(str_val(word), str_val(value));
        }
    }
    Val::obj(map)
}
