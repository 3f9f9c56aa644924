//! Shell quoting: a value as bash writes it back so that it reads as the
//! same word (`declare -p`, `${v@Q}`, `trap -p`, `set -x` traces).

/// `"text"`, with `" \ $ `` ` escaped (`declare -p`).
pub(crate) fn double_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `'text'`, with embedded quotes as `'\''` (`${v@Q}`).
pub(crate) fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `text` as it is when it needs no quotes, else [`single_quote`]d.
pub(crate) fn single_quote_if_needed(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-./:,=+@%^".contains(&b)) {
        s.to_string()
    } else {
        single_quote(s)
    }
}

/// An argument as `set -x` shows it.
pub(crate) fn quote_for_trace(s: &str) -> String {
    single_quote_if_needed(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(single_quote("a'b"), "'a'\\''b'");
        assert_eq!(quote_for_trace("a b"), "'a b'");
        assert_eq!(quote_for_trace("ab"), "ab");
        assert_eq!(double_quote("a\"$b"), "\"a\\\"\\$b\"");
    }
}
