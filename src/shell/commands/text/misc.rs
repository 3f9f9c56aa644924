//! Small line tools: `rev` (util-linux), `nl`, `paste` and `fold` (GNU).
//! `nl` has no logical pages: `\:` section lines are ordinary text.

use crate::shell::command::{Context, Lines, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::StorageError;

use super::common::{
    flush_at, input_error, next_line_reporting, open_lines, operands_or_stdin, parse, tick, usage, Arg, HasArg,
    OpenStyle, Spec, OUT_PIECE,
};

/// Writes what `out` gathered, then the tool's message for `path`: GNU's
/// `error()` flushes stdout first, so the message follows the output
/// printed before it.
fn flushed_error(ctx: &mut Context<'_>, out: &mut Vec<u8>, path: &str, error: &StorageError) -> Result<(), LimitHit> {
    ctx.stdout.write(out)?;
    out.clear();
    input_error(ctx, path, OpenStyle::Plain, error)
}

/// Opens an input to be read a line at a time; on failure writes `out`,
/// then the message, and returns `None`.
fn open_flushed<'a>(ctx: &mut Context<'a>, out: &mut Vec<u8>, path: &str) -> Result<Option<Lines<'a>>, LimitHit> {
    match ctx.open(path) {
        Ok(reader) => Ok(Some(Lines::new(reader, ctx.max_memory))),
        Err(error) => {
            flushed_error(ctx, out, path, &error)?;
            Ok(None)
        }
    }
}

/// The next line of `lines` into `line`; false at the end. A storage
/// failure on a later piece writes `out` and the message, sets `failed`
/// and ends the input.
fn next_line(
    ctx: &mut Context<'_>,
    lines: &mut Lines<'_>,
    delim: u8,
    line: &mut Vec<u8>,
    out: &mut Vec<u8>,
    path: &str,
    failed: &mut bool,
) -> Result<bool, LimitHit> {
    next_line_reporting(ctx, lines, delim, line, failed, |ctx, error| flushed_error(ctx, out, path, error))
}

/// `rev [FILE]...`: reverses the bytes of each line.
pub(super) fn rev(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let files: Vec<String> = args.iter().filter(|a| *a != "--").cloned().collect();
    let default = ["-".to_string()];
    let mut status = 0;
    let mut ticks = 0;
    let mut out = Vec::new();
    // A line at a time (stdin as it comes, a file a piece at a time).
    for file in if files.is_empty() { &default[..] } else { &files[..] } {
        let Some(mut lines) = open_lines(ctx, file, OpenStyle::Rev)? else {
            status = 1;
            continue;
        };
        loop {
            let line = match lines.next_line(b'\n') {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(ReadFailed::Limit(hit)) => return Err(hit),
                Err(ReadFailed::Storage(error)) => {
                    input_error(ctx, file, OpenStyle::Rev, &error)?;
                    status = 1;
                    break;
                }
            };
            tick(ctx, &mut ticks)?;
            out.extend(line.iter().rev());
            if lines.delimited() {
                out.push(b'\n');
            }
            if out.len() >= 1 << 16 {
                ctx.stdout.write(&out)?;
                out.clear();
            }
        }
        ctx.stdout.write(&out)?;
        out.clear();
    }
    Ok(status)
}

const NL_SPEC: Spec = Spec {
    short: "b:d:f:h:i:l:n:ps:v:w:",
    long: &[
        ("body-numbering", "b", HasArg::Yes),
        ("section-delimiter", "d", HasArg::Yes),
        ("footer-numbering", "f", HasArg::Yes),
        ("header-numbering", "h", HasArg::Yes),
        ("line-increment", "i", HasArg::Yes),
        ("join-blank-lines", "l", HasArg::Yes),
        ("number-format", "n", HasArg::Yes),
        ("no-renumber", "p", HasArg::No),
        ("number-separator", "s", HasArg::Yes),
        ("starting-line-number", "v", HasArg::Yes),
        ("number-width", "w", HasArg::Yes),
    ],
};

/// `nl [-b a|t|n|pRE] [-n ln|rn|rz] [-w N] [-s SEP] [-v N] [-i N] [FILE]...`
pub(super) fn nl(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&NL_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    enum Style {
        All,
        NonEmpty,
        None,
        Regex(regex::bytes::Regex),
    }
    let (mut style, mut format, mut width, mut separator) =
        (Style::NonEmpty, "rn".to_string(), 6usize, "\t".to_string());
    let (mut number, mut increment): (i64, i64) = (1, 1);
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt("b", Some(value)) => {
                style = match value.as_str() {
                    "a" => Style::All,
                    "t" => Style::NonEmpty,
                    "n" => Style::None,
                    other => match other.strip_prefix('p').map(|re| regex::bytes::Regex::new(&format!("(?-u){re}"))) {
                        Some(Ok(re)) => Style::Regex(re),
                        _ => {
                            ctx.error(format!("invalid body numbering style: '{value}'"))?;
                            return Ok(1);
                        }
                    },
                }
            }
            Arg::Opt("n", Some(value)) => {
                if !matches!(value.as_str(), "ln" | "rn" | "rz") {
                    ctx.error(format!("invalid line numbering format: '{value}'"))?;
                    return Ok(1);
                }
                format = value;
            }
            Arg::Opt(key @ ("w" | "v" | "i"), Some(value)) => {
                let parsed: Option<i64> = value.parse().ok();
                match (key, parsed) {
                    ("w", Some(w @ 1..=1000)) => width = w as usize,
                    ("v", Some(v)) => number = v,
                    ("i", Some(i)) => increment = i,
                    _ => {
                        let what = match key {
                            "w" => "line number field width",
                            "v" => "starting line number",
                            _ => "line number increment",
                        };
                        ctx.error(format!("invalid {what}: '{value}'"))?;
                        return Ok(1);
                    }
                }
            }
            Arg::Opt("s", Some(value)) => separator = value,
            Arg::Opt(..) => {}
        }
    }
    let blank = " ".repeat(width + separator.len());
    let mut status = 0;
    let mut ticks = 0;
    let mut out = Vec::new();
    let mut line = Vec::new();
    // A line at a time (stdin as it comes, a file a piece at a time); the
    // output goes out 64 KiB at a time, so `yes | nl | head` ends at once.
    for file in operands_or_stdin(&files) {
        let Some(mut lines) = open_flushed(ctx, &mut out, file)? else {
            status = 1;
            continue;
        };
        let mut failed = false;
        while next_line(ctx, &mut lines, b'\n', &mut line, &mut out, file, &mut failed)? {
            tick(ctx, &mut ticks)?;
            let numbered = match &style {
                Style::All => true,
                Style::NonEmpty => !line.is_empty(),
                Style::None => false,
                Style::Regex(re) => re.is_match(&line),
            };
            if numbered {
                let text = match format.as_str() {
                    "ln" => super::super::layout::pad(&number.to_string(), width, ' ', false),
                    "rz" => super::super::layout::zero_padded(i128::from(number), width),
                    _ => super::super::layout::pad(&number.to_string(), width, ' ', true),
                };
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(separator.as_bytes());
                number = number.wrapping_add(increment);
            } else {
                out.extend_from_slice(blank.as_bytes());
            }
            out.extend_from_slice(&line);
            out.push(b'\n');
            flush_at(ctx, &mut out, OUT_PIECE)?;
        }
        if failed {
            status = 1;
        }
    }
    ctx.stdout.write(&out)?;
    Ok(status)
}

const PASTE_SPEC: Spec = Spec {
    short: "d:sz",
    long: &[("delimiters", "d", HasArg::Yes), ("serial", "s", HasArg::No), ("zero-terminated", "z", HasArg::No)],
};

/// Parses paste's delimiter list: `\n`, `\t`, `\\`, `\0` (no delimiter).
fn delimiter_list(text: &str) -> Vec<Option<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'\\' && at + 1 < bytes.len() {
            out.push(match bytes[at + 1] {
                b'n' => Some(b'\n'),
                b't' => Some(b'\t'),
                b'0' => None,
                other => Some(other),
            });
            at += 2;
        } else {
            out.push(Some(bytes[at]));
            at += 1;
        }
    }
    out
}

/// `paste [-s] [-d LIST] [FILE]...`
pub(super) fn paste(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&PASTE_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut delims, mut serial, mut end) = (vec![Some(b'\t')], false, b'\n');
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt("d", Some(value)) => delims = delimiter_list(&value),
            Arg::Opt("s", _) => serial = true,
            Arg::Opt(..) => end = 0,
        }
    }
    if delims.is_empty() {
        delims.push(None);
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut ticks = 0;
    let mut status = 0;
    let mut out = Vec::new();
    let mut line = Vec::new();
    let mut failed = false;
    if serial {
        // One input at a time, its lines joined into one; an input that
        // cannot be opened is skipped, a directory gives an empty line.
        for file in &files {
            // GNU prints the input's newline, then the message of a read
            // that failed (a directory fails on its first read).
            let mut lines = match ctx.open(file) {
                Ok(reader) => Lines::new(reader, ctx.max_memory),
                Err(error @ StorageError::IsADirectory(_)) => {
                    out.push(end);
                    flushed_error(ctx, &mut out, file, &error)?;
                    status = 1;
                    continue;
                }
                Err(error) => {
                    flushed_error(ctx, &mut out, file, &error)?;
                    status = 1;
                    continue;
                }
            };
            let mut index = 0;
            let mut unreadable = None;
            loop {
                let line = match lines.next_line(end) {
                    Ok(Some(line)) => line,
                    Ok(None) => break,
                    Err(ReadFailed::Limit(hit)) => return Err(hit),
                    Err(ReadFailed::Storage(error)) => {
                        unreadable = Some(error);
                        break;
                    }
                };
                tick(ctx, &mut ticks)?;
                if index > 0 {
                    out.extend(delims[(index - 1) % delims.len()]);
                }
                out.extend_from_slice(line);
                index += 1;
                flush_at(ctx, &mut out, OUT_PIECE)?;
            }
            out.push(end);
            if let Some(error) = unreadable {
                flushed_error(ctx, &mut out, file, &error)?;
                status = 1;
            }
        }
        ctx.stdout.write(&out)?;
        return Ok(if failed { 1 } else { status });
    }
    // Every input is opened first (the first that cannot be ends paste, as
    // GNU's); then a line of each in turn, as GNU's paste_parallel: the
    // delimiters after inputs that ended wait until a later input of the
    // row has a line. Every `-` reads the one stdin; a directory opens and
    // fails on its first read.
    let count = files.len();
    let mut inputs: Vec<Option<Lines<'_>>> = Vec::with_capacity(count);
    let mut owner = Vec::with_capacity(count);
    let mut unreadable: Vec<Option<StorageError>> = Vec::with_capacity(count);
    for (index, file) in files.iter().enumerate() {
        unreadable.push(None);
        if file == "-" {
            if let Some(first) = files[..index].iter().position(|f| f == "-") {
                owner.push(first);
                inputs.push(None);
                continue;
            }
        }
        owner.push(index);
        match ctx.open(file) {
            Ok(reader) => inputs.push(Some(Lines::new(reader, ctx.max_memory))),
            Err(error @ StorageError::IsADirectory(_)) => {
                unreadable[index] = Some(error);
                inputs.push(None);
            }
            Err(error) => {
                input_error(ctx, file, OpenStyle::Plain, &error)?;
                return Ok(1);
            }
        }
    }
    let mut closed = vec![false; count];
    let mut files_open = count;
    let mut saved = Vec::new();
    while files_open > 0 {
        tick(ctx, &mut ticks)?;
        let mut somedone = false;
        let mut delim = 0;
        saved.clear();
        for (index, file) in files.iter().enumerate() {
            if files_open == 0 {
                break;
            }
            let mut got = false;
            if !closed[index] {
                if let Some(error) = unreadable[index].take() {
                    flushed_error(ctx, &mut out, file, &error)?;
                    status = 1;
                } else if let Some(lines) = &mut inputs[owner[index]] {
                    got = next_line(ctx, lines, end, &mut line, &mut out, file, &mut failed)?;
                }
                if got {
                    out.append(&mut saved);
                    out.extend_from_slice(&line);
                } else {
                    closed[index] = true;
                    files_open -= 1;
                }
            }
            if index + 1 == count {
                if got || somedone {
                    out.append(&mut saved);
                    out.push(end);
                }
            } else {
                if got {
                    out.extend(delims[delim]);
                } else {
                    saved.extend(delims[delim]);
                }
                delim = (delim + 1) % delims.len();
            }
            somedone |= got;
        }
        flush_at(ctx, &mut out, OUT_PIECE)?;
    }
    ctx.stdout.write(&out)?;
    Ok(if failed { 1 } else { status })
}

const FOLD_SPEC: Spec = Spec {
    short: "bsw:",
    long: &[("bytes", "b", HasArg::No), ("spaces", "s", HasArg::No), ("width", "w", HasArg::Yes)],
};

/// `fold [-bs] [-w WIDTH] [FILE]...`
pub(super) fn fold(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    // The obsolete `-5` means `-w 5`.
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg.strip_prefix('-') {
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => format!("-w{digits}"),
            _ => arg.clone(),
        })
        .collect();
    let parsed = match parse(&FOLD_SPEC, &args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut bytes, mut spaces, mut width) = (false, false, 80usize);
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt("b", _) => bytes = true,
            Arg::Opt("s", _) => spaces = true,
            Arg::Opt(_, value) => {
                let value = value.unwrap_or_default();
                match value.parse::<usize>() {
                    Ok(w) if w > 0 => width = w,
                    _ => {
                        ctx.error(format!("invalid number of columns: '{value}'"))?;
                        return Ok(1);
                    }
                }
            }
        }
    }
    let advance = |column: usize, byte: u8| -> usize {
        if bytes {
            return column + 1;
        }
        match byte {
            b'\x08' => column.saturating_sub(1),
            b'\r' => 0,
            b'\t' => column + 8 - column % 8,
            _ => column + 1,
        }
    };
    let mut status = 0;
    let mut ticks = 0;
    let mut out = Vec::new();
    // Each input a piece at a time (stdin as it comes); the line being
    // folded carries over from one piece to the next.
    for file in operands_or_stdin(&files) {
        let mut reader = match ctx.open(file) {
            Ok(reader) => reader,
            Err(error) => {
                flushed_error(ctx, &mut out, file, &error)?;
                status = 1;
                continue;
            }
        };
        let mut line: Vec<u8> = Vec::new();
        let mut column = 0;
        let mut unreadable = None;
        loop {
            let piece = match reader.next_piece() {
                Ok(Some(piece)) => piece,
                Ok(None) => break,
                Err(ReadFailed::Limit(hit)) => return Err(hit),
                Err(ReadFailed::Storage(error)) => {
                    unreadable = Some(error);
                    break;
                }
            };
            let special = |byte: u8| byte == b'\n' || (!bytes && matches!(byte, b'\x08' | b'\r' | b'\t'));
            let mut at = 0;
            while at < piece.len() {
                tick(ctx, &mut ticks)?;
                let byte = piece[at];
                if column < width && !special(byte) {
                    // A run of bytes one column wide each: as much of it as
                    // the line has room for, at once.
                    let room = (width - column).min(piece.len() - at);
                    let take = piece[at..at + room].iter().position(|&b| special(b)).unwrap_or(room);
                    line.extend_from_slice(&piece[at..at + take]);
                    column += take;
                    at += take;
                    continue;
                }
                at += 1;
                if byte == b'\n' {
                    out.extend_from_slice(&line);
                    out.push(b'\n');
                    line.clear();
                    column = 0;
                    continue;
                }
                loop {
                    let next = advance(column, byte);
                    if next <= width {
                        column = next;
                        line.push(byte);
                        break;
                    }
                    if spaces {
                        if let Some(blank) = line.iter().rposition(|&b| b == b' ' || b == b'\t') {
                            out.extend_from_slice(&line[..=blank]);
                            out.push(b'\n');
                            line.drain(..=blank);
                            column = line.iter().fold(0, |c, &b| advance(c, b));
                            continue;
                        }
                    }
                    if line.is_empty() {
                        column = next;
                        line.push(byte);
                        break;
                    }
                    out.extend_from_slice(&line);
                    out.push(b'\n');
                    line.clear();
                    column = 0;
                }
            }
            // Backspaces and carriage returns can keep a line's column
            // small while its bytes grow: the memory budget bounds it.
            if line.len() > ctx.max_memory {
                return Err(LimitHit::Memory);
            }
            flush_at(ctx, &mut out, OUT_PIECE)?;
        }
        // GNU writes the line it was folding, then the message.
        out.extend_from_slice(&line);
        if let Some(error) = unreadable {
            flushed_error(ctx, &mut out, file, &error)?;
            status = 1;
        }
    }
    ctx.stdout.write(&out)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/p1", b"1\n2\n3\n").unwrap();
        storage.write("/p2", b"a\nb").unwrap();
        run_for_test(&storage, name, args, stdin)
    }

    #[test]
    fn rev_lines() {
        assert_eq!(run("rev", &[], "abc\ndef").1, "cba\nfed");
        assert_eq!(run("rev", &[], "a\n\n").1, "a\n\n");
        assert_eq!(
            run("rev", &["nope"], ""),
            (1, "".into(), "rev: cannot open nope: No such file or directory\n".into())
        );
    }

    #[test]
    fn nl_numbering() {
        assert_eq!(run("nl", &[], "a\n\nb\n").1, "     1\ta\n       \n     2\tb\n");
        assert_eq!(run("nl", &["-s::", "-ba"], "a\n\nb\n").1, "     1::a\n     2::\n     3::b\n");
        assert_eq!(run("nl", &["-ba", "-w3", "-s:"], "a\nb\n").1, "  1:a\n  2:b\n");
        assert_eq!(run("nl", &["-n", "ln"], "a\nb\n").1, "1     \ta\n2     \tb\n");
        assert_eq!(run("nl", &["-n", "rz", "-v", "5", "-i", "2"], "a\nb\n").1, "000005\ta\n000007\tb\n");
        assert_eq!(run("nl", &[], "abc").1, "     1\tabc\n");
    }

    #[test]
    fn paste_columns() {
        assert_eq!(run("paste", &["p1", "p2"], "").1, "1\ta\n2\tb\n3\t\n");
        assert_eq!(run("paste", &["-d", ",:", "p1", "p2", "p1"], "").1, "1,a:1\n2,b:2\n3,:3\n");
        assert_eq!(run("paste", &["-s", "p1", "p2"], "").1, "1\t2\t3\na\tb\n");
        assert_eq!(run("paste", &["-s", "-d", "\\n,", "p1"], "").1, "1\n2,3\n");
        assert_eq!(run("paste", &["-", "-"], "x\ny\nz\n").1, "x\ty\nz\t\n");
        assert_eq!(run("paste", &["-d", "", "p1", "p2"], "").1, "1a\n2b\n3\n");
        assert_eq!(run("paste", &["nope"], "").2, "paste: nope: No such file or directory\n");
    }

    #[test]
    fn fold_widths() {
        assert_eq!(run("fold", &["-w", "4"], "abcdefghij\n").1, "abcd\nefgh\nij\n");
        assert_eq!(run("fold", &["-s", "-w", "5"], "ab cd ef gh\n").1, "ab \ncd \nef gh\n");
        assert_eq!(run("fold", &["-w", "4"], "a\tb\n").1, "a\n\t\nb\n");
        assert_eq!(run("fold", &["-3"], "abcd").1, "abc\nd");
    }
}
