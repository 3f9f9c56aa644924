//! Shell patterns (`*`, `?`, `[...]`, `[!...]`, `[[:alpha:]]`, `\x`, and
//! with `extglob` `?(a|b)`, `*(…)`, `+(…)`, `@(…)`, `!(…)`, nested) for
//! globs, `case`, `[[ == ]]` and `${v#pat}`/`${v/pat/r}`.
//!
//! Matching never backtracks, so no pattern makes it exponential. A pattern
//! without extended groups runs as a small NFA (time O(text × pattern)). One
//! with groups runs as a set simulation: each element of the pattern maps the
//! set of positions it may start from to the set it may end at, `*(…)` and
//! `+(…)` as a closure that visits each position once, `!(…)` as the
//! complement of its group's ends from each start. That is polynomial
//! (O(text² × pattern) for the worst `!(…)` and repetitions), not bounded by
//! a constant, so those matches take a `check` (the run's clock and
//! cancellation) and call it every few thousand steps: a hostile pattern
//! ends with the time limit, named, instead of running on.
//!
//! Options ([`Syntax`]): `extglob` reads the groups (off, `@(` is two
//! characters); `nocase` compares ASCII letters without case (`nocaseglob`,
//! `nocasematch`; named classes like `[[:upper:]]` are not folded, as in
//! bash); `period` is pathname expansion's rule that a leading `.` is
//! matched only by a literal `.` (not by `*`, `?`, `[…]` or `!(…)`).
//!
//! Characters are Unicode scalar values (bash in the C locale counts bytes;
//! scripts that slice non-ASCII text by position may differ).

use super::LimitHit;

/// Deepest nesting of extended groups read as groups; deeper openers are
/// literal characters (the matcher recurses once per level).
const MAX_GROUP_DEPTH: usize = 32;

/// Steps between two calls of the matcher's `check`.
const CHECK_EVERY: u64 = 1 << 14;

/// What a pattern's text means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Syntax {
    /// `shopt -s extglob` (and always in `[[ ]]`): extended groups.
    pub(crate) extglob: bool,
    /// ASCII letters match without regard to case.
    pub(crate) nocase: bool,
    /// A leading `.` must be matched by a literal `.` (pathname expansion
    /// without `dotglob`).
    pub(crate) period: bool,
}

/// The caller's clock: `Err` ends a long match with that limit.
pub(crate) type Check<'a> = &'a dyn Fn() -> Result<(), LimitHit>;

/// What an extended group repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repeat {
    /// `?(…)`: zero or one.
    ZeroOrOne,
    /// `*(…)`: zero or more.
    ZeroOrMore,
    /// `+(…)`: one or more.
    OneOrMore,
    /// `@(…)`: exactly one.
    One,
    /// `!(…)`: anything but one.
    Not,
}

/// One element of a compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Char(char),
    Any,
    Star,
    Class { negated: bool, items: Vec<ClassItem> },
    Group { repeat: Repeat, alternatives: Vec<Vec<Token>> },
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
    syntax: Syntax,
    /// Whether an extended group is in it (then the set simulation runs).
    groups: bool,
}

/// Whether `s` has an unescaped `*`, `?`, `[`, or with `extglob` an
/// extended group opener (`@(`, `!(`, `+(`).
pub(crate) fn has_pattern_chars(s: &str, extglob: bool) -> bool {
    let mut escaped = false;
    let mut previous = ' ';
    for c in s.chars() {
        if escaped {
            escaped = false;
            previous = ' ';
            continue;
        } else if c == '\\' {
            escaped = true;
        } else if matches!(c, '*' | '?' | '[') || (extglob && c == '(' && matches!(previous, '@' | '!' | '+')) {
            return true;
        }
        previous = c;
    }
    false
}

/// `s` with every pattern character escaped: matches only itself.
pub(crate) fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\' | '(' | ')' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// A pattern with escapes removed, when it has no wildcard at all (with
/// `extglob`, a group opener is one).
pub(crate) fn literal_with(s: &str, extglob: bool) -> Option<String> {
    if extglob && has_pattern_chars(s, true) {
        return None;
    }
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

/// `s` split at each `/` that is outside an extended group (`@(a/b|c)/d`
/// is two parts), as pathname expansion takes a pattern apart.
pub(crate) fn split_path(s: &str, extglob: bool) -> Vec<&str> {
    if !extglob || !s.contains('(') {
        return s.split('/').collect();
    }
    let mut parts = Vec::new();
    let mut level = 0usize;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '(' => level += 1,
            ')' => level = level.saturating_sub(1),
            '/' if level == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

impl Pattern {
    /// Compiles a plain pattern (no groups, case-sensitive); a `[` without
    /// its `]` is a literal `[`.
    pub(crate) fn new(pattern: &str) -> Self {
        Self::with(pattern, Syntax::default())
    }

    /// Compiles a pattern under `syntax`. A group opener without its `)`
    /// is literal, as bash reads it.
    pub(crate) fn with(pattern: &str, syntax: Syntax) -> Self {
        let chars: Vec<char> = pattern.chars().collect();
        let close = if syntax.extglob { closing_parens(&chars) } else { Vec::new() };
        let tokens = parse_seq(&chars, 0, chars.len(), &close, syntax.extglob, 0);
        let groups = tokens.iter().any(|t| matches!(t, Token::Group { .. }));
        Pattern { tokens, syntax, groups }
    }

    /// Whether the pattern starts with `*`: then a match starting further
    /// on is also a match starting here (the star takes the difference).
    pub(crate) fn starts_with_star(&self) -> bool {
        self.tokens.first() == Some(&Token::Star)
    }

    /// Whether the whole of `text` matches. For patterns with extended
    /// groups use [`matches_checked`](Self::matches_checked): this one has
    /// no clock.
    pub(crate) fn matches(&self, text: &str) -> bool {
        self.matches_checked(text, &|| Ok(())).unwrap_or(false)
    }

    /// Whether the whole of `text` matches; `check` may end a long match.
    pub(crate) fn matches_checked(&self, text: &str, check: Check<'_>) -> Result<bool, LimitHit> {
        let chars: Vec<char> = text.chars().collect();
        self.match_ends_checked(&chars, 0, check, |end| end == chars.len())
    }

    /// Calls `found(end)` for each `end` (ascending) such that
    /// `text[start..end]` matches, until it returns true; returns whether
    /// it did. `check` may end a long match.
    pub(crate) fn match_ends_checked(
        &self,
        text: &[char],
        start: usize,
        check: Check<'_>,
        mut found: impl FnMut(usize) -> bool,
    ) -> Result<bool, LimitHit> {
        if start > text.len() {
            return Ok(false);
        }
        if !self.groups {
            return Ok(self.nfa_ends(text, start, found));
        }
        let mut sets = Sets { text, syntax: self.syntax, work: 0, next_check: CHECK_EVERY, check };
        let ends = sets.seq(&self.tokens, vec![start])?;
        Ok(ends.into_iter().any(&mut found))
    }

    /// The NFA of a pattern without groups.
    fn nfa_ends(&self, text: &[char], start: usize, mut found: impl FnMut(usize) -> bool) -> bool {
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
            let blocked = blocked(self.syntax, text, pos);
            next.iter_mut().for_each(|s| *s = false);
            let mut any = false;
            for (s, token) in self.tokens.iter().enumerate() {
                if !states[s] {
                    continue;
                }
                match token {
                    Token::Star if !blocked => {
                        self.add(&mut next, s);
                        any = true;
                    }
                    token if token_matches(token, c, self.syntax.nocase, blocked) => {
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

/// Whether the character at `pos` is a leading `.` that only a literal
/// `.` may match.
fn blocked(syntax: Syntax, text: &[char], pos: usize) -> bool {
    syntax.period && pos == 0 && text.first() == Some(&'.')
}

/// The set simulation of a pattern with groups: sets of positions in the
/// text, sorted and without repeats.
struct Sets<'a> {
    text: &'a [char],
    syntax: Syntax,
    work: u64,
    next_check: u64,
    check: Check<'a>,
}

impl Sets<'_> {
    /// Counts `units` of work; asks the clock every [`CHECK_EVERY`].
    fn tick(&mut self, units: usize) -> Result<(), LimitHit> {
        self.work = self.work.saturating_add(units as u64 + 1);
        if self.work >= self.next_check {
            self.next_check = self.work.saturating_add(CHECK_EVERY);
            (self.check)()?;
        }
        Ok(())
    }

    /// Where `tokens` may end, starting from each position of `from`.
    fn seq(&mut self, tokens: &[Token], from: Vec<usize>) -> Result<Vec<usize>, LimitHit> {
        let mut set = from;
        for token in tokens {
            if set.is_empty() {
                break;
            }
            self.tick(set.len())?;
            set = match token {
                Token::Star => self.star(&set),
                Token::Group { repeat, alternatives } => self.group(*repeat, alternatives, set)?,
                token => {
                    let (text, syntax) = (self.text, self.syntax);
                    set.into_iter()
                        .filter(|&p| {
                            p < text.len() && token_matches(token, text[p], syntax.nocase, blocked(syntax, text, p))
                        })
                        .map(|p| p + 1)
                        .collect()
                }
            };
        }
        Ok(set)
    }

    fn star(&mut self, set: &[usize]) -> Vec<usize> {
        let n = self.text.len();
        let mut out = Vec::new();
        let mut from = set[0];
        if blocked(self.syntax, self.text, from) {
            out.push(from);
            match set.get(1) {
                Some(&next) => from = next,
                None => return out,
            }
        }
        out.extend(from..=n);
        out
    }

    /// The union of the alternatives' ends.
    fn alternatives(&mut self, alternatives: &[Vec<Token>], from: &[usize]) -> Result<Vec<usize>, LimitHit> {
        let mut out: Vec<usize> = Vec::new();
        for alternative in alternatives {
            let ends = self.seq(alternative, from.to_vec())?;
            self.tick(ends.len() + out.len())?;
            out = merge(&out, &ends);
        }
        Ok(out)
    }

    fn group(&mut self, repeat: Repeat, alternatives: &[Vec<Token>], set: Vec<usize>) -> Result<Vec<usize>, LimitHit> {
        let n = self.text.len();
        match repeat {
            Repeat::One => self.alternatives(alternatives, &set),
            Repeat::ZeroOrOne => {
                let ends = self.alternatives(alternatives, &set)?;
                Ok(merge(&set, &ends))
            }
            Repeat::ZeroOrMore | Repeat::OneOrMore => {
                // Each position enters the frontier once.
                let mut seen = vec![false; n + 1];
                let mut all = Vec::new();
                let mut frontier =
                    if repeat == Repeat::ZeroOrMore { set } else { self.alternatives(alternatives, &set)? };
                loop {
                    frontier.retain(|&p| !std::mem::replace(&mut seen[p], true));
                    if frontier.is_empty() {
                        break;
                    }
                    all.extend_from_slice(&frontier);
                    frontier = self.alternatives(alternatives, &frontier)?;
                }
                all.sort_unstable();
                Ok(all)
            }
            Repeat::Not => {
                let mut hit = vec![false; n + 1];
                for &start in &set {
                    // bash: `!(…)` never matches a leading dot it must not.
                    if blocked(self.syntax, self.text, start) {
                        continue;
                    }
                    let ends = self.alternatives(alternatives, &[start])?;
                    let mut k = 0;
                    for (end, slot) in hit.iter_mut().enumerate().skip(start) {
                        while k < ends.len() && ends[k] < end {
                            k += 1;
                        }
                        if ends.get(k) != Some(&end) {
                            *slot = true;
                        }
                    }
                    self.tick(n - start)?;
                }
                Ok((0..=n).filter(|&end| hit[end]).collect())
            }
        }
    }
}

/// The sorted union of two sorted sets.
fn merge(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(_), Some(&y)) | (None, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => break,
        };
        out.push(next);
    }
    out
}

/// For each `(` of the pattern, the index of its `)` (`usize::MAX` when it
/// has none); brackets and escapes are skipped as the matcher reads them.
fn closing_parens(chars: &[char]) -> Vec<usize> {
    let mut close = vec![usize::MAX; chars.len()];
    let mut open = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => {
                if let Some((_, next)) = parse_class(chars, i) {
                    i = next;
                    continue;
                }
            }
            '(' => open.push(i),
            ')' => {
                if let Some(at) = open.pop() {
                    close[at] = i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    close
}

/// Parses `chars[start..end]` into tokens.
fn parse_seq(chars: &[char], start: usize, end: usize, close: &[usize], extglob: bool, depth: usize) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = start;
    while i < end {
        let c = chars[i];
        if extglob
            && matches!(c, '?' | '*' | '+' | '@' | '!')
            && chars.get(i + 1) == Some(&'(')
            && close.get(i + 1).is_some_and(|&at| at < end)
            && depth < MAX_GROUP_DEPTH
        {
            let group_end = close[i + 1];
            let repeat = match c {
                '?' => Repeat::ZeroOrOne,
                '*' => Repeat::ZeroOrMore,
                '+' => Repeat::OneOrMore,
                '@' => Repeat::One,
                _ => Repeat::Not,
            };
            let alternatives = split_alternatives(chars, i + 2, group_end, close)
                .into_iter()
                .map(|(a, b)| parse_seq(chars, a, b, close, extglob, depth + 1))
                .collect();
            tokens.push(Token::Group { repeat, alternatives });
            i = group_end + 1;
            continue;
        }
        match c {
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
            '[' => match parse_class(chars, i) {
                Some((token, next)) if next <= end => {
                    tokens.push(token);
                    i = next;
                    continue;
                }
                _ => tokens.push(Token::Char('[')),
            },
            c => tokens.push(Token::Char(c)),
        }
        i += 1;
    }
    tokens
}

/// The ranges of a group's alternatives: split at each `|` outside nested
/// parentheses, brackets and escapes.
fn split_alternatives(chars: &[char], start: usize, end: usize, close: &[usize]) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut from = start;
    let mut i = start;
    while i < end {
        match chars[i] {
            '\\' => i += 1,
            '[' => {
                if let Some((_, next)) = parse_class(chars, i) {
                    if next <= end {
                        i = next;
                        continue;
                    }
                }
            }
            '(' if close[i] < end => {
                i = close[i];
            }
            '|' => {
                parts.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push((from, end));
    parts
}

fn token_matches(token: &Token, c: char, nocase: bool, blocked: bool) -> bool {
    if blocked {
        return *token == Token::Char('.');
    }
    match token {
        Token::Char(x) => *x == c || (nocase && x.eq_ignore_ascii_case(&c)),
        Token::Any => true,
        Token::Star => true,
        Token::Class { negated, items } => {
            let hit = |c: char| {
                items.iter().any(|item| match item {
                    ClassItem::Char(x) => *x == c,
                    ClassItem::Range(a, b) => *a <= c && c <= *b,
                    ClassItem::Named(name) => class_matches(name, c),
                })
            };
            let found = hit(c)
                || (nocase && c.is_ascii_alphabetic() && {
                    let other = if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
                    items.iter().any(|item| match item {
                        ClassItem::Char(x) => *x == other,
                        ClassItem::Range(a, b) => *a <= other && other <= *b,
                        ClassItem::Named(_) => false,
                    })
                });
            found != *negated
        }
        Token::Group { .. } => false,
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

    fn x(p: &str, t: &str) -> bool {
        Pattern::with(p, Syntax { extglob: true, ..Syntax::default() }).matches(t)
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
        // Without extglob a group is its characters.
        assert!(m("@(a)", "@(a)"));
        assert!(!m("@(a)", "a"));
    }

    #[test]
    fn helpers() {
        assert!(has_pattern_chars("a*", false));
        assert!(!has_pattern_chars("a\\*", false));
        assert!(!has_pattern_chars("@(a)", false));
        assert!(has_pattern_chars("@(a)", true));
        assert!(!has_pattern_chars("\\@(a)", true));
        assert_eq!(literal_with("a\\*b", false), Some("a*b".to_string()));
        assert_eq!(literal_with("a*", false), None);
        assert_eq!(literal_with("+(a)", true), None);
        assert_eq!(literal_with("+(a)", false), Some("+(a)".to_string()));
        let mut s = String::new();
        escape("a*[(|)", &mut s);
        assert_eq!(s, "a\\*\\[\\(\\|\\)");
        assert_eq!(split_path("@(a/b|c)/d", true), ["@(a/b|c)", "d"]);
        assert_eq!(split_path("@(a/b|c)/d", false), ["@(a", "b|c)", "d"]);
    }

    #[test]
    fn extended_groups() {
        assert!(x("@(a|b).h", "a.h"));
        assert!(x("@(a|b).h", "b.h"));
        assert!(!x("@(a|b).h", "c.h"));
        assert!(x("?(a)b", "b") && x("?(a)b", "ab") && !x("?(a)b", "aab"));
        assert!(x("*(ab)c", "c") && x("*(ab)c", "ababc") && !x("*(ab)c", "abac"));
        assert!(!x("+(ab)c", "c") && x("+(ab)c", "abc"));
        assert!(x("!(*.h)", "a.c") && !x("!(*.h)", "a.h"));
        assert!(x("!(a)", "") && x("!(a)", "aa") && !x("!(a)", "a"));
        assert!(x("*!(.h)", "a.h"), "the star takes the name, !(.h) the empty rest");
        assert!(x("a!(.h)", "a.c") && !x("a!(.h)", "a.h"));
        // Nested, with brackets and escapes.
        assert!(x("+(@(a|b)[0-9])", "a1b2a3"));
        assert!(!x("+(@(a|b)[0-9])", "a1c2"));
        assert!(x("@(a\\|b)", "a|b") && !x("@(a\\|b)", "a"));
        assert!(x("@([|]|x)", "|"));
        assert!(x("!(!(a))", "a") && !x("!(!(a))", "b"));
        assert!(x("@()a", "a"));
        // An opener without its `)` is literal.
        assert!(x("@(a", "@(a"));
        assert!(x("*(a", "xx(a"));
    }

    #[test]
    fn case_and_leading_dots() {
        let nocase = Syntax { nocase: true, ..Syntax::default() };
        assert!(Pattern::with("a*.H", nocase).matches("A.h"));
        assert!(Pattern::with("[a-c]x", nocase).matches("BX"));
        assert!(!Pattern::with("[[:lower:]]", nocase).matches("A"));
        let glob = Syntax { period: true, extglob: true, ..Syntax::default() };
        let g = |p: &str, t: &str| Pattern::with(p, glob).matches(t);
        assert!(!g("*", ".env") && g(".*", ".env") && !g("?env", ".env") && !g("[.]env", ".env"));
        assert!(g("*(.)*", ".env") && g("?(.)e*", ".env") && !g("@(*)", ".env"));
        assert!(!g("!(x)", ".env") && !g("!(x).env", ".env") && g(".!(x)", ".env"));
        assert!(g("*", "a.b"));
    }

    #[test]
    fn no_blowup() {
        let text = "a".repeat(2000);
        assert!(!m("*a*a*a*a*a*a*a*a*b", &text));
        assert!(!x("+(+(a))b", &text));
        assert!(!x(&format!("{}b", "*(a|aa)".repeat(20)), &text));
        assert!(x(&"*(a|aa)".repeat(20), &text));
        assert!(!x("+(!(b))b", &"a".repeat(200)));
    }

    /// A deep nesting stops being read as groups past the limit instead of
    /// recursing on.
    #[test]
    fn deep_groups_are_literal_past_the_limit() {
        let deep = format!("{}a{}", "@(".repeat(1000), ")".repeat(1000));
        assert!(!x(&deep, "a"));
        let shallow = format!("{}a{}", "@(".repeat(10), ")".repeat(10));
        assert!(x(&shallow, "a"));
    }

    #[test]
    fn the_clock_ends_a_long_match() {
        let text: Vec<char> = "a".repeat(3000).chars().collect();
        let pattern = Pattern::with("*(!(*(!(b))))b", Syntax { extglob: true, ..Syntax::default() });
        let calls = std::cell::Cell::new(0);
        let result = pattern.match_ends_checked(
            &text,
            0,
            &|| {
                calls.set(calls.get() + 1);
                if calls.get() > 3 {
                    Err(LimitHit::WallTime)
                } else {
                    Ok(())
                }
            },
            |_| true,
        );
        assert_eq!(result, Err(LimitHit::WallTime));
    }
}
