//! Small line tools: `rev` (util-linux), `nl`, `paste` and `fold` (GNU).
//! `nl` has no logical pages: `\:` section lines are ordinary text.

use crate::shell::command::{Context, ReadFailed};
use crate::shell::LimitHit;

use super::common::{input_error, lines, open_lines, parse, read_input, tick, usage, Arg, HasArg, OpenStyle, Spec};

/// Reads every input (stdin when none); `None` entries failed (already
/// reported).
fn inputs<'a>(
    ctx: &mut Context<'a>,
    files: &[String],
    style: OpenStyle,
) -> Result<Vec<Option<std::borrow::Cow<'a, [u8]>>>, LimitHit> {
    let mut out = Vec::new();
    let default = ["-".to_string()];
    for file in if files.is_empty() { &default[..] } else { files } {
        out.push(read_input(ctx, file, style)?);
    }
    Ok(out)
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
    for data in inputs(ctx, &files, OpenStyle::Plain)? {
        let Some(data) = data else {
            status = 1;
            continue;
        };
        let mut out = Vec::with_capacity(data.len() + data.len() / 4);
        for line in lines(&data, b'\n') {
            tick(ctx, &mut ticks)?;
            let numbered = match &style {
                Style::All => true,
                Style::NonEmpty => !line.is_empty(),
                Style::None => false,
                Style::Regex(re) => re.is_match(line),
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
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        ctx.stdout.write(&out)?;
    }
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
    let datas = inputs(ctx, &files, OpenStyle::Plain)?;
    if datas.iter().any(Option::is_none) {
        return Ok(1);
    }
    let sources: Vec<Vec<&[u8]>> = datas.iter().flatten().map(|data| lines(data, end).collect()).collect();
    let mut out = Vec::new();
    let mut ticks = 0;
    if serial {
        for source in &sources {
            for (index, line) in source.iter().enumerate() {
                tick(ctx, &mut ticks)?;
                if index > 0 {
                    out.extend(delims[(index - 1) % delims.len()]);
                }
                out.extend_from_slice(line);
            }
            out.push(end);
        }
        ctx.stdout.write(&out)?;
        return Ok(0);
    }
    // Every `-` reads from the one stdin, taking lines in turn.
    let mut cursors = vec![0usize; files.len()];
    let stdin_index = files.iter().position(|f| f == "-");
    loop {
        tick(ctx, &mut ticks)?;
        let mut row = Vec::new();
        let mut any = false;
        for (index, file) in files.iter().enumerate() {
            let owner = if file == "-" { stdin_index.unwrap_or(index) } else { index };
            if let Some(line) = sources[owner].get(cursors[owner]) {
                row.extend_from_slice(line);
                cursors[owner] += 1;
                any = true;
            }
            if index + 1 < files.len() {
                row.extend(delims[index % delims.len()]);
            }
        }
        if !any {
            break;
        }
        out.extend_from_slice(&row);
        out.push(end);
    }
    ctx.stdout.write(&out)?;
    Ok(0)
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
    for data in inputs(ctx, &files, OpenStyle::Plain)? {
        let Some(data) = data else {
            status = 1;
            continue;
        };
        let mut out = Vec::with_capacity(data.len() + data.len() / 8);
        let mut line: Vec<u8> = Vec::new();
        let mut column = 0;
        for &byte in data.iter() {
            tick(ctx, &mut ticks)?;
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
        out.extend_from_slice(&line);
        ctx.stdout.write(&out)?;
    }
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
