//! Small commands agents reach for: `sleep`, `env`, `printenv`, `tac`,
//! `base64`, `expr`, `which`, `uname`, `whoami`, `id`, `hostname`, `date`.
//!
//! The machine they describe is fixed: user `user` (uid and gid 1000, the
//! owner `ls -l` shows), host `aikido`, `Linux aikido 6.0.0 #1 SMP x86_64
//! GNU/Linux`, every command of the shell in `/usr/bin`, and the clock in
//! UTC (`TZ` is not read).

use std::time::{Duration, Instant};

use crate::shell::command::{CommandFn, Context, EnvChange, ReadFailed, Reader, FILE_PIECE};
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

use super::text::common::{
    flush_at, input_error, parse, quote, quotef, usage, Arg, HasArg, OpenStyle, Spec, OUT_PIECE,
};

mod date;
mod expr;
mod timeout;
mod yes;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("sleep", sleep),
    ("env", env),
    ("printenv", printenv),
    ("tac", tac),
    ("base64", base64),
    ("expr", expr::expr),
    ("which", which),
    ("uname", uname),
    ("whoami", whoami),
    ("id", id),
    ("hostname", hostname),
    ("date", date::date),
    ("yes", yes::yes),
    ("timeout", timeout::timeout),
];

/// The user every file belongs to (as `ls -l` and `stat` show it).
const USER: &str = "user";
/// Its uid and gid.
const UID: u32 = 1000;
/// The host name.
const HOST: &str = "aikido";

/// Parses with `spec`; on a getopt error prints it GNU's way.
fn options(
    ctx: &mut Context<'_>,
    spec: &Spec,
    args: &[String],
    status: i32,
) -> Result<Result<Vec<Arg>, i32>, LimitHit> {
    match parse(spec, args) {
        Ok(parsed) => Ok(Ok(parsed)),
        Err(message) => Ok(Err(usage(ctx, &message, status)?)),
    }
}

// ----- sleep -----

/// `sleep NUMBER[smhd]...`: waits for the sum of the operands (`infinity`
/// too), in small steps so the time limit and cancellation stop it.
fn sleep(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &Spec { short: "", long: &[] }, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let operands: Vec<String> = parsed
        .into_iter()
        .filter_map(|arg| match arg {
            Arg::Operand(op) => Some(op),
            Arg::Opt(..) => None,
        })
        .collect();
    if operands.is_empty() {
        return usage(ctx, "missing operand", 1);
    }
    let mut total = 0.0_f64;
    let mut ok = true;
    for operand in &operands {
        match interval(operand) {
            Some(seconds) => total += seconds,
            None => {
                ctx.error(format!("invalid time interval {}", quote(operand)))?;
                ok = false;
            }
        }
    }
    if !ok {
        let line = format!("Try '{} --help' for more information.\n", ctx.name);
        ctx.stderr.write_str(&line)?;
        return Ok(1);
    }
    let total = Duration::try_from_secs_f64(total).unwrap_or(Duration::MAX);
    let start = Instant::now();
    loop {
        (ctx.check)()?;
        let elapsed = start.elapsed();
        if elapsed >= total {
            return Ok(0);
        }
        std::thread::sleep((total - elapsed).min(Duration::from_millis(10)));
    }
}

/// Seconds in a `sleep` operand: a non-negative C float (`1.5`, `.5`,
/// `1e3`, `inf`) and at most one suffix `s`, `m`, `h` or `d`.
fn interval(text: &str) -> Option<f64> {
    let (number, scale) = match text.as_bytes().last()? {
        b's' => (&text[..text.len() - 1], 1.0),
        b'm' => (&text[..text.len() - 1], 60.0),
        b'h' => (&text[..text.len() - 1], 3600.0),
        b'd' if !text.eq_ignore_ascii_case("inf") => (&text[..text.len() - 1], 86_400.0),
        _ => (text, 1.0),
    };
    // Rust's float syntax is C's less hex floats and leading blanks; it also
    // takes "inf" and "infinity" in any case, as strtod does.
    let value: f64 = number.parse().ok()?;
    (value >= 0.0 && !number.starts_with('-')).then_some(value * scale)
}

// ----- env, printenv -----

/// env's options (GNU's less `-C`, `-S`, `-v` and the signal ones, which
/// are refused); they end at the first operand.
const ENV_SPEC: Spec = Spec {
    short: "+iu:0",
    long: &[("ignore-environment", "i", HasArg::No), ("null", "0", HasArg::No), ("unset", "u", HasArg::Yes)],
};

/// `env [-i] [-0] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]`: prints
/// the environment, or runs COMMAND in a changed one.
fn env(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut change = EnvChange::default();
    let mut null = false;
    let parsed = match parse(&ENV_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 125),
    };
    let mut rest = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("i", _) => change.clear = true,
            Arg::Opt("0", _) => null = true,
            Arg::Opt(_, name) => change.unset.push(name.unwrap_or_default()),
            Arg::Operand(operand) => rest.push(operand),
        }
    }
    // A lone `-` first is `-i`.
    let args = &rest[..];
    let mut at = 0;
    if args.first().is_some_and(|arg| arg == "-") {
        change.clear = true;
        at = 1;
    }
    while let Some((name, value)) = args.get(at).and_then(|arg| arg.split_once('=')) {
        change.set.push((name.to_string(), value.to_string()));
        at += 1;
    }
    let command = &args[at..];
    if command.is_empty() {
        let mut vars = if change.clear { Vec::new() } else { ctx.runner.exported() };
        vars.retain(|(name, _)| !change.unset.contains(name) && !change.set.iter().any(|(set, _)| set == name));
        let mut out = String::new();
        for (name, value) in vars.iter().chain(&change.set) {
            out.push_str(&format!("{name}={value}{}", if null { '\0' } else { '\n' }));
        }
        ctx.stdout.write_str(&out)?;
        return Ok(0);
    }
    if null {
        return usage(ctx, "cannot specify --null (-0) with command", 125);
    }
    // env runs programs, never the shell's functions or its other builtins.
    if !is_program(&command[0]) && !command[0].contains('/') {
        ctx.error(format!("{}: No such file or directory", quote(&command[0])))?;
        return Ok(127);
    }
    let stdin = ctx.stdin.read_all()?;
    ctx.runner.run_with_env(&change, command, &stdin, ctx.stdout, ctx.stderr)
}

const PRINTENV_SPEC: Spec = Spec { short: "0", long: &[("null", "0", HasArg::No)] };

/// `printenv [-0] [NAME]...`: the value of each exported NAME, or every
/// `NAME=value`; status 1 when a NAME is not exported.
fn printenv(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &PRINTENV_SPEC, args, 2)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let mut end = '\n';
    let mut names = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt(..) => end = '\0',
            Arg::Operand(name) => names.push(name),
        }
    }
    let vars = ctx.runner.exported();
    let mut out = String::new();
    let mut status = 0;
    if names.is_empty() {
        for (name, value) in &vars {
            out.push_str(&format!("{name}={value}{end}"));
        }
    }
    for name in &names {
        match vars.iter().find(|(var, _)| var == name) {
            Some((_, value)) if !name.contains('=') => out.push_str(&format!("{value}{end}")),
            _ => status = 1,
        }
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

// ----- tac -----

const TAC_SPEC: Spec = Spec { short: "bs:", long: &[("before", "b", HasArg::No), ("separator", "s", HasArg::Yes)] };

/// `tac [-b] [-s STRING] [FILE]...`: each file's records, last first.
fn tac(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &TAC_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let mut before = false;
    let mut separator = b"\n".to_vec();
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("b", _) => before = true,
            Arg::Opt(_, value) => separator = value.unwrap_or_default().into_bytes(),
            Arg::Operand(file) => files.push(file),
        }
    }
    if separator.is_empty() {
        // GNU reads an empty separator as the NUL byte.
        separator.push(0);
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    let mut out = Vec::new();
    for file in &files {
        let reader = match ctx.open(file) {
            Ok(reader) => reader,
            Err(StorageError::IsADirectory(_)) => {
                // GNU seeks the directory and fails on its read.
                tac_flush(ctx, &mut out)?;
                ctx.error(format!("{}: read error: Invalid argument", quotef(file)))?;
                status = 1;
                continue;
            }
            Err(error) => {
                let reason = crate::shell::command::error_reason(&error);
                tac_flush(ctx, &mut out)?;
                ctx.error(format!("failed to open {} for reading: {reason}", quote(file)))?;
                status = 1;
                continue;
            }
        };
        let opened = match ctx.stat(file) {
            Ok(meta) if meta.kind == FileKind::File && !reader.is_stream() => reader.open_file().cloned(),
            _ => None,
        };
        let result = match opened {
            // A file is read from its end, a piece at a time: the version
            // opened, whatever its path holds meanwhile.
            Some(opened) => {
                drop(reader);
                let read = |offset: u64, len: usize| opened.read_at(offset, len);
                tac_backwards(ctx, &mut out, opened.size(), &read, &separator, before)
            }
            // A pipe (stdin, a process substitution) has no end to start
            // from: it is read whole first, within the memory budget, as
            // GNU copies it to a temporary file.
            None => match read_whole(ctx, reader) {
                Ok(data) => {
                    let read = |offset: u64, len: usize| {
                        let from = usize::try_from(offset).unwrap_or(usize::MAX).min(data.len());
                        Ok(data[from..from.saturating_add(len).min(data.len())].to_vec())
                    };
                    tac_backwards(ctx, &mut out, data.len() as u64, &read, &separator, before)
                }
                Err(failed) => Err(failed),
            },
        };
        match result {
            Ok(()) => {}
            Err(ReadFailed::Limit(hit)) => return Err(hit),
            Err(ReadFailed::Storage(error)) => {
                let reason = crate::shell::command::error_reason(&error);
                tac_flush(ctx, &mut out)?;
                ctx.error(format!("{}: read error: {reason}", quotef(file)))?;
                status = 1;
            }
        }
    }
    ctx.stdout.write(&out)?;
    Ok(status)
}

/// GNU tac writes through its own 8 KiB buffer, whole buffers at a time:
/// writes the whole 8 KiB blocks of `out`, so a message comes after the
/// same output as GNU's.
fn tac_flush(ctx: &mut Context<'_>, out: &mut Vec<u8>) -> Result<(), LimitHit> {
    let whole = out.len() / 8192 * 8192;
    ctx.stdout.write(&out[..whole])?;
    out.drain(..whole);
    Ok(())
}

/// The rest of an input read in pieces, refused past the memory budget.
fn read_whole(ctx: &Context<'_>, mut reader: Reader<'_>) -> Result<Vec<u8>, ReadFailed> {
    let mut all = Vec::new();
    while let Some(piece) = reader.next_piece()? {
        (ctx.check)()?;
        if all.is_empty() {
            all = piece;
        } else {
            all.extend_from_slice(&piece);
        }
        if all.len() > ctx.max_memory {
            return Err(ReadFailed::Limit(LimitHit::Memory));
        }
    }
    Ok(all)
}

/// tac over `size` bytes that `read(offset, len)` gives: GNU's search from
/// the end for the last separator that ends before the record found last,
/// so only the record being cut and one piece are held, and the records go
/// out (through `out`, 64 KiB at a time) as they are found.
fn tac_backwards(
    ctx: &mut Context<'_>,
    out: &mut Vec<u8>,
    size: u64,
    read: &dyn Fn(u64, usize) -> Result<Vec<u8>, StorageError>,
    separator: &[u8],
    before: bool,
) -> Result<(), ReadFailed> {
    let max_memory = ctx.max_memory;
    let mut step = |out: &mut Vec<u8>| {
        (ctx.check)()?;
        if out.len() >= OUT_PIECE {
            tac_flush(ctx, out)?;
        }
        Ok(())
    };
    tac_records(out, size, read, separator, before, FILE_PIECE, max_memory, &mut step)
}

/// [`tac_backwards`] reading `piece_len` bytes at a time; `step` runs
/// every 1024 turns and whenever `out` holds 64 KiB (the clock, writing).
#[allow(clippy::too_many_arguments)]
pub(super) fn tac_records(
    out: &mut Vec<u8>,
    size: u64,
    read: &dyn Fn(u64, usize) -> Result<Vec<u8>, StorageError>,
    separator: &[u8],
    before: bool,
    piece_len: usize,
    max_memory: usize,
    step: &mut dyn FnMut(&mut Vec<u8>) -> Result<(), LimitHit>,
) -> Result<(), ReadFailed> {
    let len = separator.len() as u64;
    // `buf` holds the bytes from `base` to `past_end`, the part not printed.
    let mut buf: Vec<u8> = Vec::new();
    let mut base = size;
    let mut past_end = size;
    // A separator must end at or before `limit`; none ends in
    // `clean..limit` (it was searched).
    let mut limit = size;
    let mut clean = size;
    let mut first = true;
    let mut turns = 0u32;
    loop {
        turns = turns.wrapping_add(1);
        if turns.is_multiple_of(1024) || out.len() >= OUT_PIECE {
            step(out)?;
        }
        let hay_end = limit.min(clean.saturating_add(len - 1)) - base;
        match memchr::memmem::rfind(&buf[..hay_end as usize], separator) {
            Some(at) => {
                let start = base + at as u64;
                if before {
                    out.extend_from_slice(&buf[at..(past_end - base) as usize]);
                    past_end = start;
                } else {
                    let end = start + len;
                    if !first || end != past_end {
                        out.extend_from_slice(&buf[(end - base) as usize..(past_end - base) as usize]);
                    }
                    past_end = end;
                    first = false;
                }
                limit = start;
                clean = start;
                buf.truncate((past_end - base) as usize);
            }
            None if base == 0 => {
                out.extend_from_slice(&buf[..(past_end - base) as usize]);
                return Ok(());
            }
            None => {
                clean = base;
                let from = base.saturating_sub(piece_len as u64);
                let mut piece = read(from, (base - from) as usize).map_err(ReadFailed::Storage)?;
                if piece.is_empty() {
                    // The file shrank under us: what is left goes out as read.
                    out.extend_from_slice(&buf[..(past_end - base) as usize]);
                    return Ok(());
                }
                let got = (piece.len() as u64).min(base);
                piece.extend_from_slice(&buf);
                buf = piece;
                base -= got;
                if buf.len() > max_memory {
                    return Err(ReadFailed::Limit(LimitHit::Memory));
                }
            }
        }
    }
}

// ----- base64 -----

const BASE64_SPEC: Spec = Spec {
    short: "diw:",
    long: &[("decode", "d", HasArg::No), ("ignore-garbage", "i", HasArg::No), ("wrap", "w", HasArg::Yes)],
};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64 [-d] [-i] [-w COLS] [FILE]`: RFC 4648 encoding, lines of 76 by default.
fn base64(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &BASE64_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let (mut decode, mut garbage, mut wrap) = (false, false, 76_usize);
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("d", _) => decode = true,
            Arg::Opt("i", _) => garbage = true,
            Arg::Opt(_, value) => {
                let value = value.unwrap_or_default();
                match value.parse::<u64>() {
                    Ok(n) => wrap = usize::try_from(n).unwrap_or(usize::MAX),
                    Err(_) => {
                        ctx.error(format!("invalid wrap size: {}", quote(&value)))?;
                        return Ok(1);
                    }
                }
            }
            Arg::Operand(file) => files.push(file),
        }
    }
    if files.len() > 1 {
        return usage(ctx, &format!("extra operand {}", quote(&files[1])), 1);
    }
    let file = files.pop().unwrap_or_else(|| "-".to_string());
    // A piece at a time (stdin as it comes): `yes | base64 | head -1` ends.
    let mut reader = match ctx.open(&file) {
        Ok(reader) => reader,
        Err(error) => {
            input_error(ctx, &file, OpenStyle::Plain, &error)?;
            return Ok(1);
        }
    };
    let mut out = Vec::new();
    let mut decoder = Base64Decoder { group: Vec::with_capacity(4), garbage };
    let mut carry: Vec<u8> = Vec::with_capacity(3);
    let mut column = 0;
    let mut encoded = Vec::new();
    // Appends `encoded` to `out`, a newline after every `wrap` characters.
    let mut wrap_into = |out: &mut Vec<u8>, encoded: &mut Vec<u8>| {
        let mut rest = &encoded[..];
        while !rest.is_empty() {
            let room = if wrap == 0 { rest.len() } else { (wrap - column).min(rest.len()) };
            out.extend_from_slice(&rest[..room]);
            rest = &rest[room..];
            column += room;
            if wrap > 0 && column == wrap {
                out.push(b'\n');
                column = 0;
            }
        }
        encoded.clear();
    };
    loop {
        let piece = match reader.next_piece() {
            Ok(Some(piece)) => piece,
            Ok(None) => break,
            Err(ReadFailed::Limit(hit)) => return Err(hit),
            Err(ReadFailed::Storage(error)) => {
                ctx.stdout.write(&out)?;
                input_error(ctx, &file, OpenStyle::Plain, &error)?;
                return Ok(1);
            }
        };
        (ctx.check)()?;
        if decode {
            if !decoder.feed(&piece, &mut out) {
                ctx.stdout.write(&out)?;
                ctx.error("invalid input")?;
                return Ok(1);
            }
        } else {
            let mut data = &piece[..];
            while !carry.is_empty() && carry.len() < 3 && !data.is_empty() {
                carry.push(data[0]);
                data = &data[1..];
            }
            if carry.len() == 3 {
                encode_group(&carry, &mut encoded);
                carry.clear();
            }
            let whole = data.len() / 3 * 3;
            for group in data[..whole].chunks_exact(3) {
                encode_group(group, &mut encoded);
            }
            carry.extend_from_slice(&data[whole..]);
            wrap_into(&mut out, &mut encoded);
        }
        flush_at(ctx, &mut out, OUT_PIECE)?;
    }
    if decode {
        let ok = decoder.finish(&mut out);
        ctx.stdout.write(&out)?;
        if !ok {
            ctx.error("invalid input")?;
            return Ok(1);
        }
        return Ok(0);
    }
    if !carry.is_empty() {
        encode_group(&carry, &mut encoded);
        wrap_into(&mut out, &mut encoded);
    }
    if wrap > 0 && column > 0 {
        out.push(b'\n');
    }
    ctx.stdout.write(&out)?;
    Ok(0)
}

/// Encodes up to three bytes as four characters (`=` padding a short group).
pub(crate) fn encode_group(chunk: &[u8], out: &mut Vec<u8>) {
    let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
    let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
    let mut four = [b'='; 4];
    for (i, shift) in [18, 12, 6, 0].into_iter().enumerate().take(chunk.len() + 1) {
        four[i] = ALPHABET[(n >> shift) as usize & 63];
    }
    out.extend_from_slice(&four);
}

/// Decodes base64 as it comes, skipping newlines (and every non-alphabet
/// byte when `garbage`). Padded groups may follow each other (`aGk=aGk=`).
struct Base64Decoder {
    group: Vec<u8>,
    garbage: bool,
}

fn base64_value(byte: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == byte).map(|v| v as u32)
}

impl Base64Decoder {
    /// Decodes `data` into `out`; false at the first invalid group.
    fn feed(&mut self, data: &[u8], out: &mut Vec<u8>) -> bool {
        for &byte in data {
            if byte == b'\n' || (self.garbage && byte != b'=' && base64_value(byte).is_none()) {
                continue;
            }
            self.group.push(byte);
            if self.group.len() < 4 {
                continue;
            }
            let pads = self.group.iter().rev().take_while(|&&b| b == b'=').count();
            let digits: Option<Vec<u32>> = self.group[..4 - pads].iter().map(|&b| base64_value(b)).collect();
            let Some(digits) = digits.filter(|_| pads <= 2) else {
                return false;
            };
            let n = digits.iter().enumerate().fold(0, |n, (i, d)| n | d << (18 - 6 * i));
            out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..3 - pads]);
            self.group.clear();
        }
        true
    }

    /// The end of the input: a short last group decodes what it holds, and
    /// the input is invalid.
    fn finish(self, out: &mut Vec<u8>) -> bool {
        if self.group.is_empty() {
            return true;
        }
        let digits: Vec<u32> = self.group.iter().map_while(|&b| base64_value(b)).collect();
        if digits.len() >= 2 {
            let n = digits.iter().enumerate().fold(0, |n, (i, d)| n | d << (18 - 6 * i));
            out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8][..digits.len() - 1]);
        }
        false
    }
}

// ----- which -----

/// Builtins that are also programs in `/usr/bin` on a real system.
const PROGRAM_BUILTINS: &[&str] = &["[", "bash", "echo", "false", "printf", "pwd", "sh", "test", "true"];

/// Whether `/usr/bin/NAME` would exist: a command of the table, or a
/// builtin that is also a program.
fn is_program(name: &str) -> bool {
    super::lookup(name).is_some() || PROGRAM_BUILTINS.contains(&name)
}

/// `which [-a] NAME...`: `/usr/bin/NAME` for each command the shell has
/// (as `command -v` prints a command of the table); status 1 when one is
/// missing.
fn which(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut names = Vec::new();
    let mut options_done = false;
    for arg in args {
        if !options_done && arg.starts_with('-') && arg.len() > 1 {
            if arg == "--" {
                options_done = true;
            } else if let Some(bad) = arg[1..].chars().find(|&c| c != 'a') {
                ctx.stderr.write_str(&format!("Illegal option -{bad}\n"))?;
                ctx.stdout.write_str("Usage: /usr/bin/which [-a] args\n")?;
                return Ok(2);
            }
            continue;
        }
        options_done = true;
        names.push(arg);
    }
    if names.is_empty() {
        return Ok(1);
    }
    let mut status = 0;
    let mut out = String::new();
    for name in names {
        if !name.contains('/') && is_program(name) {
            out.push_str(&format!("/usr/bin/{name}\n"));
        } else {
            status = 1;
        }
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

// ----- uname, whoami, id, hostname -----

const UNAME_SPEC: Spec = Spec {
    short: "asnrvmpio",
    long: &[
        ("all", "a", HasArg::No),
        ("kernel-name", "s", HasArg::No),
        ("nodename", "n", HasArg::No),
        ("kernel-release", "r", HasArg::No),
        ("kernel-version", "v", HasArg::No),
        ("machine", "m", HasArg::No),
        ("processor", "p", HasArg::No),
        ("hardware-platform", "i", HasArg::No),
        ("operating-system", "o", HasArg::No),
    ],
};

/// `uname [-asnrvmpio]`: fixed values (`Linux aikido 6.0.0 #1 SMP x86_64
/// GNU/Linux`); `-p` and `-i` say `unknown` and `-a` leaves them out, as
/// GNU does on Linux.
fn uname(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &UNAME_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let fields = [
        ("s", "Linux"),
        ("n", HOST),
        ("r", "6.0.0"),
        ("v", "#1 SMP"),
        ("m", "x86_64"),
        ("p", "unknown"),
        ("i", "unknown"),
        ("o", "GNU/Linux"),
    ];
    let mut wanted: Vec<&str> = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("a", _) => wanted.extend(["s", "n", "r", "v", "m", "o"]),
            Arg::Opt(key, _) => wanted.push(key),
            Arg::Operand(extra) => return usage(ctx, &format!("extra operand {}", quote(&extra)), 1),
        }
    }
    if wanted.is_empty() {
        wanted.push("s");
    }
    let shown: Vec<&str> = fields.iter().filter(|(key, _)| wanted.contains(key)).map(|(_, value)| *value).collect();
    ctx.stdout.write_str(&format!("{}\n", shown.join(" ")))?;
    Ok(0)
}

/// `whoami`: `user`.
fn whoami(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &Spec { short: "", long: &[] }, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    if let Some(Arg::Operand(extra)) = parsed.first() {
        return usage(ctx, &format!("extra operand {}", quote(extra)), 1);
    }
    ctx.stdout.write_str(&format!("{USER}\n"))?;
    Ok(0)
}

const ID_SPEC: Spec = Spec {
    short: "ugGnr",
    long: &[
        ("user", "u", HasArg::No),
        ("group", "g", HasArg::No),
        ("groups", "G", HasArg::No),
        ("name", "n", HasArg::No),
        ("real", "r", HasArg::No),
    ],
};

/// `id [-u|-g|-G] [-n] [-r] [user]`: uid and gid 1000, named `user`.
fn id(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &ID_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let (mut which, mut name, mut real, mut users) = (None, false, false, Vec::new());
    for arg in parsed {
        match arg {
            Arg::Opt("n", _) => name = true,
            Arg::Opt("r", _) => real = true,
            Arg::Opt(key, _) => {
                if which.is_some_and(|k| k != key) {
                    ctx.error("cannot print \"only\" of more than one choice")?;
                    return Ok(1);
                }
                which = Some(key);
            }
            Arg::Operand(user) => users.push(user),
        }
    }
    if which.is_none() && (name || real) {
        ctx.error("cannot print only names or real IDs in default format")?;
        return Ok(1);
    }
    let mut out = String::new();
    let mut status = 0;
    let default = [USER.to_string()];
    for user in if users.is_empty() { &default[..] } else { &users[..] } {
        if user != USER && user != &UID.to_string() {
            ctx.error(format!("{}: no such user", quote(user)))?;
            status = 1;
            continue;
        }
        out.push_str(&match (which, name) {
            (None, _) => format!("uid={UID}({USER}) gid={UID}({USER}) groups={UID}({USER})\n"),
            (Some(_), true) => format!("{USER}\n"),
            (Some(_), false) => format!("{UID}\n"),
        });
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

const HOSTNAME_SPEC: Spec = Spec { short: "sf", long: &[("short", "s", HasArg::No), ("fqdn", "f", HasArg::No)] };

/// `hostname [-s|-f]`: `aikido`. Setting it is refused as for a non-root user.
fn hostname(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&HOSTNAME_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => {
            // net-tools prints its usage to stderr and exits with -1.
            ctx.error(message)?;
            ctx.stderr.write_str("Usage: hostname [-s|-f]\n")?;
            return Ok(255);
        }
    };
    if parsed.iter().any(|arg| matches!(arg, Arg::Operand(_))) {
        ctx.error("you must be root to change the host name")?;
        return Ok(1);
    }
    ctx.stdout.write_str(&format!("{HOST}\n"))?;
    Ok(0)
}

#[cfg(test)]
mod tests;
