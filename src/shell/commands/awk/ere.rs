//! awk's extended regular expressions: `commands/regex_syntax.rs` (the one
//! translator, shared with grep, sed, expr and `[[ =~ ]]`) read with awk's
//! options ([`Options::AWK`]), compiled over bytes with Unicode off
//! (C-locale semantics: `.` is one byte and matches a newline too).
//!
//! awk's departures from GNU's ERE are options there: inside bracket
//! expressions a backslash escapes the next character, as in gawk (`[\]]`,
//! `[\/]`); `{n,m}` is an interval when it is a well-formed one of at most
//! three digits and literal braces otherwise; a leading `*`, `+` or `?` is
//! literal; `\b` is a backspace and `\y` the word boundary; `\ooo` is an
//! octal byte. gawk's `\B \< \> \w \W \s \S` are supported; other escaped
//! letters stand for themselves (`\d` is `d`), as in gawk.

use regex::bytes::{Regex, RegexBuilder};

use super::super::regex_syntax::{self, Options};

/// Compiles an awk ERE.
pub fn compile(pattern: &[u8]) -> Result<Regex, String> {
    let translated = translate(pattern)?;
    RegexBuilder::new(&translated).size_limit(1 << 23).build().map_err(|e| {
        format!("regular expression /{}/: {}", String::from_utf8_lossy(pattern), first_line(&e.to_string()))
    })
}

fn first_line(s: &str) -> String {
    s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("invalid").trim().to_string()
}

/// A regex matching `bytes` literally.
pub fn literal(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| regex_syntax::literal(b)).collect()
}

/// An awk ERE in the regex crate's syntax.
pub fn translate(pattern: &[u8]) -> Result<String, String> {
    regex_syntax::translate_bytes(pattern, Options::AWK)
        .map_err(|e| format!("regular expression /{}/: {e}", String::from_utf8_lossy(pattern)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::commands::regex_syntax::Dialect;

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

    #[test]
    fn awk_departures() {
        assert!(m("^\\101\\x$", "Ax"));
        assert!(m("^[\\101-\\103]+$", "ABC"));
        assert!(m("^a\\bc$", "a\x08c"));
        assert!(m("\\yword\\y", "a word."));
        assert!(!m("\\yor\\y", "word"));
        assert!(m("^a{,2}$", "a{,2}"));
        assert!(m("^a{1000}$", "a{1000}"));
        assert!(m("^a{2,}$", "aaa"));
        assert!(m("^*a$", "*a"));
        assert!(m("(|?)", "?"));
        assert!(m("a\\", "a\\"));
        assert!(m("^[\\n]$", "\n"));
        assert!(m("a)", "a)"));
        assert!(m("^a**$", "aa"));
        assert!(m("^[\\/]$", "/"));
    }

    /// Where awk's dialect and GNU's ERE agree, the translator writes the
    /// same regex for both callers.
    #[test]
    fn same_regex_as_grep_where_the_dialects_agree() {
        let gnu = Dialect { extended: true, lines: false, sed_escapes: false };
        for pattern in [
            "a.b",
            "(ab)+c?",
            "^x|y$",
            "[[:alpha:]_][[:alnum:]_]*",
            "[^]a-c]",
            "a{2,3}b{4}c{5,}",
            "\\.\\$\\(",
            "\\<w\\>\\B",
            "\\w+\\W\\s\\S",
            "a{",
            "x)",
            "((a|b)*|c)d",
            "[.][*][+]",
            "\u{e9}t\u{e9}",
        ] {
            let awk = regex_syntax::translate_bytes(pattern.as_bytes(), Options::AWK).unwrap();
            let grep = regex_syntax::translate(pattern, gnu).unwrap();
            assert_eq!(awk, grep, "{pattern}");
        }
        // And where they do not, the options say so.
        for pattern in ["\\b", "\\y", "*a", "a{,2}", "[\\]]", "\\101", "a{1000}"] {
            let awk = regex_syntax::translate_bytes(pattern.as_bytes(), Options::AWK);
            let grep = regex_syntax::translate(pattern, gnu);
            assert_ne!(awk, grep, "{pattern}");
        }
    }
}
