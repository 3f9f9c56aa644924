//! `cut`, GNU style: `-b`/`-c` (the same in the C locale) and `-f` lists
//! with ranges, `-d`, `-s`, `--complement`, `--output-delimiter`, `-z`.

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::common::{input_error, open_lines, parse, tick, usage, Arg, HasArg, OpenStyle, Spec};
use crate::shell::command::ReadFailed;

const SPEC: Spec = Spec {
    short: "b:c:f:d:snz",
    long: &[
        ("bytes", "b", HasArg::Yes),
        ("characters", "c", HasArg::Yes),
        ("fields", "f", HasArg::Yes),
        ("delimiter", "d", HasArg::Yes),
        ("only-delimited", "s", HasArg::No),
        ("complement", "complement", HasArg::No),
        ("output-delimiter", "output-delimiter", HasArg::Yes),
        ("zero-terminated", "z", HasArg::No),
    ],
};

/// Selected positions: sorted, merged, 1-based inclusive ranges.
struct List(Vec<(usize, usize)>);

impl List {
    fn parse(text: &str, fields: bool) -> Result<List, String> {
        let (zero, invalid) = if fields {
            ("fields are numbered from 1", "invalid field value")
        } else {
            ("byte/character positions are numbered from 1", "invalid byte/character position")
        };
        let mut ranges = Vec::new();
        for item in text.split([',', ' ', '\t']) {
            let number = |part: &str| -> Result<usize, String> {
                if let Some(bad) = part.find(|c: char| !c.is_ascii_digit()) {
                    return Err(format!("{invalid} '{}'", &part[bad..]));
                }
                match part.parse::<usize>() {
                    Ok(0) | Err(_) if part.bytes().all(|b| b == b'0') => Err(zero.to_string()),
                    Ok(n) => Ok(n),
                    Err(_) => Ok(usize::MAX),
                }
            };
            let range = match item.split_once('-') {
                None => {
                    let n = number(item)?;
                    (n, n)
                }
                Some(("", "")) => return Err("invalid range with no endpoint: -".to_string()),
                Some(("", hi)) => (1, number(hi)?),
                Some((lo, "")) => (number(lo)?, usize::MAX),
                Some((lo, hi)) => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    if hi < lo {
                        return Err("invalid decreasing range".to_string());
                    }
                    (lo, hi)
                }
            };
            ranges.push(range);
        }
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Ok(List(merged))
    }

    /// The complement within 1..=usize::MAX.
    fn complement(&self) -> List {
        let mut out = Vec::new();
        let mut next = 1;
        for &(lo, hi) in &self.0 {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
            if hi == usize::MAX {
                return List(out);
            }
        }
        out.push((next, usize::MAX));
        List(out)
    }

    fn contains(&self, position: usize) -> bool {
        self.0.iter().any(|&(lo, hi)| lo <= position && position <= hi)
    }
}

/// `cut -b LIST|-c LIST|-f LIST [-d DELIM] [-s] [FILE]...`
pub(super) fn cut(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut list: Option<(String, bool)> = None;
    let (mut delim, mut only_delimited, mut complement, mut line_end) = (None, false, false, b'\n');
    let mut output_delim: Option<Vec<u8>> = None;
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt(key @ ("b" | "c" | "f"), Some(value)) => {
                if list.is_some() {
                    return usage(ctx, "only one list may be specified", 1);
                }
                list = Some((value, key == "f"));
            }
            Arg::Opt("d", Some(value)) => match value.as_bytes() {
                [] => delim = Some(0),
                [one] => delim = Some(*one),
                _ => return usage(ctx, "the delimiter must be a single character", 1),
            },
            Arg::Opt("s", _) => only_delimited = true,
            Arg::Opt("z", _) => line_end = 0,
            Arg::Opt("complement", _) => complement = true,
            Arg::Opt("output-delimiter", value) => output_delim = Some(value.unwrap_or_default().into_bytes()),
            Arg::Opt(..) => {}
        }
    }
    let Some((spec, fields)) = list else {
        return usage(ctx, "you must specify a list of bytes, characters, or fields", 1);
    };
    if delim.is_some() && !fields {
        return usage(ctx, "an input delimiter may be specified only when operating on fields", 1);
    }
    if only_delimited && !fields {
        return usage(ctx, "suppressing non-delimited lines makes sense\n\tonly when operating on fields", 1);
    }
    let list = match List::parse(&spec, fields) {
        Ok(list) if complement => list.complement(),
        Ok(list) => list,
        Err(message) => return usage(ctx, &message, 1),
    };
    let delim = delim.unwrap_or(b'\t');
    let output_delim = output_delim.unwrap_or_else(|| if fields { vec![delim] } else { Vec::new() });
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    let mut ticks = 0;
    for file in &files {
        // A line at a time, written a piece at a time.
        let Some(mut lines) = open_lines(ctx, file, OpenStyle::Plain)? else {
            status = 1;
            continue;
        };
        let mut out = Vec::new();
        loop {
            let line = match lines.next_line(line_end) {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(ReadFailed::Limit(hit)) => return Err(hit),
                Err(ReadFailed::Storage(error)) => {
                    ctx.stdout.write(&out)?;
                    out.clear();
                    input_error(ctx, file, OpenStyle::Plain, &error)?;
                    status = 1;
                    break;
                }
            };
            tick(ctx, &mut ticks)?;
            if fields {
                if memchr::memchr(delim, line).is_none() {
                    if only_delimited {
                        continue;
                    }
                    out.extend_from_slice(line);
                } else {
                    cut_fields(line, &list, delim, &output_delim, &mut out);
                }
            } else {
                cut_bytes(line, &list, &output_delim, &mut out);
            }
            out.push(line_end);
            if out.len() >= 1 << 16 {
                ctx.stdout.write(&out)?;
                out.clear();
            }
        }
        ctx.stdout.write(&out)?;
    }
    Ok(status)
}

fn cut_bytes(line: &[u8], list: &List, output_delim: &[u8], out: &mut Vec<u8>) {
    let mut first = true;
    for &(lo, hi) in &list.0 {
        if lo > line.len() {
            break;
        }
        if !first {
            out.extend_from_slice(output_delim);
        }
        first = false;
        out.extend_from_slice(&line[lo - 1..hi.min(line.len())]);
    }
}

/// Appends the selected fields of a line that has the delimiter.
fn cut_fields(line: &[u8], list: &List, delim: u8, output_delim: &[u8], out: &mut Vec<u8>) {
    let mut first = true;
    for (index, field) in line.split(|&b| b == delim).enumerate() {
        if list.contains(index + 1) {
            if !first {
                out.extend_from_slice(output_delim);
            }
            first = false;
            out.extend_from_slice(field);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::MemoryStorage;

    fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
        run_for_test(&MemoryStorage::new(Default::default()), "cut", args, stdin)
    }

    #[test]
    fn selections() {
        assert_eq!(run(&["-d:", "-f2"], "a:b:c\nnodelim\n").1, "b\nnodelim\n");
        assert_eq!(run(&["-d:", "-f1,3", "--output-delimiter=XX"], "a:b:c\nnodelim").1, "aXXc\nnodelim\n");
        assert_eq!(run(&["-c2-3,5-", "--output-delimiter=."], "abcdef").1, "bc.ef\n");
        assert_eq!(run(&["-d:", "--complement", "-f2"], "a:b:c\n").1, "a:c\n");
        assert_eq!(run(&["-b", "-2"], "abc\n").1, "ab\n");
        assert_eq!(run(&["-d:", "-f3,1"], "a:b:c\n").1, "a:c\n");
        assert_eq!(run(&["-c", "1,1-2"], "abc\n").1, "ab\n");
        assert_eq!(run(&["-f2"], "a\tb\n").1, "b\n");
        assert_eq!(run(&["-s", "-d:", "-f1"], "a:b\nnone\nc:d\n").1, "a\nc\n");
        assert_eq!(run(&["-d", " ", "-f", "2-"], "a b c\n").1, "b c\n");
        assert_eq!(run(&["-c", "5-"], "abc\n").1, "\n");
    }

    #[test]
    fn errors() {
        let try_line = "Try 'cut --help' for more information.\n";
        assert_eq!(run(&["-f", "0"], "").2, format!("cut: fields are numbered from 1\n{try_line}"));
        assert_eq!(run(&["-f", "3-1"], "").2, format!("cut: invalid decreasing range\n{try_line}"));
        assert_eq!(run(&["-f", "x"], "").2, format!("cut: invalid field value 'x'\n{try_line}"));
        assert_eq!(run(&["-c", "x"], "").2, format!("cut: invalid byte/character position 'x'\n{try_line}"));
        assert_eq!(
            run(&["-d", "ab", "-f1"], "").2,
            format!("cut: the delimiter must be a single character\n{try_line}")
        );
        assert_eq!(run(&[], "").2, format!("cut: you must specify a list of bytes, characters, or fields\n{try_line}"));
        assert_eq!(run(&["-f1", "nope"], ""), (1, "".into(), "cut: nope: No such file or directory\n".into()));
    }
}
