//! `xargs [-0rt] [-a FILE] [-d DELIM] [-E EOF] [-I STR] [-L N] [-n N] [COMMAND [ARG]…]`.
//!
//! Commands run in-process through the shell (a builtin, a function or a
//! command), with an empty stdin. `-P` is accepted and ignored (one command
//! runs at a time) and so are `-p`, `-x` and `-s`; a command line is split
//! when it passes 128 KiB, about where GNU's default limit splits it. When a
//! quote is unmatched nothing runs (GNU runs the lines read before it).

use super::{parse, quote, HasArg, Spec};
use crate::shell::command::Context;
use crate::shell::LimitHit;

/// GNU's default cap on a command line's length.
const MAX_LINE: usize = 128 * 1024;

pub(super) fn xargs(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "+0rtpxia:I:n:L:d:s:P:E:",
        long: &[
            ("null", "0", HasArg::No),
            ("no-run-if-empty", "r", HasArg::No),
            ("verbose", "t", HasArg::No),
            ("interactive", "p", HasArg::No),
            ("exit", "x", HasArg::No),
            ("arg-file", "a", HasArg::Yes),
            ("max-args", "n", HasArg::Yes),
            ("max-lines", "L", HasArg::Yes),
            ("delimiter", "d", HasArg::Yes),
            ("max-chars", "s", HasArg::Yes),
            ("max-procs", "P", HasArg::Yes),
            ("eof", "E", HasArg::Yes),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let replace = parsed.options.iter().rev().find_map(|(option, value)| match *option {
        "I" => Some(value.clone()),
        "i" => Some("{}".to_string()),
        _ => None,
    });
    let count = |ctx: &mut Context<'_>, option: &str| -> Result<Result<Option<usize>, ()>, LimitHit> {
        match parsed.value(option) {
            None => Ok(Ok(None)),
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Ok(Some(n))),
                _ => {
                    ctx.error(format_args!("invalid number {} for -{option} option", quote(text)))?;
                    Ok(Err(()))
                }
            },
        }
    };
    let Ok(max_args) = count(ctx, "n")? else { return Ok(1) };
    let Ok(max_lines) = count(ctx, "L")? else { return Ok(1) };
    let delimiter = match parsed.value("d") {
        Some(text) => match delimiter_byte(text) {
            Some(byte) => Some(byte),
            None => {
                ctx.error(format_args!("invalid input delimiter specification {}: the delimiter must be either a single character or an escape sequence starting with \\.", text))?;
                return Ok(1);
            }
        },
        None if parsed.has("0") => Some(0),
        None => None,
    };
    let input = match parsed.value("a") {
        Some(file) => match ctx.read(file) {
            Ok(data) => data,
            Err(error) => {
                ctx.error(format_args!("{}: {}", file, crate::shell::command::error_reason(&error)))?;
                return Ok(1);
            }
        },
        None => ctx.stdin.read_all()?,
    };
    let command: Vec<String> =
        if parsed.operands.is_empty() { vec!["echo".to_string()] } else { parsed.operands.clone() };

    // Each batch is the arguments of one run.
    let mut batches: Vec<Vec<String>> = Vec::new();
    if let Some(replace) = &replace {
        for line in input.split(|&byte| byte == delimiter.unwrap_or(b'\n')) {
            let text = String::from_utf8_lossy(line);
            let text = if delimiter.is_none() { text.trim_start_matches([' ', '\t']) } else { &text };
            if text.is_empty() {
                continue;
            }
            if parsed.value("E").is_some_and(|eof| eof == text) {
                break;
            }
            batches.push(command[1..].iter().map(|arg| arg.replace(replace.as_str(), text)).collect());
        }
        let mut status = 0;
        for batch in batches {
            let argv: Vec<String> = std::iter::once(command[0].clone()).chain(batch).collect();
            match run_one(ctx, &argv, parsed.has("t"))? {
                Step::Continue(failed) => status |= failed,
                Step::Stop(code) => return Ok(code),
            }
        }
        return Ok(if status != 0 { 123 } else { 0 });
    }
    let lines: Vec<Vec<String>> = match delimiter {
        Some(byte) => {
            let mut items: Vec<&[u8]> = input.split(|&b| b == byte).collect();
            if items.last().is_some_and(|last| last.is_empty()) {
                items.pop();
            }
            items.into_iter().map(|item| vec![String::from_utf8_lossy(item).into_owned()]).collect()
        }
        None => match split_quoted(&input) {
            Ok(lines) => lines,
            Err(quote_name) => {
                ctx.error(format_args!(
                    "unmatched {quote_name} quote; by default quotes are special to xargs unless you use the -0 option"
                ))?;
                return Ok(1);
            }
        },
    };
    let mut items: Vec<String> = Vec::new();
    let mut line_ends: Vec<usize> = Vec::new();
    'lines: for line in lines {
        for item in line {
            if parsed.value("E").is_some_and(|eof| eof == item) {
                break 'lines;
            }
            items.push(item);
        }
        line_ends.push(items.len());
    }
    let base_len: usize = command.iter().map(|arg| arg.len() + 1).sum();
    let mut batch: Vec<String> = Vec::new();
    let mut batch_len = base_len;
    let mut lines_in_batch = 0;
    let mut ends = line_ends.iter().peekable();
    for (index, item) in items.into_iter().enumerate() {
        if !batch.is_empty() && batch_len + item.len() + 1 > MAX_LINE {
            batches.push(std::mem::take(&mut batch));
            batch_len = base_len;
            lines_in_batch = 0;
        }
        batch_len += item.len() + 1;
        batch.push(item);
        let mut full = max_args.is_some_and(|n| batch.len() >= n);
        while ends.peek().is_some_and(|&&end| end <= index + 1) {
            ends.next();
            lines_in_batch += 1;
        }
        if max_lines.is_some_and(|n| lines_in_batch >= n) {
            full = true;
        }
        if full {
            batches.push(std::mem::take(&mut batch));
            batch_len = base_len;
            lines_in_batch = 0;
        }
    }
    if !batch.is_empty() || (batches.is_empty() && !parsed.has("r")) {
        batches.push(batch);
    }
    let mut status = 0;
    for batch in batches {
        (ctx.check)()?;
        let argv: Vec<String> = command.iter().cloned().chain(batch).collect();
        match run_one(ctx, &argv, parsed.has("t"))? {
            Step::Continue(failed) => status |= failed,
            Step::Stop(code) => return Ok(code),
        }
    }
    Ok(if status != 0 { 123 } else { 0 })
}

enum Step {
    /// 1 when the command failed.
    Continue(i32),
    /// xargs stops with this status.
    Stop(i32),
}

fn run_one(ctx: &mut Context<'_>, argv: &[String], trace: bool) -> Result<Step, LimitHit> {
    if trace {
        ctx.stderr.write_str(&format!("{}\n", argv.join(" ")))?;
    }
    let status = ctx.runner.run(argv, b"", ctx.stdout, ctx.stderr)?;
    Ok(match status {
        0 => Step::Continue(0),
        255 => {
            ctx.error(format_args!("{}: exited with status 255; aborting", argv[0]))?;
            Step::Stop(124)
        }
        126 | 127 => Step::Stop(status),
        _ => Step::Continue(1),
    })
}

/// `-d`'s delimiter: one byte, or an escape such as `\n`, `\t`, `\0`, `\x2c`.
fn delimiter_byte(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    match bytes {
        [byte] => Some(*byte),
        [b'\\', rest @ ..] => match rest {
            [b'n'] => Some(b'\n'),
            [b't'] => Some(b'\t'),
            [b'r'] => Some(b'\r'),
            [b'0'] => Some(0),
            [b'\\'] => Some(b'\\'),
            [b'a'] => Some(7),
            [b'b'] => Some(8),
            [b'f'] => Some(12),
            [b'v'] => Some(11),
            [b'x', hex @ ..] => u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok(),
            octal if octal.iter().all(u8::is_ascii_digit) => {
                u8::from_str_radix(std::str::from_utf8(octal).ok()?, 8).ok()
            }
            _ => None,
        },
        _ => None,
    }
}

/// xargs's default parsing: blank-separated words, `'…'`, `"…"` and `\`
/// quoting, grouped by input line. Err names the unmatched quote.
fn split_quoted(input: &[u8]) -> Result<Vec<Vec<String>>, &'static str> {
    let mut lines = Vec::new();
    let mut line: Vec<String> = Vec::new();
    let mut word: Vec<u8> = Vec::new();
    let mut in_word = false;
    let mut at = 0;
    while at < input.len() {
        let byte = input[at];
        at += 1;
        match byte {
            b'\n' | b' ' | b'\t' => {
                if in_word {
                    line.push(String::from_utf8_lossy(&word).into_owned());
                    word.clear();
                    in_word = false;
                }
                if byte == b'\n' && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
            }
            b'\'' | b'"' => {
                in_word = true;
                let Some(end) = input[at..].iter().position(|&b| b == byte || b == b'\n') else {
                    return Err(if byte == b'\'' { "single" } else { "double" });
                };
                if input[at + end] == b'\n' {
                    return Err(if byte == b'\'' { "single" } else { "double" });
                }
                word.extend_from_slice(&input[at..at + end]);
                at += end + 1;
            }
            b'\\' if at < input.len() => {
                in_word = true;
                word.push(input[at]);
                at += 1;
            }
            _ => {
                in_word = true;
                word.push(byte);
            }
        }
    }
    if in_word {
        line.push(String::from_utf8_lossy(&word).into_owned());
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test as run_with_echo;
    use crate::storage::MemoryStorage;

    fn xargs(args: &[&str], stdin: &str) -> (i32, String, String) {
        run_with_echo(&MemoryStorage::default(), "xargs", args, stdin)
    }

    fn out(args: &[&str], stdin: &str) -> String {
        xargs(args, stdin).1
    }

    #[test]
    fn groups_arguments_like_gnu() {
        assert_eq!(out(&[], "a b\nc\n"), "a b c\n");
        assert_eq!(out(&["-n1", "echo", "x"], "a b\nc\n"), "x a\nx b\nx c\n");
        assert_eq!(out(&["-n1"], "a 'b c' \"d e\" f\\ g\n"), "a\nb c\nd e\nf g\n");
        assert_eq!(out(&["-I{}", "echo", "[{}]", "{}"], "a\nb\n"), "[a] a\n[b] b\n");
        assert_eq!(out(&["-I", "X", "echo", "<X>"], "  lead  trail  \n"), "<lead  trail  >\n");
        assert_eq!(out(&["-0", "-n1"], "a\0b c\0"), "a\nb c\n");
        assert_eq!(out(&["-d,", "-n1"], "a,b,c"), "a\nb\nc\n");
        assert_eq!(out(&["-d", "\\n", "-n1"], "a\nb\n"), "a\nb\n");
        assert_eq!(out(&["echo", "hi"], ""), "hi\n");
        assert_eq!(out(&["-r", "echo", "hi"], ""), "");
        assert_eq!(out(&["-L1", "echo"], "a b\nc d\n"), "a b\nc d\n");
        assert_eq!(xargs(&["-t", "echo"], "a b\n"), (0, "a b\n".into(), "echo a b\n".into()));
    }

    #[test]
    fn reports_failures_like_gnu() {
        assert_eq!(xargs(&["nosuch"], "a\n").0, 127);
        assert_eq!(xargs(&["false"], "a\n").0, 123);
        assert_eq!(xargs(&["-n1", "cat"], "nope\n"), (123, "".into(), "cat: nope: No such file or directory\n".into()));
        assert_eq!(
            xargs(&[], "a'b\n"),
            (
                1,
                "".into(),
                "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n"
                    .into()
            )
        );
        assert_eq!(xargs(&["-n", "0"], "a\n"), (1, "".into(), "xargs: invalid number '0' for -n option\n".into()));
    }
}
