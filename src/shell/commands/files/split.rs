//! `truncate` and `split` (GNU coreutils 9.1).
//!
//! The storage writes whole files, so `truncate` reads, resizes and writes
//! the file back (new bytes are zeros). `split -l`, `-b` and `-C` read their
//! input in pieces and write each output file a mebibyte at a time
//! (`write`, then `append`); `split -n` divides the input's size, so it
//! reads the input whole and writes each piece whole.

use crate::shell::command::{error_reason, Context, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::StorageError;

use super::super::text::common::{lines, parse, quote, quotef, usage, Arg, HasArg, Spec};

// ----- truncate -----

/// How `-s` changes a size.
#[derive(Clone, Copy, Debug, PartialEq)]
enum SizeOp {
    Set,
    Extend,
    Reduce,
    AtMost,
    AtLeast,
    RoundDown,
    RoundUp,
}

/// A `-s` size: an optional `+ - < > / %` and a number with GNU's suffixes
/// (`K` 1024, `KB` 1000, `KiB`, `M`…).
fn truncate_size(text: &str) -> Option<(SizeOp, u64)> {
    let (op, rest) = match text.chars().next()? {
        '+' => (SizeOp::Extend, &text[1..]),
        '-' => (SizeOp::Reduce, &text[1..]),
        '<' => (SizeOp::AtMost, &text[1..]),
        '>' => (SizeOp::AtLeast, &text[1..]),
        '/' => (SizeOp::RoundDown, &text[1..]),
        '%' => (SizeOp::RoundUp, &text[1..]),
        _ => (SizeOp::Set, text),
    };
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number: u64 = rest[..digits].parse().ok()?;
    let suffix = &rest[digits..];
    let multiplier: u64 = if suffix.is_empty() {
        1
    } else {
        let mut chars = suffix.chars();
        let letter = chars.next()?;
        let power = "KMGTPEZY".find(letter.to_ascii_uppercase())? as u32 + 1;
        let base: u64 = match chars.as_str() {
            "" | "iB" => 1024,
            "B" => 1000,
            _ => return None,
        };
        base.checked_pow(power)?
    };
    Some((op, number.checked_mul(multiplier)?))
}

pub(in crate::shell::commands) fn truncate(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "cor:s:",
        long: &[
            ("no-create", "c", HasArg::No),
            ("io-blocks", "o", HasArg::No),
            ("reference", "r", HasArg::Yes),
            ("size", "s", HasArg::Yes),
        ],
    };
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut no_create, mut reference, mut size, mut files) = (false, None, None, Vec::new());
    for arg in parsed {
        match arg {
            Arg::Opt("c", _) => no_create = true,
            Arg::Opt("r", value) => reference = value,
            Arg::Opt("s", Some(value)) => match truncate_size(&value) {
                Some(found) => size = Some(found),
                None => {
                    ctx.error(format!("Invalid number: {}", quote(&value)))?;
                    return Ok(1);
                }
            },
            Arg::Opt(..) => {} // -o: blocks are bytes here.
            Arg::Operand(file) => files.push(file),
        }
    }
    if size.is_none() && reference.is_none() {
        return usage(ctx, "you must specify either '--size' or '--reference'", 1);
    }
    if let (Some((op, _)), Some(_)) = (size, &reference) {
        if op == SizeOp::Set {
            return usage(ctx, "you must specify a relative '--size' with '--reference'", 1);
        }
    }
    if files.is_empty() {
        return usage(ctx, "missing file operand", 1);
    }
    let reference_size = match &reference {
        Some(path) => match ctx.stat(path) {
            Ok(meta) => Some(meta.size),
            Err(error) => {
                ctx.error(format!("cannot stat {}: {}", quote(path), error_reason(&error)))?;
                return Ok(1);
            }
        },
        None => None,
    };
    let mut status = 0;
    for file in &files {
        let current = match ctx.read(file) {
            Ok(data) => Some(data),
            Err(StorageError::NotFound(_)) if no_create => continue,
            Err(StorageError::NotFound(_)) => None,
            Err(error) => {
                ctx.error(format!("cannot open {} for writing: {}", quote(file), error_reason(&error)))?;
                status = 1;
                continue;
            }
        };
        let old = current.as_ref().map_or(0, |d| d.len() as u64);
        let base = reference_size.unwrap_or(old);
        let new = match size {
            None => base,
            Some((op, n)) => match op {
                SizeOp::Set => n,
                SizeOp::Extend => base.saturating_add(n),
                SizeOp::Reduce => base.saturating_sub(n),
                SizeOp::AtMost => base.min(n),
                SizeOp::AtLeast => base.max(n),
                SizeOp::RoundDown | SizeOp::RoundUp if n == 0 => {
                    ctx.error("division by zero")?;
                    return Ok(1);
                }
                SizeOp::RoundDown => base / n * n,
                SizeOp::RoundUp => base.div_ceil(n).saturating_mul(n),
            },
        };
        if new > (1 << 40) {
            ctx.error(format!("failed to truncate {} at {new} bytes: File too large", quote(file)))?;
            status = 1;
            continue;
        }
        let mut data = current.unwrap_or_default();
        if data.len() as u64 == new && old == new && reference_size.is_none() && size.is_some() {
            // Nothing changes, but the file must exist.
            if ctx.stat(file).is_ok() {
                continue;
            }
        }
        data.resize(new as usize, 0);
        if let Err(error) = ctx.storage.write(&ctx.path(file), &data) {
            ctx.error(format!("cannot open {} for writing: {}", quote(file), error_reason(&error)))?;
            status = 1;
        }
    }
    Ok(status)
}

// ----- split -----

/// How `split` cuts its input.
#[derive(Clone, Copy)]
enum Mode {
    Lines(u64),
    Bytes(u64),
    /// `-C`: at most this many bytes, whole lines where they fit.
    LineBytes(u64),
    /// `-n [l/|r/][K/]N`.
    Chunks {
        kind: u8,
        only: Option<u64>,
        count: u64,
    },
}

/// The file names: PREFIX, a suffix from an alphabet, more letters as the
/// suffixes run out when the length was not given (GNU's widening).
struct Names {
    prefix: String,
    alphabet: Vec<u8>,
    index: Vec<usize>,
    auto: bool,
    extra: String,
    first: bool,
}

impl Names {
    fn next(&mut self) -> Option<String> {
        if self.first {
            self.first = false;
        } else {
            let mut i = self.index.len();
            loop {
                if i == 0 {
                    return None;
                }
                i -= 1;
                self.index[i] += 1;
                if self.auto && i == 0 && self.index[0] + 1 == self.alphabet.len() {
                    // Widen: the first suffix letter joins the prefix.
                    self.prefix.push(self.alphabet[self.index[0]] as char);
                    let len = self.index.len() + 1;
                    self.index = vec![0; len];
                    break;
                }
                if self.index[i] < self.alphabet.len() {
                    break;
                }
                self.index[i] = 0;
            }
        }
        let suffix: String = self.index.iter().map(|&i| self.alphabet[i] as char).collect();
        Some(format!("{}{}{}", self.prefix, suffix, self.extra))
    }
}

pub(in crate::shell::commands) fn split(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "a:b:C:dl:n:t:xe",
        long: &[
            ("suffix-length", "a", HasArg::Yes),
            ("additional-suffix", "additional-suffix", HasArg::Yes),
            ("bytes", "b", HasArg::Yes),
            ("line-bytes", "C", HasArg::Yes),
            ("numeric-suffixes", "d", HasArg::Optional),
            ("hex-suffixes", "x", HasArg::Optional),
            ("elide-empty-files", "e", HasArg::No),
            ("lines", "l", HasArg::Yes),
            ("number", "n", HasArg::Yes),
            ("verbose", "verbose", HasArg::No),
        ],
    };
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut mode = Mode::Lines(1000);
    let mut suffix_len: Option<usize> = None;
    let mut alphabet: Vec<u8> = (b'a'..=b'z').collect();
    let mut start: u64 = 0;
    let (mut extra, mut elide, mut verbose) = (String::new(), false, false);
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("a", Some(value)) => match value.parse::<usize>() {
                Ok(n) if n > 0 && n < 64 => suffix_len = Some(n),
                _ => {
                    ctx.error(format!("invalid suffix length: {}", quote(&value)))?;
                    return Ok(1);
                }
            },
            Arg::Opt("additional-suffix", Some(value)) => {
                if value.contains('/') {
                    let message = format!("invalid suffix {}, contains directory separator", quote(&value));
                    return usage(ctx, &message, 1);
                }
                extra = value;
            }
            Arg::Opt(key @ ("l" | "b" | "C"), Some(value)) => {
                let what = match key {
                    "l" => "number of lines",
                    "b" => "number of bytes",
                    _ => "number of lines",
                };
                let n =
                    if key == "l" { value.parse::<u64>().ok() } else { super::super::text::common::parse_size(&value) };
                match n {
                    Some(0) => {
                        ctx.error(format!("invalid {what}: {}: Numerical result out of range", quote(&value)))?;
                        return Ok(1);
                    }
                    Some(n) => {
                        mode = match key {
                            "l" => Mode::Lines(n),
                            "b" => Mode::Bytes(n),
                            _ => Mode::LineBytes(n),
                        }
                    }
                    None => {
                        ctx.error(format!("invalid {what}: {}", quote(&value)))?;
                        return Ok(1);
                    }
                }
            }
            Arg::Opt("n", Some(value)) => match chunks(&value) {
                Some((kind, only, count)) if count > 0 && only.is_none_or(|k| k >= 1 && k <= count) => {
                    mode = Mode::Chunks { kind, only, count }
                }
                Some((_, _, 0)) => {
                    ctx.error(format!("invalid number of chunks: {}: Numerical result out of range", quote(&value)))?;
                    return Ok(1);
                }
                _ => {
                    ctx.error(format!("invalid number of chunks: {}", quote(&value)))?;
                    return Ok(1);
                }
            },
            Arg::Opt(key @ ("d" | "x"), value) => {
                alphabet = if key == "d" { (b'0'..=b'9').collect() } else { b"0123456789abcdef".to_vec() };
                if let Some(value) = value {
                    let radix = if key == "d" { 10 } else { 16 };
                    match u64::from_str_radix(&value, radix) {
                        Ok(n) => start = n,
                        Err(_) => {
                            ctx.error(format!("invalid start value for numerical suffix: {}", quote(&value)))?;
                            return Ok(1);
                        }
                    }
                }
            }
            Arg::Opt("e", _) => elide = true,
            Arg::Opt("verbose", _) => verbose = true,
            Arg::Opt(..) => {}
            Arg::Operand(operand) => operands.push(operand),
        }
    }
    if operands.len() > 2 {
        return usage(ctx, &format!("extra operand {}", quote(&operands[2])), 1);
    }
    let input = operands.first().cloned().unwrap_or_else(|| "-".to_string());
    let prefix = operands.get(1).cloned().unwrap_or_else(|| "x".to_string());
    if !matches!(mode, Mode::Chunks { .. }) {
        let Some(names) = output_names(ctx, prefix, alphabet, suffix_len, start, extra)? else {
            return Ok(1);
        };
        return split_stream(ctx, &input, mode, names, verbose);
    }
    // `-n` divides the input's size: it is read whole.
    let data = match ctx.read(&input) {
        Ok(data) => data,
        Err(StorageError::IsADirectory(_)) => {
            ctx.error(format!("{}: cannot determine file size: Is a directory", quotef(&input)))?;
            return Ok(1);
        }
        Err(error) => {
            open_error(ctx, &input, &error)?;
            return Ok(1);
        }
    };
    // The pieces, as byte ranges of the input.
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let total = data.len();
    match mode {
        Mode::Lines(_) | Mode::Bytes(_) | Mode::LineBytes(_) => unreachable!("split in pieces above"),
        Mode::Chunks { kind, only, count } => {
            let count_usize = usize::try_from(count).unwrap_or(usize::MAX);
            if kind == b'r' {
                // Round robin: line i goes to chunk i mod N.
                let mut outs: Vec<Vec<u8>> = vec![Vec::new(); count_usize.min(1 << 16)];
                let mut at = 0;
                for (i, line) in lines(&data, b'\n').enumerate() {
                    let end = (at + line.len() + 1).min(total);
                    let slots = outs.len();
                    outs[i % slots].extend_from_slice(&data[at..end]);
                    at = end;
                }
                return write_pieces(ctx, outs, only, prefix, alphabet, suffix_len, start, extra, elide, verbose);
            }
            let size = total / count_usize.max(1);
            let mut begin = 0;
            for k in 1..=count_usize {
                let mut end = if k == count_usize { total } else { (k * size).min(total) };
                if kind == b'l' && k != count_usize && end > 0 {
                    // To the end of the line holding the chunk's last byte.
                    end = match memchr::memchr(b'\n', &data[(end - 1).max(begin).min(total)..]) {
                        Some(pos) => (end - 1).max(begin) + pos + 1,
                        None => total,
                    };
                }
                let end = end.max(begin);
                pieces.push((begin, end));
                begin = end;
            }
        }
    }
    let outs: Vec<Vec<u8>> = pieces.into_iter().map(|(a, b)| data[a..b].to_vec()).collect();
    let only = match mode {
        Mode::Chunks { only, .. } => only,
        _ => None,
    };
    write_pieces(ctx, outs, only, prefix, alphabet, suffix_len, start, extra, elide, verbose)
}

/// `-n` values: `N`, `K/N`, `l/N`, `l/K/N`, `r/N`, `r/K/N`.
fn chunks(text: &str) -> Option<(u8, Option<u64>, u64)> {
    let (kind, rest) = match text.split_once('/') {
        Some(("l", rest)) => (b'l', rest),
        Some(("r", rest)) => (b'r', rest),
        _ => (b'b', text),
    };
    match rest.split_once('/') {
        Some((k, n)) => Some((kind, Some(k.parse().ok()?), n.parse().ok()?)),
        None => Some((kind, None, rest.parse().ok()?)),
    }
}

/// The names of the output files (`xaa`, `xab`…); `None` when a numeric
/// start does not fit the suffix length (the message printed).
fn output_names(
    ctx: &mut Context<'_>,
    prefix: String,
    alphabet: Vec<u8>,
    suffix_len: Option<usize>,
    start: u64,
    extra: String,
) -> Result<Option<Names>, LimitHit> {
    let len = suffix_len.unwrap_or(2);
    let mut names = Names {
        prefix,
        alphabet: alphabet.clone(),
        index: vec![0; len],
        auto: suffix_len.is_none(),
        extra,
        first: true,
    };
    // A numeric start: the first suffix is START in the suffix's radix.
    if start > 0 {
        let radix = alphabet.len() as u64;
        let mut value = start;
        for slot in names.index.iter_mut().rev() {
            *slot = (value % radix) as usize;
            value /= radix;
        }
        if value > 0 {
            ctx.error("numerical suffix start value is too large for the suffix length")?;
            return Ok(None);
        }
        names.auto = false;
    }
    Ok(Some(names))
}

/// An output file being written: its name, and what is not written yet.
struct Part {
    name: String,
    pending: Vec<u8>,
    written: bool,
}

/// Writes `-l`, `-b` and `-C` pieces as the input comes (a piece at a
/// time from a file, stdin as it comes), each output file through
/// `Storage::write` and then `append` a mebibyte at a time, so neither the
/// input nor a piece is held whole.
struct Splitter {
    names: Names,
    verbose: bool,
    part: Option<Part>,
}

impl Splitter {
    /// Appends `bytes` to the current output file, opening the next one
    /// first when none is open. `Ok(false)`: the suffixes ran out or the
    /// storage refused (the message printed).
    fn add(&mut self, ctx: &mut Context<'_>, bytes: &[u8]) -> Result<bool, LimitHit> {
        if self.part.is_none() {
            (ctx.check)()?;
            let Some(name) = self.names.next() else {
                ctx.error("output file suffixes exhausted")?;
                return Ok(false);
            };
            if self.verbose {
                ctx.stdout.write_str(&format!("creating file {}\n", quote(&name)))?;
            }
            self.part = Some(Part { name, pending: Vec::new(), written: false });
        }
        let part = self.part.as_mut().expect("opened above");
        part.pending.extend_from_slice(bytes);
        if part.pending.len() >= 1 << 20 {
            return self.flush(ctx);
        }
        Ok(true)
    }

    /// Writes what the current file holds so far.
    fn flush(&mut self, ctx: &mut Context<'_>) -> Result<bool, LimitHit> {
        let Some(part) = self.part.as_mut() else { return Ok(true) };
        if part.written && part.pending.is_empty() {
            return Ok(true);
        }
        let path = ctx.path(&part.name);
        let result = if part.written {
            ctx.storage.append(&path, &part.pending)
        } else {
            ctx.storage.write(&path, &part.pending)
        };
        part.pending.clear();
        part.written = true;
        if let Err(error) = result {
            let message = format!("{}: {}", quote(&part.name), error_reason(&error));
            ctx.error(message)?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Ends the current output file; the next byte opens a new one.
    fn close(&mut self, ctx: &mut Context<'_>) -> Result<bool, LimitHit> {
        let ok = self.flush(ctx)?;
        self.part = None;
        Ok(ok)
    }
}

/// GNU's message for an input split cannot read: a directory opens and
/// fails on its read (`split: d: Is a directory`).
fn open_error(ctx: &mut Context<'_>, input: &str, error: &StorageError) -> Result<(), LimitHit> {
    let reason = error_reason(error);
    match error {
        StorageError::IsADirectory(_) => ctx.error(format!("{}: {reason}", quotef(input))),
        _ => ctx.error(format!("cannot open {} for reading: {reason}", quote(input))),
    }
}

/// `split -l N`, `-b N` and `-C N` over an input read in pieces.
fn split_stream(ctx: &mut Context<'_>, input: &str, mode: Mode, names: Names, verbose: bool) -> Result<i32, LimitHit> {
    let mut reader = match ctx.open(input) {
        Ok(reader) => reader,
        Err(error) => {
            open_error(ctx, input, &error)?;
            return Ok(1);
        }
    };
    let mut out = Splitter { names, verbose, part: None };
    // Lines or bytes already in the current file; `-C` keeps what may
    // still end at a later newline in `held`.
    let mut count: u64 = 0;
    let mut held: Vec<u8> = Vec::new();
    loop {
        let piece = match reader.next_piece() {
            Ok(Some(piece)) => piece,
            Ok(None) => break,
            Err(ReadFailed::Limit(hit)) => return Err(hit),
            Err(ReadFailed::Storage(error)) => {
                out.close(ctx)?;
                ctx.error(format!("{}: {}", quote(input), error_reason(&error)))?;
                return Ok(1);
            }
        };
        (ctx.check)()?;
        let mut rest = &piece[..];
        match mode {
            Mode::Lines(n) => {
                while !rest.is_empty() {
                    // Up to the newline that completes the file's n lines.
                    let wanted = usize::try_from(n - count).unwrap_or(usize::MAX);
                    match memchr::memchr_iter(b'\n', rest).nth(wanted - 1) {
                        Some(at) => {
                            if !out.add(ctx, &rest[..=at])? || !out.close(ctx)? {
                                return Ok(1);
                            }
                            rest = &rest[at + 1..];
                            count = 0;
                        }
                        None => {
                            count += memchr::memchr_iter(b'\n', rest).count() as u64;
                            if !out.add(ctx, rest)? {
                                return Ok(1);
                            }
                            rest = &[];
                        }
                    }
                }
            }
            Mode::Bytes(n) => {
                while !rest.is_empty() {
                    let room = usize::try_from(n - count).unwrap_or(usize::MAX).min(rest.len());
                    if !out.add(ctx, &rest[..room])? {
                        return Ok(1);
                    }
                    count += room as u64;
                    rest = &rest[room..];
                    if count == n {
                        if !out.close(ctx)? {
                            return Ok(1);
                        }
                        count = 0;
                    }
                }
            }
            Mode::LineBytes(n) => {
                held.extend_from_slice(rest);
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                // More than n bytes: the next file ends at the last newline
                // within its n bytes, or after n bytes when there is none.
                while held.len() > n {
                    let end = memchr::memrchr(b'\n', &held[..n]).map_or(n, |at| at + 1);
                    if !out.add(ctx, &held[..end])? || !out.close(ctx)? {
                        return Ok(1);
                    }
                    held.drain(..end);
                }
                if held.len() > ctx.max_memory {
                    return Err(LimitHit::Memory);
                }
            }
            Mode::Chunks { .. } => unreachable!("-n reads the whole input"),
        }
    }
    if !held.is_empty() && !out.add(ctx, &held)? {
        return Ok(1);
    }
    Ok(if out.close(ctx)? { 0 } else { 1 })
}

#[allow(clippy::too_many_arguments)]
fn write_pieces(
    ctx: &mut Context<'_>,
    outs: Vec<Vec<u8>>,
    only: Option<u64>,
    prefix: String,
    alphabet: Vec<u8>,
    suffix_len: Option<usize>,
    start: u64,
    extra: String,
    elide: bool,
    verbose: bool,
) -> Result<i32, LimitHit> {
    if let Some(k) = only {
        // `-n K/N`: that chunk to stdout, no files.
        if let Some(piece) = outs.get(k as usize - 1) {
            ctx.stdout.write(piece)?;
        }
        return Ok(0);
    }
    let Some(mut names) = output_names(ctx, prefix, alphabet, suffix_len, start, extra)? else {
        return Ok(1);
    };
    for piece in outs {
        if elide && piece.is_empty() {
            continue;
        }
        (ctx.check)()?;
        let Some(name) = names.next() else {
            ctx.error("output file suffixes exhausted")?;
            return Ok(1);
        };
        if verbose {
            ctx.stdout.write_str(&format!("creating file {}\n", quote(&name)))?;
        }
        if let Err(error) = ctx.storage.write(&ctx.path(&name), &piece) {
            ctx.error(format!("{}: {}", quote(&name), error_reason(&error)))?;
            return Ok(1);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn seq(n: u32) -> String {
        (1..=n).map(|i| format!("{i}\n")).collect()
    }

    #[test]
    fn truncate_sizes_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/f", b"abcdef").unwrap();
        let run = |args: &[&str]| run_for_test(&storage, "truncate", args, "");
        assert_eq!(run(&["-s", "3", "f"]).0, 0);
        assert_eq!(storage.read("/f").unwrap(), b"abc");
        run(&["-s", "+2", "f"]);
        assert_eq!(storage.read("/f").unwrap(), b"abc\0\0");
        run(&["-s", "-1", "f"]);
        assert_eq!(storage.read("/f").unwrap().len(), 4);
        run(&["-s", "1K", "g"]);
        assert_eq!(storage.read("/g").unwrap().len(), 1024);
        run(&["-s", "<2", "g"]);
        assert_eq!(storage.read("/g").unwrap().len(), 2);
        run(&["-s", "%7", "f"]);
        assert_eq!(storage.read("/f").unwrap().len(), 7);
        run(&["-s", "/3", "f"]);
        assert_eq!(storage.read("/f").unwrap().len(), 6);
        run(&["-c", "-s", "5", "nope"]);
        assert!(storage.stat("/nope").is_err());
        assert_eq!(run(&["-s", "x", "f"]), (1, String::new(), "truncate: Invalid number: 'x'\n".to_string()));
        let (status, _, err) = run(&["f"]);
        assert_eq!(status, 1);
        assert!(err.starts_with("truncate: you must specify either '--size' or '--reference'\n"));
        run(&["-r", "f", "g"]);
        assert_eq!(storage.read("/g").unwrap().len(), 6);
        let (status, _, err) = run(&["-s", "5", "d/x"]);
        assert_eq!((status, err.as_str()), (1, "truncate: cannot open 'd/x' for writing: No such file or directory\n"));
    }

    #[test]
    fn split_names_and_pieces_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/f", seq(10).as_bytes()).unwrap();
        assert_eq!(run_for_test(&storage, "split", &["-l", "3", "f"], "").0, 0);
        assert_eq!(storage.read("/xaa").unwrap(), b"1\n2\n3\n");
        assert_eq!(storage.read("/xad").unwrap(), b"10\n");
        run_for_test(&storage, "split", &["-b", "7", "-d", "f", "part_"], "");
        assert_eq!(storage.read("/part_02").unwrap(), b"8\n9\n10\n");
        run_for_test(&storage, "split", &["-n", "l/3", "f", "l"], "");
        assert_eq!(storage.read("/laa").unwrap(), b"1\n2\n3\n4\n");
        assert_eq!(storage.read("/lab").unwrap(), b"5\n6\n7\n");
        assert_eq!(storage.read("/lac").unwrap(), b"8\n9\n10\n");
        run_for_test(&storage, "split", &["-n", "3", "f", "n"], "");
        assert_eq!(storage.read("/nac").unwrap().len(), 7);
        let (status, _, err) = run_for_test(&storage, "split", &["-l", "1", "-a", "1", "-", "s"], &seq(30));
        assert_eq!((status, err.as_str()), (1, "split: output file suffixes exhausted\n"));
        assert_eq!(storage.read("/sz").unwrap(), b"26\n");
        run_for_test(&storage, "split", &["-l", "1", "-d", "-", "w"], &seq(100));
        assert_eq!(storage.read("/w89").unwrap(), b"90\n");
        assert_eq!(storage.read("/w9000").unwrap(), b"91\n");
        let (_, out, _) = run_for_test(&storage, "split", &["-n", "2/3", "f"], "");
        assert_eq!(out, "\n5\n6\n7\n");
    }
}
