//! `uniq`, GNU style: `-c` (GNU's `%7d ` counts), `-d`, `-D`, `-u`, `-i`,
//! `-f`, `-s`, `-w`, `-z`, and an optional output file operand.

use crate::shell::command::{error_reason, Context};
use crate::shell::LimitHit;

use super::common::{next_line_into, open_lines, parse, quotef, tick, usage, Arg, HasArg, OpenStyle, Spec};

const SPEC: Spec = Spec {
    short: "cdDuif:s:w:z",
    long: &[
        ("count", "c", HasArg::No),
        ("repeated", "d", HasArg::No),
        ("all-repeated", "D", HasArg::Optional),
        ("unique", "u", HasArg::No),
        ("ignore-case", "i", HasArg::No),
        ("skip-fields", "f", HasArg::Yes),
        ("skip-chars", "s", HasArg::Yes),
        ("check-chars", "w", HasArg::Yes),
        ("zero-terminated", "z", HasArg::No),
    ],
};

struct Compare {
    fields: usize,
    chars: usize,
    width: usize,
    fold: bool,
}

impl Compare {
    /// The part of a line that is compared.
    fn key<'l>(&self, line: &'l [u8]) -> &'l [u8] {
        let mut at = 0;
        for _ in 0..self.fields {
            // Past the end every further field is empty: stop (`-f` may be
            // 2^64-1, which would otherwise loop for ever).
            if at >= line.len() {
                break;
            }
            while at < line.len() && matches!(line[at], b' ' | b'\t') {
                at += 1;
            }
            while at < line.len() && !matches!(line[at], b' ' | b'\t') {
                at += 1;
            }
        }
        let start = at.saturating_add(self.chars).min(line.len());
        let end = start.saturating_add(self.width).min(line.len());
        &line[start..end]
    }

    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (a, b) = (self.key(a), self.key(b));
        if self.fold {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }
}

/// `uniq [OPTION]... [INPUT [OUTPUT]]`
pub(super) fn uniq(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut count, mut repeated, mut all, mut unique, mut delim) = (false, false, false, false, b'\n');
    let mut compare = Compare { fields: 0, chars: 0, width: usize::MAX, fold: false };
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt("c", _) => count = true,
            Arg::Opt("d", _) => repeated = true,
            Arg::Opt("D", _) => all = true,
            Arg::Opt("u", _) => unique = true,
            Arg::Opt("i", _) => compare.fold = true,
            Arg::Opt("z", _) => delim = 0,
            Arg::Opt(key, Some(value)) => {
                let Ok(number) = value.parse::<u64>() else {
                    let what = match key {
                        "f" => "number of fields to skip",
                        "s" => "number of bytes to skip",
                        _ => "number of bytes to compare",
                    };
                    ctx.error(format!("invalid {what}: {}", super::common::quote(&value)))?;
                    return Ok(1);
                };
                let number = usize::try_from(number).unwrap_or(usize::MAX);
                match key {
                    "f" => compare.fields = number,
                    "s" => compare.chars = number,
                    _ => compare.width = number,
                }
            }
            Arg::Opt(..) => {}
        }
    }
    if let Some(extra) = operands.get(2) {
        let message = format!("extra operand {}", super::common::quote(extra));
        return usage(ctx, &message, 1);
    }
    if count && all {
        let message = "printing all duplicated lines and repeat counts is meaningless";
        return usage(ctx, message, 1);
    }
    let input = operands.first().map_or("-", String::as_str);
    let to_file = operands.get(1).filter(|path| *path != "-").cloned();
    // Read a line at a time: a group needs its first line (every line for -D).
    let Some(mut lines) = open_lines(ctx, input, OpenStyle::Plain)? else { return Ok(1) };
    let mut out = Vec::new();
    let mut group: Vec<Vec<u8>> = Vec::new();
    let mut size = 0usize;
    let mut ticks = 0;
    let flush = |group: &mut Vec<Vec<u8>>, size: &mut usize, out: &mut Vec<u8>| {
        if *size == 0 {
            return;
        }
        let keep = if repeated || all { *size > 1 && !(unique) } else { !unique || *size == 1 };
        if keep {
            let shown: &[Vec<u8>] = if all { group } else { &group[..1] };
            for line in shown {
                if count {
                    out.extend_from_slice(format!("{size:7} ", size = *size).as_bytes());
                }
                out.extend_from_slice(line);
                out.push(delim);
            }
        }
        group.clear();
        *size = 0;
    };
    let mut line = Vec::new();
    let mut failed = false;
    while next_line_into(ctx, &mut lines, delim, &mut line, input, OpenStyle::Plain, &mut failed)? {
        tick(ctx, &mut ticks)?;
        if let Some(first) = group.first() {
            if !compare.same(first, &line) {
                flush(&mut group, &mut size, &mut out);
            }
        }
        // -D keeps every line of a group; otherwise the first is enough.
        if all || group.is_empty() {
            group.push(std::mem::take(&mut line));
        }
        size += 1;
        if to_file.is_none() && out.len() > 1 << 16 {
            ctx.stdout.write(&out)?;
            out.clear();
        }
    }
    flush(&mut group, &mut size, &mut out);
    match to_file {
        Some(path) => {
            if let Err(error) = ctx.storage.write(&ctx.path(&path), &out) {
                ctx.error(format!("{}: {}", quotef(&path), error_reason(&error)))?;
                return Ok(1);
            }
        }
        None => ctx.stdout.write(&out)?,
    }
    if failed {
        return Ok(1);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
        run_for_test(&MemoryStorage::new(Default::default()), "uniq", args, stdin)
    }

    #[test]
    fn modes() {
        assert_eq!(run(&["-c"], "a\na\nb\nA\na").1, "      2 a\n      1 b\n      1 A\n      1 a\n");
        assert_eq!(run(&["-ci"], "a\na\nb\nA\na\n").1, "      2 a\n      1 b\n      2 A\n");
        assert_eq!(run(&[], "a\na\nb").1, "a\nb\n");
        assert_eq!(run(&["-d"], "a\na\nb\n").1, "a\n");
        assert_eq!(run(&["-u"], "a\na\nb\n").1, "b\n");
        assert_eq!(run(&["-f1", "-c"], "x a\ny a\nz b\n").1, "      2 x a\n      1 z b\n");
        assert_eq!(run(&["-s1"], "xa\nya\n").1, "xa\n");
        assert_eq!(run(&["-D"], "a\na\nb\nb\nc\n").1, "a\na\nb\nb\n");
        assert_eq!(run(&["-w2"], "ab1\nab2\n").1, "ab1\n");
    }

    #[test]
    fn files_and_errors() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/in", b"a\na\n").unwrap();
        assert_eq!(run_for_test(&storage, "uniq", &["in", "out"], ""), (0, "".into(), "".into()));
        assert_eq!(storage.read("/out").unwrap(), b"a\n");
        assert_eq!(run(&["nope"], ""), (1, "".into(), "uniq: nope: No such file or directory\n".into()));
        assert_eq!(run(&["a", "b", "c"], "").2, "uniq: extra operand 'c'\nTry 'uniq --help' for more information.\n");
    }
}
