//! `tr`, GNU style in the C locale: sets with ranges, `[:class:]`,
//! `[c*n]` repeats, `[=c=]`, backslash escapes (`\n`, `\t`, `\\`, `\NNN`),
//! and `-c`/`-C`, `-d`, `-s`, `-t`. SET2 shorter than SET1 repeats its last
//! byte. Reads stdin only, as GNU does.

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::common::{parse, quote, usage, Arg, HasArg, Spec};

const SPEC: Spec = Spec {
    short: "cCdst",
    long: &[
        ("complement", "c", HasArg::No),
        ("delete", "d", HasArg::No),
        ("squeeze-repeats", "s", HasArg::No),
        ("truncate-set1", "t", HasArg::No),
    ],
};

const CLASSES: &[&str] =
    &["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"];

fn in_class(class: &str, byte: u8) -> bool {
    match class {
        "alnum" => byte.is_ascii_alphanumeric(),
        "alpha" => byte.is_ascii_alphabetic(),
        "blank" => byte == b' ' || byte == b'\t',
        "cntrl" => byte.is_ascii_control(),
        "digit" => byte.is_ascii_digit(),
        "graph" => byte.is_ascii_graphic(),
        "lower" => byte.is_ascii_lowercase(),
        "print" => byte.is_ascii_graphic() || byte == b' ',
        "punct" => byte.is_ascii_punctuation(),
        "space" => matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'),
        "upper" => byte.is_ascii_uppercase(),
        _ => byte.is_ascii_hexdigit(),
    }
}

/// One element of a set as written.
enum Item {
    Byte(u8),
    Range(u8, u8),
    Class(&'static str),
    /// `[c*n]`; `None` fills SET2 up to SET1's length.
    Repeat(u8, Option<usize>),
}

/// Reads one possibly escaped byte at `at`, returning it and the next index.
fn read_byte(text: &[u8], at: usize) -> (u8, usize) {
    if text[at] != b'\\' || at + 1 >= text.len() {
        return (text[at], at + 1);
    }
    let next = text[at + 1];
    let simple = match next {
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(11),
        b'0'..=b'7' => None,
        other => Some(other),
    };
    if let Some(byte) = simple {
        return (byte, at + 2);
    }
    let mut value: u32 = 0;
    let mut end = at + 1;
    while end < text.len() && end < at + 4 && (b'0'..=b'7').contains(&text[end]) {
        let candidate = value * 8 + u32::from(text[end] - b'0');
        if candidate > 255 {
            break;
        }
        value = candidate;
        end += 1;
    }
    (value as u8, end)
}

fn parse_set(text: &[u8], is_set2: bool) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if text[at] == b'[' && at + 1 < text.len() {
            let rest = &text[at + 1..];
            if let Some(body) = rest.strip_prefix(b":") {
                if let Some(end) = body.windows(2).position(|w| w == b":]") {
                    let name = String::from_utf8_lossy(&body[..end]);
                    let Some(class) = CLASSES.iter().find(|c| **c == name) else {
                        return Err(format!("invalid character class {}", quote(&name)));
                    };
                    items.push(Item::Class(class));
                    at += end + 4;
                    continue;
                }
            }
            if rest.first() == Some(&b'=') && rest.len() >= 4 && rest[2] == b'=' && rest[3] == b']' {
                items.push(Item::Byte(rest[1]));
                at += 5;
                continue;
            }
            // `[c*n]`: c may be escaped.
            let (byte, after) = read_byte(text, at + 1);
            if text.get(after) == Some(&b'*') {
                if let Some(close) = text[after..].iter().position(|&b| b == b']') {
                    let count = &text[after + 1..after + close];
                    if count.iter().all(u8::is_ascii_digit) {
                        if !is_set2 {
                            return Err("the [c*] repeat construct may not appear in string1".to_string());
                        }
                        let text = String::from_utf8_lossy(count);
                        let radix = if text.starts_with('0') { 8 } else { 10 };
                        let number = match usize::from_str_radix(&text, radix) {
                            Ok(0) | Err(_) if text.is_empty() || text.bytes().all(|b| b == b'0') => None,
                            Ok(n) => Some(n),
                            Err(_) => return Err(format!("invalid repeat count {} in [c*n] construct", quote(&text))),
                        };
                        items.push(Item::Repeat(byte, number));
                        at = after + close + 1;
                        continue;
                    }
                }
            }
        }
        let (byte, next) = read_byte(text, at);
        if text.get(next) == Some(&b'-') && next + 1 < text.len() {
            let (high, after) = read_byte(text, next + 1);
            if high < byte {
                let shown = String::from_utf8_lossy(&text[at..after]);
                return Err(format!("range-endpoints of {} are in reverse collating sequence order", quote(&shown)));
            }
            items.push(Item::Range(byte, high));
            at = after;
            continue;
        }
        items.push(Item::Byte(byte));
        at = next;
    }
    Ok(items)
}

/// Expands a set; `fill` is the length a `[c*]` repeat pads up to.
fn expand(items: &[Item], fill: usize) -> Vec<u8> {
    let fixed: usize = items
        .iter()
        .map(|item| match item {
            Item::Byte(_) => 1,
            Item::Range(lo, hi) => usize::from(hi - lo) + 1,
            Item::Class(class) => (0..=255u8).filter(|&b| in_class(class, b)).count(),
            Item::Repeat(_, count) => count.unwrap_or(0).min(fill),
        })
        .sum();
    let mut out = Vec::new();
    let mut filled = false;
    for item in items {
        match item {
            Item::Byte(byte) => out.push(*byte),
            Item::Range(lo, hi) => out.extend(*lo..=*hi),
            Item::Class(class) => out.extend((0..=255u8).filter(|&b| in_class(class, b))),
            Item::Repeat(byte, Some(count)) => out.extend(std::iter::repeat_n(*byte, (*count).min(fill.max(256)))),
            Item::Repeat(byte, None) if !filled => {
                filled = true;
                out.extend(std::iter::repeat_n(*byte, fill.saturating_sub(fixed)));
            }
            Item::Repeat(..) => {}
        }
    }
    out
}

/// `tr [-cdst] SET1 [SET2]`
pub(super) fn tr(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut complement, mut delete, mut squeeze, mut truncate) = (false, false, false, false);
    let mut sets: Vec<String> = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(set) => sets.push(set),
            Arg::Opt("c" | "C", _) => complement = true,
            Arg::Opt("d", _) => delete = true,
            Arg::Opt("s", _) => squeeze = true,
            Arg::Opt(..) => truncate = true,
        }
    }
    let translating = !delete && sets.len() == 2;
    // Operands: two to translate or to delete and squeeze, one to delete,
    // one or two to squeeze (then translating first).
    let needed = if delete == squeeze { 2 } else { 1 };
    let most = if delete && !squeeze { 1 } else { 2 };
    if sets.is_empty() {
        return usage(ctx, "missing operand", 1);
    }
    if sets.len() < needed {
        let why = if delete {
            "Two strings must be given when both deleting and squeezing repeats."
        } else {
            "Two strings must be given when translating."
        };
        return usage(ctx, &format!("missing operand after {}\n{why}", quote(&sets[0])), 1);
    }
    if sets.len() > most {
        let extra = quote(&sets[most]);
        let message = if needed == 1 && delete {
            format!("extra operand {extra}\nOnly one string may be given when deleting without squeezing repeats.")
        } else {
            format!("extra operand {extra}")
        };
        return usage(ctx, &message, 1);
    }
    let set1_items = match parse_set(sets[0].as_bytes(), false) {
        Ok(items) => items,
        Err(message) => {
            ctx.error(message)?;
            return Ok(1);
        }
    };
    let mut set1 = expand(&set1_items, 0);
    if complement {
        let mut member = [false; 256];
        for &byte in &set1 {
            member[usize::from(byte)] = true;
        }
        set1 = (0..=255u8).filter(|&b| !member[usize::from(b)]).collect();
    }
    let set2 = match sets.get(1) {
        None => None,
        Some(text) => {
            let items = match parse_set(text.as_bytes(), true) {
                Ok(items) => items,
                Err(message) => {
                    ctx.error(message)?;
                    return Ok(1);
                }
            };
            if translating && items.iter().any(|i| matches!(i, Item::Class(c) if *c != "upper" && *c != "lower")) {
                ctx.error(
                    "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'",
                )?;
                return Ok(1);
            }
            Some(expand(&items, set1.len()))
        }
    };
    let mut map: [u8; 256] = std::array::from_fn(|i| i as u8);
    if translating {
        let mut set2 = set2.clone().unwrap_or_default();
        if set2.is_empty() && !truncate && !set1.is_empty() {
            ctx.error("when not truncating set1, string2 must be non-empty")?;
            return Ok(1);
        }
        if truncate {
            set1.truncate(set2.len());
        } else if let Some(&last) = set2.last() {
            set2.resize(set1.len().max(set2.len()), last);
        }
        for (&from, &to) in set1.iter().zip(&set2) {
            map[usize::from(from)] = to;
        }
    }
    let mut in_set1 = [false; 256];
    for &byte in &set1 {
        in_set1[usize::from(byte)] = true;
    }
    let mut squeeze_set = [false; 256];
    if squeeze {
        let source = if sets.len() == 2 { set2.as_deref().unwrap_or_default() } else { &set1 };
        for &byte in source {
            squeeze_set[usize::from(byte)] = true;
        }
    }
    // Streams: each chunk of stdin as it comes (the squeeze carries over).
    let mut out = Vec::new();
    let mut last: Option<u8> = None;
    while let Some(input) = ctx.stdin.read_chunk()? {
        (ctx.check)()?;
        out.clear();
        for &byte in &input {
            if delete && in_set1[usize::from(byte)] {
                continue;
            }
            let byte = map[usize::from(byte)];
            if squeeze && last == Some(byte) && squeeze_set[usize::from(byte)] {
                continue;
            }
            last = Some(byte);
            out.push(byte);
        }
        ctx.stdout.write(&out)?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::MemoryStorage;

    fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
        run_for_test(&MemoryStorage::new(Default::default()), "tr", args, stdin)
    }

    fn out(args: &[&str], stdin: &str) -> String {
        run(args, stdin).1
    }

    #[test]
    fn translations() {
        assert_eq!(out(&["-s", "lo"], "hello world\n"), "helo world\n");
        assert_eq!(out(&["a-y", "b-z"], "hello\n"), "ifmmp\n");
        assert_eq!(out(&["abc", "x"], "abc\n"), "xxx\n");
        assert_eq!(out(&["-t", "abc", "xy"], "abcd\n"), "xycd\n");
        assert_eq!(out(&["-cd", "[:digit:]\\n"], "a1b2\n"), "12\n");
        assert_eq!(out(&["-s", " "], "aab  c\n"), "aab c\n");
        assert_eq!(out(&["[:upper:]", "[:lower:]"], "AbC\n"), "abc\n");
        assert_eq!(out(&["a-z", "A-Z"], "AbC\n"), "ABC\n");
        assert_eq!(out(&["-c", "a-z\\n", "_"], "a.b\n"), "a_b\n");
        assert_eq!(out(&["-ds", "a", "b"], "abbc\n"), "bc\n");
        assert_eq!(out(&["\\\\", "/"], "a\\b\n"), "a/b\n");
        assert_eq!(out(&["a-c", "[x*]"], "abc\n"), "xxx\n");
        assert_eq!(out(&["a-f", "[x*2]y"], "abcdef\n"), "xxyyyy\n");
        assert_eq!(out(&["\\170", "y"], "x\n"), "y\n");
        assert_eq!(out(&["[=a=]", "z"], "abc\n"), "zbc\n");
        assert_eq!(out(&["\\n", " "], "a\nb\n"), "a b ");
        assert_eq!(out(&["-d", "[:space:][:punct:]"], "a, b!\n"), "ab");
    }

    #[test]
    fn errors() {
        let try_line = "Try 'tr --help' for more information.\n";
        assert_eq!(run(&[], ""), (1, "".into(), format!("tr: missing operand\n{try_line}")));
        assert_eq!(
            run(&["a"], "").2,
            format!("tr: missing operand after 'a'\nTwo strings must be given when translating.\n{try_line}")
        );
        assert_eq!(
            run(&["-d", "a", "b"], "").2,
            format!(
                "tr: extra operand 'b'\nOnly one string may be given when deleting without squeezing repeats.\n{try_line}"
            )
        );
        assert_eq!(run(&["z-a", "x"], "").2, "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n");
        assert_eq!(run(&["a", ""], "").2, "tr: when not truncating set1, string2 must be non-empty\n");
        assert_eq!(run(&["[:foo:]", "x"], "").2, "tr: invalid character class 'foo'\n");
    }
}
