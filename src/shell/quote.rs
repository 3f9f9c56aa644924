//! Shell quoting: a value as bash writes it back so that it reads as the
//! same word (`declare -p`, `${v@Q}`, `trap -p`, `set -x` traces).

/// Whether bash writes `s` as `$'…'` (it holds a control character).
fn needs_ansi_c(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_control())
}

/// `$'text'`, bash's form for a value holding control characters
/// (`declare -p`, `${v@Q}`, `set`, `set -x`): `\n`, `\t`, `\E`… by name,
/// other control bytes in octal, `\\` and `\'` escaped.
pub(crate) fn ansi_c_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 3);
    out.push_str("$'");
    for c in s.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x1b' => out.push_str("\\E"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `"text"`, with `" \ $ `` ` escaped (`declare -p`); `$'…'` when it
/// holds a control character.
pub(crate) fn double_quote(s: &str) -> String {
    if needs_ansi_c(s) {
        return ansi_c_quote(s);
    }
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

/// `'text'`, with embedded quotes as `'\''` (`trap -p`).
pub(crate) fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// [`single_quote`], or `$'…'` for a value with a control character
/// (`${v@Q}`).
pub(crate) fn quote_value(s: &str) -> String {
    if needs_ansi_c(s) {
        ansi_c_quote(s)
    } else {
        single_quote(s)
    }
}

/// `text` as it is when it needs no quotes, else [`quote_value`]d.
pub(crate) fn single_quote_if_needed(s: &str) -> String {
    if needs_ansi_c(s) {
        return ansi_c_quote(s);
    }
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
        // bash: x=$(printf 'a\tb\001c"d\\e'); declare -p x
        assert_eq!(double_quote("a\tb\u{1}c\"d\\e'\n"), "$'a\\tb\\001c\"d\\\\e\\'\\n'");
    }
}
