//! POSIX regular expressions turned into the `regex` crate's syntax: the
//! one translator for grep, sed, expr, `[[ =~ ]]` (GNU's BRE and ERE
//! dialects, C locale) and awk (its ERE dialect, through `awk/ere.rs`).
//!
//! The output is self-contained: it starts with `(?-u)` and must be compiled
//! with `regex::bytes` (bytes ≥ 0x80 are written `\xHH` and match one byte,
//! as in the C locale). Capture groups keep POSIX numbering.
//!
//! The dialects differ only where [`Options`] says: awk's escapes (`\b` is
//! a backspace, `\y` the word boundary, `\101` octal, escapes inside
//! brackets, a trailing `\` literal), awk's intervals (`{m}`, `{m,}`,
//! `{m,n}` of at most three digits; `{,n}` is literal) and awk's leading
//! `*`/`+`/`?` (literal, where GNU's ERE ignores them). Everything else,
//! brackets and classes, groups, alternation, anchors, `\w \W \s \S \< \>
//! \B`, an unmatched `)` (literal), is read one way for all.
//!
//! Known differences from GNU (documented for docs/SHELL.md):
//! - the `regex` crate picks the leftmost-*first* match, POSIX the
//!   leftmost-*longest*: `echo ab | grep -o 'a\|ab'` prints `a` here, `ab`
//!   in GNU. Only alternations whose branches are prefixes of each other
//!   differ; repetitions are greedy in both.
//! - back-references inside a pattern (`\(a\)\1`) are refused with an error
//!   (the `regex` crate has none); `\1` in a sed replacement works.

/// How a pattern is read and what its dot and negated classes may match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dialect {
    /// ERE (`grep -E`, `sed -E`, awk) rather than BRE.
    pub extended: bool,
    /// grep's mode: the pattern is searched over a whole buffer but must
    /// match inside one line, so `.`, `[^x]`, `\W`, `\s` never match a
    /// newline and `^`/`$` match at line boundaries.
    pub lines: bool,
    /// sed's escapes: `\n`, `\t` and friends are control characters, in and
    /// out of brackets.
    pub sed_escapes: bool,
}

/// Where a dialect departs from GNU's BRE/ERE: a [`Dialect`] with awk's
/// rules switched on or off one by one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    pub dialect: Dialect,
    /// awk's escapes: `\n \t \r \f \v \a \b` (backspace) `\/ \"` and octal
    /// `\ooo` are bytes, in and out of brackets (where a backslash escapes
    /// the next character, `[\]]`); `\y` is the word boundary; a trailing
    /// backslash is itself.
    pub awk_escapes: bool,
    /// awk's intervals: `{` opens one only as `{m}`, `{m,}` or `{m,n}` of at
    /// most three digits each; any other `{` is literal (`{,n}` too).
    pub awk_intervals: bool,
    /// A `*`, `+` or `?` with nothing to repeat (at the start, after `(`,
    /// `|`, `^`) is literal, as in awk; GNU's ERE ignores it.
    pub leading_repetition_literal: bool,
}

impl Options {
    /// awk's extended regular expressions (gawk's reading, C locale).
    pub(crate) const AWK: Options = Options {
        dialect: Dialect { extended: true, lines: false, sed_escapes: false },
        awk_escapes: true,
        awk_intervals: true,
        leading_repetition_literal: true,
    };
}

impl From<Dialect> for Options {
    fn from(dialect: Dialect) -> Options {
        Options { dialect, awk_escapes: false, awk_intervals: false, leading_repetition_literal: false }
    }
}

/// Translates a POSIX ERE (GNU flavour) into `regex` syntax; `.` and
/// negated classes match a newline, `^`/`$` anchor the whole text.
pub(crate) fn ere_to_regex(pattern: &str) -> Result<String, String> {
    translate(pattern, Dialect { extended: true, lines: false, sed_escapes: false })
}

/// Largest repetition count POSIX allows (RE_DUP_MAX).
const DUP_MAX: u32 = 32767;

struct Builder {
    out: String,
    /// Where the last quantifiable atom starts in `out`.
    atom: Option<usize>,
    /// Whether the last thing written was a quantifier (a second one needs a group).
    quantified: bool,
    /// Output positions of the open groups.
    groups: Vec<usize>,
    /// Whether we are at the start of an expression (start, after `(` or `|`).
    at_start: bool,
}

impl Builder {
    fn atom(&mut self, text: &str) {
        self.atom = Some(self.out.len());
        self.out.push_str(text);
        self.quantified = false;
        self.at_start = false;
    }

    fn byte(&mut self, byte: u8) {
        let text = literal(byte);
        self.atom(&text);
    }

    /// A zero-width assertion: not quantifiable.
    fn assertion(&mut self, text: &str) {
        self.out.push_str(text);
        self.atom = None;
        self.quantified = false;
        self.at_start = false;
    }

    fn quantifier(&mut self, text: &str) {
        let Some(start) = self.atom else { return };
        if self.quantified {
            // `a**` or `a*\{2\}`: the regex crate refuses a repeated repetition.
            self.out.insert_str(start, "(?:");
            self.out.push(')');
        }
        self.out.push_str(text);
        self.quantified = true;
    }
}

pub(crate) fn literal(byte: u8) -> String {
    if byte.is_ascii_alphanumeric() || byte == b' ' || byte == b'_' {
        (byte as char).to_string()
    } else {
        format!("\\x{byte:02X}")
    }
}

/// Translates `pattern` read in `dialect`.
pub(crate) fn translate(pattern: &str, dialect: Dialect) -> Result<String, String> {
    translate_bytes(pattern.as_bytes(), dialect.into())
}

/// Translates the bytes `p` read as `options` say.
pub(crate) fn translate_bytes(p: &[u8], options: Options) -> Result<String, String> {
    let dialect = options.dialect;
    let ere = dialect.extended;
    let awk = options.awk_escapes;
    let mut b =
        Builder { out: String::from("(?-u)"), atom: None, quantified: false, groups: Vec::new(), at_start: true };
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        i += 1;
        match c {
            b'\\' => {
                let Some(&e) = p.get(i) else {
                    if awk {
                        b.byte(b'\\');
                        break;
                    }
                    return Err("Trailing backslash".into());
                };
                if awk {
                    if let Some((byte, next)) = octal(p, i) {
                        b.byte(byte);
                        i = next;
                        continue;
                    }
                }
                i += 1;
                match e {
                    b'(' if !ere => open_group(&mut b),
                    b')' if !ere => close_group(&mut b)?,
                    b'|' if !ere => alternation(&mut b),
                    b'{' if !ere => {
                        if b.atom.is_none() {
                            if b.at_start {
                                return Err("Invalid preceding regular expression".into());
                            }
                            b.byte(b'{');
                            continue;
                        }
                        match interval(p, i, true)? {
                            Some((text, next)) => {
                                b.quantifier(&text);
                                i = next;
                            }
                            None => return Err("Unmatched \\{".into()),
                        }
                    }
                    b'}' if !ere => b.byte(b'}'),
                    b'+' | b'?' if !ere => {
                        if b.atom.is_none() {
                            b.byte(e);
                        } else {
                            b.quantifier(if e == b'+' { "+" } else { "?" });
                        }
                    }
                    b'1'..=b'9' if !awk => return Err("back-references are not supported".into()),
                    b'w' => b.atom("[0-9A-Za-z_]"),
                    b'W' => b.atom(if dialect.lines { "[^0-9A-Za-z_\\n]" } else { "[^0-9A-Za-z_]" }),
                    b's' => b.atom(if dialect.lines { "[\\t\\x0B\\x0C\\r ]" } else { "[\\t\\n\\x0B\\x0C\\r ]" }),
                    b'S' => b.atom("[^\\t\\n\\x0B\\x0C\\r ]"),
                    b'b' if awk => b.byte(0x08),
                    b'b' => b.assertion("\\b"),
                    b'y' if awk => b.assertion("\\b"),
                    b'B' => b.assertion("\\B"),
                    b'<' => b.assertion("\\b{start}"),
                    b'>' => b.assertion("\\b{end}"),
                    b'`' => b.assertion("\\A"),
                    b'\'' => b.assertion("\\z"),
                    _ if (dialect.sed_escapes || awk) && sed_escape(e).is_some() => {
                        b.byte(sed_escape(e).unwrap_or(e));
                    }
                    _ => b.byte(e),
                }
            }
            b'(' if ere => open_group(&mut b),
            b')' if ere => {
                if b.groups.is_empty() {
                    b.byte(b')');
                } else {
                    close_group(&mut b)?;
                }
            }
            b'|' if ere => alternation(&mut b),
            b'{' if ere => {
                let parsed = if options.awk_intervals { awk_interval(p, i)? } else { interval(p, i, false)? };
                match parsed {
                    Some((text, next)) if b.atom.is_some() => {
                        b.quantifier(&text);
                        i = next;
                    }
                    _ => b.byte(b'{'),
                }
            }
            b'*' | b'+' | b'?' if ere || c == b'*' => {
                if b.atom.is_some() {
                    b.quantifier(&(c as char).to_string());
                } else if !ere || options.leading_repetition_literal {
                    // BRE (and awk): a leading `*` is an ordinary character.
                    b.byte(c);
                }
                // ERE: GNU ignores a leading repetition (with a warning).
            }
            b'^' => {
                if ere || b.at_start {
                    b.assertion(if dialect.lines { "(?m:^)" } else { "^" });
                    // `^*` in a BRE: the star is literal; keep `at_start` for it.
                    b.at_start = !ere;
                } else {
                    b.byte(b'^');
                }
            }
            b'$' => {
                let at_end = i == p.len() || (!ere && (p[i..].starts_with(b"\\)") || p[i..].starts_with(b"\\|")));
                if ere || at_end {
                    b.assertion(if dialect.lines { "(?m:$)" } else { "$" });
                } else {
                    b.byte(b'$');
                }
            }
            b'.' => b.atom(if dialect.lines { "[^\\n]" } else { "(?s:.)" }),
            b'[' => {
                let (class, next) = bracket(p, i, options)?;
                b.atom(&class);
                i = next;
            }
            _ => b.byte(c),
        }
    }
    if !b.groups.is_empty() {
        return Err("Unmatched ( or \\(".into());
    }
    Ok(b.out)
}

fn open_group(b: &mut Builder) {
    b.groups.push(b.out.len());
    b.out.push('(');
    b.atom = None;
    b.quantified = false;
    b.at_start = true;
}

fn close_group(b: &mut Builder) -> Result<(), String> {
    let Some(start) = b.groups.pop() else { return Err("Unmatched ) or \\)".into()) };
    b.out.push(')');
    b.atom = Some(start);
    b.quantified = false;
    b.at_start = false;
    Ok(())
}

fn alternation(b: &mut Builder) {
    b.out.push('|');
    b.atom = None;
    b.quantified = false;
    b.at_start = true;
}

/// The control character a sed escape stands for (`\n`, `\t`…).
fn sed_escape(e: u8) -> Option<u8> {
    Some(match e {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'f' => 0x0C,
        b'v' => 0x0B,
        b'a' => 0x07,
        _ => return None,
    })
}

/// Parses an interval body starting at `p[i]` (just after `{` or `\{`):
/// `m`, `m,`, `,n` or `m,n`, closed by `}` (or `\}` in a BRE). Returns the
/// regex quantifier and the index after it, or None when it is not an
/// interval (an ERE then reads `{` literally).
fn interval(p: &[u8], mut i: usize, bre: bool) -> Result<Option<(String, usize)>, String> {
    let number = |i: &mut usize| -> Option<u32> {
        let start = *i;
        let mut value: u32 = 0;
        while let Some(d) = p.get(*i).filter(|d| d.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            *i += 1;
        }
        (*i > start).then_some(value)
    };
    let min = number(&mut i);
    let max = if p.get(i) == Some(&b',') {
        i += 1;
        Some(number(&mut i))
    } else {
        None
    };
    let close: &[u8] = if bre { b"\\}" } else { b"}" };
    if !p[i.min(p.len())..].starts_with(close) || (min.is_none() && max.is_none()) {
        if !bre {
            return Ok(None);
        }
        let closed = p[i.min(p.len())..].windows(2).any(|w| w == b"\\}");
        return Err(if closed { "Invalid content of \\{\\}" } else { "Unmatched \\{" }.into());
    }
    i += close.len();
    let min_value = min.unwrap_or(0);
    let text = match max {
        None => format!("{{{min_value}}}"),
        Some(None) => format!("{{{min_value},}}"),
        Some(Some(max_value)) => {
            if max_value < min_value {
                return Err("Invalid content of \\{\\}".into());
            }
            if max_value > DUP_MAX {
                return Err("Regular expression too big".into());
            }
            format!("{{{min_value},{max_value}}}")
        }
    };
    if min_value > DUP_MAX {
        return Err("Regular expression too big".into());
    }
    Ok(Some((text, i)))
}

/// awk's interval at `p[i]` (just after `{`): `m`, `m,` or `m,n`, each of
/// one to three digits, then `}`; None when it is not one (`{` is then
/// literal).
fn awk_interval(p: &[u8], i: usize) -> Result<Option<(String, usize)>, String> {
    let Some(end) = p[i.min(p.len())..].iter().position(|&b| b == b'}').map(|e| i + e) else { return Ok(None) };
    let body = &p[i..end];
    let (low, high) = match body.iter().position(|&x| x == b',') {
        Some(k) => (&body[..k], Some(&body[k + 1..])),
        None => (body, None),
    };
    let count = |digits: &[u8]| digits.len() < 4 && digits.iter().all(u8::is_ascii_digit);
    if low.is_empty() || !count(low) || !high.is_none_or(count) {
        return Ok(None);
    }
    let number = |digits: &[u8]| digits.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    let min = number(low);
    let text = match high {
        None => format!("{{{min}}}"),
        Some([]) => format!("{{{min},}}"),
        Some(high) => {
            let max = number(high);
            if max < min {
                return Err("Invalid content of \\{\\}".into());
            }
            format!("{{{min},{max}}}")
        }
    };
    Ok(Some((text, end + 1)))
}

/// An octal escape `\ooo` (one to three digits) at `p[i]`, just after the
/// backslash: its byte and the index after it.
fn octal(p: &[u8], i: usize) -> Option<(u8, usize)> {
    let digits = p[i.min(p.len())..].iter().take(3).take_while(|b| (b'0'..=b'7').contains(*b)).count();
    let value = p[i..i + digits].iter().fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
    (digits > 0).then_some(((value & 0xff) as u8, i + digits))
}

/// The byte an awk escape stands for (`\n`, `\b`, `\/`…), or the escaped
/// character itself.
fn awk_escape(e: u8) -> u8 {
    match e {
        b'b' => 0x08,
        _ => sed_escape(e).unwrap_or(e),
    }
}

const CLASS_NAMES: &[&str] =
    &["alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit"];

/// Parses a bracket expression whose `[` is just before `p[i]`; returns the
/// regex class and the index after its `]`.
fn bracket(p: &[u8], mut i: usize, options: Options) -> Result<(String, usize), String> {
    let dialect = options.dialect;
    let unmatched = || "Unmatched [, [^, [:, [., or [=".to_string();
    let negated = p.get(i) == Some(&b'^');
    if negated {
        i += 1;
    }
    let mut items = String::new();
    let mut first = true;
    // One element: a byte (possibly a range start) or a named class.
    loop {
        let Some(&c) = p.get(i) else { return Err(unmatched()) };
        if c == b']' && !first {
            i += 1;
            break;
        }
        first = false;
        let start = match element(p, &mut i, options)? {
            Element::Class(name) => {
                items.push_str(&format!("[:{name}:]"));
                continue;
            }
            Element::Byte(byte) => byte,
        };
        // A range `a-z`, unless the `-` is the last thing before `]`.
        if p.get(i) == Some(&b'-') && p.get(i + 1).is_some_and(|&n| n != b']') {
            i += 1;
            let end = match element(p, &mut i, options)? {
                Element::Byte(byte) => byte,
                Element::Class(_) => return Err("Invalid range end".into()),
            };
            if end < start {
                return Err("Invalid range end".into());
            }
            items.push_str(&format!("\\x{start:02X}-\\x{end:02X}"));
        } else {
            items.push_str(&format!("\\x{start:02X}"));
        }
    }
    let class = match (negated, dialect.lines) {
        (true, true) => format!("[^{items}\\n]"),
        (true, false) => format!("[^{items}]"),
        (false, true) => format!("[{items}&&[^\\n]]"),
        (false, false) => format!("[{items}]"),
    };
    Ok((class, i))
}

enum Element {
    Byte(u8),
    Class(&'static str),
}

fn element(p: &[u8], i: &mut usize, options: Options) -> Result<Element, String> {
    let unmatched = || "Unmatched [, [^, [:, [., or [=".to_string();
    let c = *p.get(*i).ok_or_else(unmatched)?;
    if c == b'[' {
        if let Some(&kind @ (b':' | b'.' | b'=')) = p.get(*i + 1) {
            let body_start = *i + 2;
            let close = [kind, b']'];
            let Some(len) = p[body_start.min(p.len())..].windows(2).position(|w| w == close) else {
                return Err(unmatched());
            };
            let body = &p[body_start..body_start + len];
            *i = body_start + len + 2;
            return match kind {
                b':' => CLASS_NAMES
                    .iter()
                    .find(|name| name.as_bytes() == body)
                    .map(|name| Element::Class(name))
                    .ok_or_else(|| "Invalid character class name".to_string()),
                _ if body.len() == 1 => Ok(Element::Byte(body[0])),
                _ => Err("Invalid collation character".into()),
            };
        }
    }
    *i += 1;
    if c == b'\\' && options.awk_escapes {
        if let Some((byte, next)) = octal(p, *i) {
            *i = next;
            return Ok(Element::Byte(byte));
        }
        if let Some(&e) = p.get(*i) {
            *i += 1;
            return Ok(Element::Byte(awk_escape(e)));
        }
    }
    if c == b'\\' && options.dialect.sed_escapes {
        if let Some(byte) = p.get(*i).and_then(|&e| sed_escape(e)) {
            *i += 1;
            return Ok(Element::Byte(byte));
        }
    }
    Ok(Element::Byte(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::bytes::Regex;

    fn re(pattern: &str, extended: bool) -> Regex {
        let text = translate(pattern, Dialect { extended, lines: false, sed_escapes: true }).unwrap();
        Regex::new(&text).unwrap()
    }

    fn found(pattern: &str, extended: bool, text: &str) -> Option<String> {
        re(pattern, extended).find(text.as_bytes()).map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned())
    }

    #[test]
    fn bre_operators_and_literals() {
        assert_eq!(found("a\\(b\\)*c", false, "xabbc").as_deref(), Some("abbc"));
        assert_eq!(found("a(b)", false, "a(b)").as_deref(), Some("a(b)"));
        assert_eq!(found("a\\{2\\}", false, "baaa").as_deref(), Some("aa"));
        assert_eq!(found("a{2}", false, "a{2}").as_deref(), Some("a{2}"));
        assert_eq!(found("*a", false, "x*a").as_deref(), Some("*a"));
        assert_eq!(found("^*a", false, "*a").as_deref(), Some("*a"));
        assert_eq!(found("a\\|b", false, "b").as_deref(), Some("b"));
        assert_eq!(found("a|b", false, "a|b").as_deref(), Some("a|b"));
        assert_eq!(found("x\\+", false, "axxx").as_deref(), Some("xxx"));
        assert_eq!(found("a^b$c", false, "a^b$c").as_deref(), Some("a^b$c"));
        assert_eq!(found("a**", false, "aaa").as_deref(), Some("aaa"));
    }

    #[test]
    fn ere_operators() {
        assert_eq!(found("(ab)+", true, "xababc").as_deref(), Some("abab"));
        assert_eq!(found("a{,2}b", true, "aaab").as_deref(), Some("aab"));
        assert_eq!(found("a{", true, "a{").as_deref(), Some("a{"));
        assert_eq!(found("*a", true, "a").as_deref(), Some("a"));
        assert_eq!(found("a)", true, "a)").as_deref(), Some("a)"));
    }

    #[test]
    fn brackets() {
        assert_eq!(found("[]a]*", false, "]a]").as_deref(), Some("]a]"));
        assert_eq!(found("[^]a]", false, "]ab").as_deref(), Some("b"));
        assert_eq!(found("[[:digit:]x-]+", true, "a1-x2b").as_deref(), Some("1-x2"));
        assert_eq!(found("[\\n]", false, "a\nb").as_deref(), Some("\n"));
        assert_eq!(found("[a\\]+", true, "x\\a").as_deref(), Some("\\a"));
        assert_eq!(found("[[.-.]]", false, "a-").as_deref(), Some("-"));
        assert!(translate("[[:nope:]]", Dialect { extended: false, lines: false, sed_escapes: false }).is_err());
        assert!(translate("[z-a]", Dialect { extended: false, lines: false, sed_escapes: false }).is_err());
        assert!(translate("[abc", Dialect { extended: false, lines: false, sed_escapes: false }).is_err());
    }

    fn bre_to_regex(pattern: &str) -> Result<String, String> {
        translate(pattern, Dialect { extended: false, lines: false, sed_escapes: false })
    }

    #[test]
    fn errors() {
        assert!(bre_to_regex("a\\{1").is_err());
        assert!(bre_to_regex("\\(a").is_err());
        assert!(bre_to_regex("a\\)").is_err());
        assert!(ere_to_regex("(a").is_err());
        assert!(bre_to_regex("\\(a\\)\\1").is_err());
        assert!(bre_to_regex("a\\").is_err());
        assert!(ere_to_regex("a{40000}").is_err());
    }

    #[test]
    fn line_mode_never_crosses_newlines() {
        let dialect = Dialect { extended: true, lines: true, sed_escapes: false };
        for pattern in ["a.b", "a[^x]b", "a\\Wb", "a\\sb", "a[[:space:]]b"] {
            let regex = Regex::new(&translate(pattern, dialect).unwrap()).unwrap();
            assert!(!regex.is_match(b"a\nb"), "{pattern}");
            assert!(regex.is_match(b"a b"), "{pattern}");
        }
        let regex = Regex::new(&translate("^b$", dialect).unwrap()).unwrap();
        assert!(regex.is_match(b"a\nb\nc"));
    }
}
