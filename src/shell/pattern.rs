//! Shell patterns (`*`, `?`, `[...]`, `[!...]`, `[[:alpha:]]`, `\x`) for
//! globs, `case`, `[[ == ]]` and `${v#pat}`. Matching simulates the pattern
//! as a small NFA, so no input makes it backtrack exponentially. Characters
//! are Unicode scalar values (bash in the C locale counts bytes; scripts
//! that slice non-ASCII text by position may differ).

/// One element of a compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Char(char),
    Any,
    Star,
    Class { negated: bool, items: Vec<ClassItem> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Named(String),
}

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern {
    tokens: Vec<Token>,
}

/// Whether `s` has an unescaped `*`, `?` or `[` (so it needs globbing).
pub(crate) fn has_glob_chars(s: &str) -> bool {
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if matches!(c, '*' | '?' | '[') {
            return true;
        }
    }
    false
}

/// `s` with every pattern character escaped: matches only itself.
pub(crate) fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// A pattern with escapes removed, when it has no wildcard at all.
pub(crate) fn literal(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().unwrap_or('\\')),
            '*' | '?' | '[' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

impl Pattern {
    /// Compiles a pattern; a `[` without its `]` is a literal `[`.
    pub(crate) fn new(pattern: &str) -> Self {
        let chars: Vec<char> = pattern.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '\\' => {
                    i += 1;
                    tokens.push(Token::Char(chars.get(i).copied().unwrap_or('\\')));
                }
                '*' => {
                    if tokens.last() != Some(&Token::Star) {
                        tokens.push(Token::Star);
                    }
                }
                '?' => tokens.push(Token::Any),
                '[' => match parse_class(&chars, i) {
                    Some((token, next)) => {
                        tokens.push(token);
                        i = next;
                        continue;
                    }
                    None => tokens.push(Token::Char('[')),
                },
                c => tokens.push(Token::Char(c)),
            }
            i += 1;
        }
        Pattern { tokens }
    }

    /// Whether the pattern starts with `*`: then a match starting further
    /// on is also a match starting here (the star takes the difference).
    pub(crate) fn starts_with_star(&self) -> bool {
        self.tokens.first() == Some(&Token::Star)
    }

    /// Whether the pattern starts with a literal `.` (globs then match dotfiles).
    pub(crate) fn starts_with_dot(&self) -> bool {
        self.tokens.first() == Some(&Token::Char('.'))
    }

    /// Whether the whole of `text` matches.
    pub(crate) fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        self.match_ends(&chars, 0, |end| end == chars.len())
    }

    /// Calls `found(end)` for each `end` (ascending) such that
    /// `text[start..end]` matches, until it returns true; returns whether it did.
    pub(crate) fn match_ends(&self, text: &[char], start: usize, mut found: impl FnMut(usize) -> bool) -> bool {
        let n = self.tokens.len();
        let mut states = vec![false; n + 1];
        let mut next = vec![false; n + 1];
        self.add(&mut states, 0);
        let mut pos = start;
        loop {
            if states[n] && found(pos) {
                return true;
            }
            if pos >= text.len() {
                return false;
            }
            let c = text[pos];
            next.iter_mut().for_each(|s| *s = false);
            let mut any = false;
            for (s, token) in self.tokens.iter().enumerate() {
                if !states[s] {
                    continue;
                }
                match token {
                    Token::Star => {
                        self.add(&mut next, s);
                        any = true;
                    }
                    token if token_matches(token, c) => {
                        self.add(&mut next, s + 1);
                        any = true;
                    }
                    _ => {}
                }
            }
            if !any {
                return false;
            }
            std::mem::swap(&mut states, &mut next);
            pos += 1;
        }
    }

    /// Adds state `s` and what a `*` lets it skip to.
    fn add(&self, states: &mut [bool], mut s: usize) {
        loop {
            states[s] = true;
            if s < self.tokens.len() && self.tokens[s] == Token::Star {
                s += 1;
            } else {
                return;
            }
        }
    }
}

fn token_matches(token: &Token, c: char) -> bool {
    match token {
        Token::Char(x) => *x == c,
        Token::Any => true,
        Token::Star => true,
        Token::Class { negated, items } => {
            let hit = items.iter().any(|item| match item {
                ClassItem::Char(x) => *x == c,
                ClassItem::Range(a, b) => *a <= c && c <= *b,
                ClassItem::Named(name) => class_matches(name, c),
            });
            hit != *negated
        }
    }
}

fn class_matches(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_ascii_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_ascii_alphanumeric(),
        "upper" => c.is_ascii_uppercase(),
        "lower" => c.is_ascii_lowercase(),
        "space" => matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "xdigit" => c.is_ascii_hexdigit(),
        "cntrl" => c.is_ascii_control(),
        "print" => (' '..='~').contains(&c),
        "graph" => ('!'..='~').contains(&c),
        "word" => c.is_ascii_alphanumeric() || c == '_',
        _ => false,
    }
}

/// Parses `[...]` starting at `chars[start] == '['`; returns the token and
/// the index after `]`, or `None` when there is no closing `]`.
fn parse_class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!') | Some('^'));
    if negated {
        i += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Token::Class { negated, items }, i + 1));
        }
        first = false;
        if c == '[' && chars.get(i + 1) == Some(&':') {
            // [:name:]
            let rest = &chars[i + 2..];
            if let Some(end) = rest.windows(2).position(|w| w == [':', ']']) {
                items.push(ClassItem::Named(rest[..end].iter().collect()));
                i += 2 + end + 2;
                continue;
            }
        }
        let c = if c == '\\' {
            i += 1;
            *chars.get(i)?
        } else {
            c
        };
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|&e| e != ']') {
            let mut end = chars[i + 2];
            let mut skip = 3;
            if end == '\\' {
                end = *chars.get(i + 3)?;
                skip = 4;
            }
            items.push(ClassItem::Range(c, end));
            i += skip;
        } else {
            items.push(ClassItem::Char(c));
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, t: &str) -> bool {
        Pattern::new(p).matches(t)
    }

    #[test]
    fn basics() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "a.txt.bak"));
        assert!(m("a?c", "abc"));
        assert!(m("[abc]x", "bx"));
        assert!(!m("[!abc]x", "bx"));
        assert!(m("[a-c]", "b"));
        assert!(m("[[:digit:]]*", "1abc"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("[", "["));
        assert!(m("[]]", "]"));
        assert!(m("*", ""));
        assert!(m("a*b*c", "aXXbYYc"));
        assert!(!m("a*b*c", "aXXbYY"));
    }

    #[test]
    fn helpers() {
        assert!(has_glob_chars("a*"));
        assert!(!has_glob_chars("a\\*"));
        assert_eq!(literal("a\\*b"), Some("a*b".to_string()));
        assert_eq!(literal("a*"), None);
        let mut s = String::new();
        escape("a*[", &mut s);
        assert_eq!(s, "a\\*\\[");
    }

    #[test]
    fn no_blowup() {
        let text = "a".repeat(2000);
        assert!(!m("*a*a*a*a*a*a*a*a*b", &text));
    }
}
