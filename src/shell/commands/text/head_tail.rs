//! `head` and `tail`, GNU style: `-n`/`-c` counts (with `-N` for "all but
//! the last N" in head and `+N` for "from the Nth" in tail), the obsolete
//! `-5` form, and `==> name <==` headers for several files. `tail -f` does
//! not follow: the storage never grows behind a script's back.

use crate::shell::command::{error_reason, Context, ReadFailed, Reader, Stdin, FILE_PIECE};
use crate::shell::LimitHit;
use crate::storage::{FileKind, OpenFile};

use super::common::{input_error, parse, parse_size, quote, usage, Arg, HasArg, OpenStyle, Spec};

/// What to print of each input.
#[derive(Clone, Copy)]
struct Amount {
    bytes: bool,
    /// head: all but the last `count`; tail: from the `count`th on.
    flipped: bool,
    count: u64,
}

const HEAD_SPEC: Spec = Spec {
    short: "n:c:qvz",
    long: &[
        ("lines", "n", HasArg::Yes),
        ("bytes", "c", HasArg::Yes),
        ("quiet", "q", HasArg::No),
        ("silent", "q", HasArg::No),
        ("verbose", "v", HasArg::No),
        ("zero-terminated", "z", HasArg::No),
    ],
};

const TAIL_SPEC: Spec = Spec {
    short: "n:c:qvzfFs:",
    long: &[
        ("lines", "n", HasArg::Yes),
        ("bytes", "c", HasArg::Yes),
        ("quiet", "q", HasArg::No),
        ("silent", "q", HasArg::No),
        ("verbose", "v", HasArg::No),
        ("zero-terminated", "z", HasArg::No),
        ("follow", "f", HasArg::Optional),
        ("retry", "retry", HasArg::No),
        ("sleep-interval", "s", HasArg::Yes),
        ("pid", "pid", HasArg::Yes),
        ("max-unchanged-stats", "max-unchanged-stats", HasArg::Yes),
    ],
};

/// Rewrites the obsolete first argument (`-5`, `-5c`, tail's `+5`) into
/// `-n`/`-c` options.
fn obsolete(args: &[String], tail: bool) -> Vec<String> {
    let mut out = args.to_vec();
    let Some(first) = args.first() else { return out };
    let (sign, body) = match first.as_bytes().first() {
        Some(b'-') => ('-', &first[1..]),
        Some(b'+') if tail => ('+', &first[1..]),
        _ => return out,
    };
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let suffix = &body[digits..];
    let (letter, rest) = match suffix.as_bytes().first() {
        Some(b'c') => ("c", &suffix[1..]),
        Some(b'l') => ("n", &suffix[1..]),
        _ => ("n", suffix),
    };
    if !rest.is_empty() || (digits == 0 && (sign == '-' || !suffix.is_empty() && letter == "n")) {
        return out;
    }
    if digits == 0 && sign == '+' && suffix.is_empty() {
        return out;
    }
    let number = if digits == 0 { "10" } else { &body[..digits] };
    let value = match (tail, sign) {
        (true, '+') => format!("+{number}"),
        _ => number.to_string(),
    };
    out[0] = format!("-{letter}{value}");
    out
}

/// A count with GNU head's and tail's suffixes: `parse_size`'s, and also
/// lower-case `k` and `m` (`head -c 1k` is 1024 bytes, `1kB` 1000), which
/// their `xstrtoumax` accepts (but not `g` or `w`).
fn count_size(text: &str) -> Option<u64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, suffix) = text.split_at(digits);
    match suffix.as_bytes().first() {
        Some(letter) if !b"bEGKkMmPQRTYZ".contains(letter) => None,
        Some(b'k' | b'm') if matches!(&suffix[1..], "" | "B" | "iB") => {
            parse_size(&format!("{number}{}{}", suffix[..1].to_ascii_uppercase(), &suffix[1..]))
        }
        _ => parse_size(text),
    }
}

/// `head [-n N|-c N] [-qvz] [FILE]...`
pub(super) fn head(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    run(ctx, args, false)
}

/// `tail [-n [+]N|-c [+]N] [-qvz] [-f] [FILE]...`
pub(super) fn tail(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    run(ctx, args, true)
}

fn run(ctx: &mut Context<'_>, args: &[String], is_tail: bool) -> Result<i32, LimitHit> {
    let args = obsolete(args, is_tail);
    let parsed = match parse(if is_tail { &TAIL_SPEC } else { &HEAD_SPEC }, &args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut amount = Amount { bytes: false, flipped: false, count: 10 };
    let mut headers: Option<bool> = None;
    let mut delim = b'\n';
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt(key @ ("n" | "c"), Some(value)) => {
                let bytes = key == "c";
                let (flipped, digits) = match value.as_bytes().first() {
                    Some(b'-') if !is_tail => (true, &value[1..]),
                    Some(b'+') if is_tail => (true, &value[1..]),
                    Some(b'-' | b'+') => (false, &value[1..]),
                    _ => (false, value.as_str()),
                };
                let Some(count) = count_size(digits) else {
                    let what = if bytes { "bytes" } else { "lines" };
                    ctx.error(format!("invalid number of {what}: '{value}'"))?;
                    return Ok(1);
                };
                amount = Amount { bytes, flipped, count };
            }
            Arg::Opt("q", _) => headers = Some(false),
            Arg::Opt("v", _) => headers = Some(true),
            Arg::Opt("z", _) => delim = 0,
            Arg::Opt(..) => {}
        }
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let headers = headers.unwrap_or(files.len() > 1);
    let mut status = 0;
    let mut first = true;
    for file in &files {
        if file == "-" {
            if headers {
                let line = format!("{}==> standard input <==\n", if first { "" } else { "\n" });
                ctx.stdout.write_str(&line)?;
            }
            first = false;
            let mut stdin = ctx.stdin;
            match stream(ctx, &mut stdin, amount, delim, is_tail) {
                Ok(()) => {}
                Err(ReadFailed::Limit(hit)) => return Err(hit),
                Err(ReadFailed::Storage(_)) => status = 1,
            }
            continue;
        }
        // A file is read a piece at a time; tail reads it from its end.
        let reader = match ctx.open(file) {
            Ok(reader) => reader,
            Err(error) => {
                input_error(ctx, file, OpenStyle::CannotOpen, &error)?;
                status = 1;
                continue;
            }
        };
        if headers {
            let line = format!("{}==> {file} <==\n", if first { "" } else { "\n" });
            ctx.stdout.write_str(&line)?;
        }
        first = false;
        let opened = reader.open_file().filter(|_| !reader.is_stream()).cloned();
        let result = match (ctx.stat(file), opened) {
            (Ok(meta), Some(opened)) if is_tail && !amount.flipped && meta.kind == FileKind::File => {
                tail_of_file(ctx, opened.as_ref(), amount, delim)
            }
            _ => stream(ctx, &mut Pieces { reader, buf: Vec::new(), pos: 0 }, amount, delim, is_tail),
        };
        match result {
            Ok(()) => {}
            Err(ReadFailed::Limit(hit)) => return Err(hit),
            Err(ReadFailed::Storage(error)) => {
                ctx.error(format!("error reading {}: {}", quote(file), error_reason(&error)))?;
                status = 1;
            }
        }
    }
    Ok(status)
}

/// What head and tail read from: stdin, or a file's pieces.
trait Source {
    /// What is at hand (waiting for some); `None` at the end.
    fn chunk(&mut self) -> Result<Option<Vec<u8>>, ReadFailed>;
    /// At most `max` bytes of what is at hand; `None` at the end.
    fn up_to(&mut self, max: usize) -> Result<Option<Vec<u8>>, ReadFailed>;
    /// Appends the next line with its delimiter; false at the end.
    fn until(&mut self, delim: u8, line: &mut Vec<u8>) -> Result<bool, ReadFailed>;
}

impl Source for &Stdin {
    fn chunk(&mut self) -> Result<Option<Vec<u8>>, ReadFailed> {
        Ok(self.read_chunk()?)
    }
    fn up_to(&mut self, max: usize) -> Result<Option<Vec<u8>>, ReadFailed> {
        Ok(self.read_up_to(max)?)
    }
    fn until(&mut self, delim: u8, line: &mut Vec<u8>) -> Result<bool, ReadFailed> {
        Ok(self.read_until(delim, line)?)
    }
}

/// A file read a piece at a time, with what is left of the last piece.
struct Pieces<'a> {
    reader: Reader<'a>,
    buf: Vec<u8>,
    pos: usize,
}

impl Pieces<'_> {
    /// Makes sure some bytes are at hand; false at the end.
    fn fill(&mut self) -> Result<bool, ReadFailed> {
        if self.pos < self.buf.len() {
            return Ok(true);
        }
        match self.reader.next_piece()? {
            Some(piece) => {
                self.buf = piece;
                self.pos = 0;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl Source for Pieces<'_> {
    fn chunk(&mut self) -> Result<Option<Vec<u8>>, ReadFailed> {
        if !self.fill()? {
            return Ok(None);
        }
        let rest = self.buf.split_off(self.pos);
        self.buf.clear();
        self.pos = 0;
        Ok(Some(rest))
    }
    fn up_to(&mut self, max: usize) -> Result<Option<Vec<u8>>, ReadFailed> {
        if !self.fill()? {
            return Ok(None);
        }
        let end = self.pos.saturating_add(max).min(self.buf.len());
        let part = self.buf[self.pos..end].to_vec();
        self.pos = end;
        Ok(Some(part))
    }
    fn until(&mut self, delim: u8, line: &mut Vec<u8>) -> Result<bool, ReadFailed> {
        let mut any = false;
        while self.fill()? {
            any = true;
            let rest = &self.buf[self.pos..];
            match memchr::memchr(delim, rest) {
                Some(at) => {
                    line.extend_from_slice(&rest[..=at]);
                    self.pos += at + 1;
                    return Ok(true);
                }
                None => {
                    line.extend_from_slice(rest);
                    self.pos = self.buf.len();
                }
            }
        }
        Ok(any)
    }
}

/// `tail` of a regular file without `+`: finds where the last lines or
/// bytes start by reading pieces from the end, then copies from there, so
/// only a piece is held at a time.
fn tail_of_file(ctx: &mut Context<'_>, file: &dyn OpenFile, amount: Amount, delim: u8) -> Result<(), ReadFailed> {
    let size = file.size();
    let read = |offset: u64, len: usize| file.read_at(offset, len).map_err(ReadFailed::Storage);
    let start = if amount.bytes {
        size.saturating_sub(amount.count)
    } else if amount.count == 0 {
        size
    } else {
        let mut end = size;
        if size > 0 && read(size - 1, 1)? == [delim] {
            end -= 1;
        }
        let mut remaining = amount.count;
        let mut found = 0;
        while end > 0 {
            (ctx.check)()?;
            let from = end.saturating_sub(FILE_PIECE as u64);
            let piece = read(from, usize::try_from(end - from).unwrap_or(FILE_PIECE))?;
            if let Some(at) =
                memchr::memrchr_iter(delim, &piece).nth(usize::try_from(remaining - 1).unwrap_or(usize::MAX))
            {
                found = from + at as u64 + 1;
                break;
            }
            remaining -= memchr::memrchr_iter(delim, &piece).count() as u64;
            end = from;
        }
        found
    };
    let mut offset = start;
    loop {
        (ctx.check)()?;
        let piece = read(offset, FILE_PIECE)?;
        if piece.is_empty() {
            return Ok(());
        }
        offset += piece.len() as u64;
        ctx.stdout.write(&piece)?;
    }
}

/// head or tail of an input as it comes: head stops reading once it has
/// what it prints (a writer into stdin then meets a closed pipe), tail
/// keeps only the lines or bytes that may still be printed.
fn stream(
    ctx: &mut Context<'_>,
    input: &mut dyn Source,
    amount: Amount,
    delim: u8,
    is_tail: bool,
) -> Result<(), ReadFailed> {
    let count = clamp(amount.count);
    match (is_tail, amount.bytes, amount.flipped) {
        (false, false, false) => {
            let mut line = Vec::new();
            for _ in 0..count {
                line.clear();
                if !input.until(delim, &mut line)? {
                    break;
                }
                ctx.stdout.write(&line)?;
            }
        }
        (false, true, false) => {
            let mut left = count;
            while left > 0 {
                let Some(chunk) = input.up_to(left.min(1 << 16))? else { break };
                left -= chunk.len();
                ctx.stdout.write(&chunk)?;
            }
        }
        (true, _, true) => {
            // From the count-th line or byte on: skip, then copy.
            let mut skip = count.saturating_sub(1);
            let mut line = Vec::new();
            while skip > 0 {
                if amount.bytes {
                    let Some(chunk) = input.up_to(skip.min(1 << 16))? else { return Ok(()) };
                    skip -= chunk.len();
                } else {
                    line.clear();
                    if !input.until(delim, &mut line)? {
                        return Ok(());
                    }
                    skip -= 1;
                }
            }
            while let Some(chunk) = input.chunk()? {
                ctx.stdout.write(&chunk)?;
            }
        }
        (true, _, false) => {
            // Only what may still be among the last `count` is kept.
            let mut kept: Vec<u8> = Vec::new();
            while let Some(chunk) = input.chunk()? {
                kept.extend_from_slice(&chunk);
                if kept.len() > (4 << 20) {
                    let start = tail_range(&kept, amount, delim).start;
                    kept.drain(..start);
                    if kept.len() > ctx.max_memory {
                        return Err(ReadFailed::Limit(LimitHit::Memory));
                    }
                }
            }
            let range = tail_range(&kept, amount, delim);
            ctx.stdout.write(&kept[range])?;
        }
        (false, _, true) => {
            let mut data = Vec::new();
            while let Some(chunk) = input.chunk()? {
                data.extend_from_slice(&chunk);
                if data.len() > ctx.max_memory {
                    return Err(ReadFailed::Limit(LimitHit::Memory));
                }
            }
            ctx.stdout.write(&data[head_range(&data, amount, delim)])?;
        }
    }
    Ok(())
}

/// Converts a count to an index, saturating (a count past the data is
/// "everything").
fn clamp(count: u64) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// The start of the `count`th line from the end (the last line may lack
/// its delimiter and still counts).
fn start_of_last_lines(data: &[u8], count: usize, delim: u8) -> usize {
    if count == 0 {
        return data.len();
    }
    let mut end = data.len();
    if data.last() == Some(&delim) {
        end -= 1;
    }
    let mut remaining = count;
    for pos in memchr::memrchr_iter(delim, &data[..end]) {
        remaining -= 1;
        if remaining == 0 {
            return pos + 1;
        }
    }
    0
}

/// The end of the first `count` lines.
fn end_of_first_lines(data: &[u8], count: usize, delim: u8) -> usize {
    if count == 0 {
        return 0;
    }
    memchr::memchr_iter(delim, data).nth(count - 1).map_or(data.len(), |pos| pos + 1)
}

fn head_range(data: &[u8], amount: Amount, delim: u8) -> std::ops::Range<usize> {
    let count = clamp(amount.count);
    let end = match (amount.bytes, amount.flipped) {
        (true, false) => count.min(data.len()),
        (true, true) => data.len().saturating_sub(count),
        (false, false) => end_of_first_lines(data, count, delim),
        (false, true) => start_of_last_lines(data, count, delim),
    };
    0..end
}

fn tail_range(data: &[u8], amount: Amount, delim: u8) -> std::ops::Range<usize> {
    let count = clamp(amount.count);
    let start = match (amount.bytes, amount.flipped) {
        (true, false) => data.len().saturating_sub(count),
        (true, true) => count.saturating_sub(1).min(data.len()),
        (false, false) => start_of_last_lines(data, count, delim),
        (false, true) => end_of_first_lines(data, count.saturating_sub(1), delim),
    };
    start..data.len()
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn storage() -> MemoryStorage {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/f1", b"a\nb\n").unwrap();
        storage.write("/f2", b"x\ny\nz").unwrap();
        let lines: String = (1..=20).map(|n| format!("{n}\n")).collect();
        storage.write("/n", lines.as_bytes()).unwrap();
        storage.mkdir("/d", false).unwrap();
        storage
    }

    fn run(name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
        run_for_test(&storage(), name, args, stdin)
    }

    #[test]
    fn head_counts() {
        assert_eq!(run("head", &["/n"], "").1, (1..=10).map(|n| format!("{n}\n")).collect::<String>());
        assert_eq!(run("head", &["-n", "2", "/n"], "").1, "1\n2\n");
        assert_eq!(run("head", &["-3", "/n"], "").1, "1\n2\n3\n");
        assert_eq!(run("head", &["-n", "-2"], "x\ny\nz").1, "x\n");
        assert_eq!(run("head", &["-c", "3"], "abcdef").1, "abc");
        assert_eq!(run("head", &["-c", "-2"], "abcdef").1, "abcd");
        assert_eq!(run("head", &["-n1"], "a\nb").1, "a\n");
        assert_eq!(run("head", &["/f2", "-n", "1"], "").1, "x\n");
    }

    #[test]
    fn head_headers_and_errors() {
        assert_eq!(
            run("head", &["-n1", "/f1", "nope", "/f2"], ""),
            (
                1,
                "==> /f1 <==\na\n\n==> /f2 <==\nx\n".into(),
                "head: cannot open 'nope' for reading: No such file or directory\n".into()
            )
        );
        assert_eq!(run("head", &["-n", "2x"], "").2, "head: invalid number of lines: '2x'\n");
        assert_eq!(run("head", &["d"], "").2, "head: error reading 'd': Is a directory\n");
        assert_eq!(run("head", &["-v", "-n1"], "q\n").1, "==> standard input <==\nq\n");
        assert_eq!(
            run("head", &["-x"], ""),
            (1, "".into(), "head: invalid option -- 'x'\nTry 'head --help' for more information.\n".into())
        );
    }

    #[test]
    fn tail_counts() {
        assert_eq!(run("tail", &["-n", "2", "/n"], "").1, "19\n20\n");
        assert_eq!(run("tail", &["-3"], "a\nb\nc\nd\n").1, "b\nc\nd\n");
        assert_eq!(run("tail", &["-n", "+2"], "a\nb\nc\n").1, "b\nc\n");
        assert_eq!(run("tail", &["+2"], "a\nb\nc\n").1, "b\nc\n");
        assert_eq!(run("tail", &["-n", "1"], "x\ny\nz").1, "z");
        assert_eq!(run("tail", &["-c", "2"], "abc\n").1, "c\n");
        assert_eq!(run("tail", &["-c", "+2"], "abc\n").1, "bc\n");
        assert_eq!(run("tail", &["-n", "0"], "abc\n").1, "");
        assert_eq!(run("tail", &["-f", "-n1", "/f1"], "").1, "b\n");
        assert_eq!(run("tail", &["-n1", "/f1", "/f2"], "").1, "==> /f1 <==\nb\n\n==> /f2 <==\nz");
        assert_eq!(run("tail", &["nope"], "").2, "tail: cannot open 'nope' for reading: No such file or directory\n");
    }
}
