//! Shared pieces of the text commands: reading inputs with each tool's own
//! error wording, line splitting, and GNU's file-name quoting. Options are
//! parsed by `commands/options.rs`, re-exported here.

use std::borrow::Cow;

use crate::shell::command::{error_reason, Context, Lines, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::StorageError;

pub(in crate::shell::commands) use super::super::options::{parse, usage, Arg, HasArg, Spec};

/// How a tool words a file it cannot read.
#[derive(Clone, Copy)]
pub(in crate::shell::commands) enum OpenStyle {
    /// head, tail: `cannot open 'x' for reading: …`, `error reading 'x': …`.
    CannotOpen,
    /// wc, uniq, cut, nl, paste, fold: `x: …`.
    Plain,
    /// sort: `cannot read: x: …`, `read failed: x: …`.
    Sort,
    /// util-linux rev: `cannot open x: …`.
    Rev,
}

/// Reads an input (`-` is all the rest of stdin). On failure prints the tool's
/// message and returns `None`.
pub(in crate::shell::commands) fn read_input<'a>(
    ctx: &mut Context<'a>,
    path: &str,
    style: OpenStyle,
) -> Result<Option<Cow<'a, [u8]>>, LimitHit> {
    if path == "-" {
        return Ok(Some(Cow::Owned(ctx.stdin.read_all()?)));
    }
    let error = match ctx.read(path) {
        Ok(data) => return Ok(Some(Cow::Owned(data))),
        Err(error) => error,
    };
    input_error(ctx, path, style, &error)?;
    Ok(None)
}

/// Opens an input (`-` is stdin) to be read in pieces, a line at a time.
/// On failure prints the tool's message and returns `None`.
pub(in crate::shell::commands) fn open_lines<'a>(
    ctx: &mut Context<'a>,
    path: &str,
    style: OpenStyle,
) -> Result<Option<Lines<'a>>, LimitHit> {
    match ctx.open(path) {
        Ok(reader) => Ok(Some(Lines::new(reader, ctx.max_memory))),
        Err(error) => {
            input_error(ctx, path, style, &error)?;
            Ok(None)
        }
    }
}

/// How many bytes of output a streaming command gathers before it writes
/// them (into a pipe the next stage then reads them at once).
pub(in crate::shell::commands) const OUT_PIECE: usize = 1 << 16;

/// Writes `out` and empties it once it holds `at` bytes or more.
pub(in crate::shell::commands) fn flush_at(
    ctx: &mut Context<'_>,
    out: &mut Vec<u8>,
    at: usize,
) -> Result<(), LimitHit> {
    if out.len() >= at {
        ctx.stdout.write(out)?;
        out.clear();
    }
    Ok(())
}

/// The file operands, or `-` (stdin) when there are none.
pub(in crate::shell::commands) fn operands_or_stdin(files: &[String]) -> impl Iterator<Item = &str> {
    files.iter().map(String::as_str).chain(files.is_empty().then_some("-"))
}

/// Prints the tool's message for an input it cannot read.
pub(in crate::shell::commands) fn input_error(
    ctx: &mut Context<'_>,
    path: &str,
    style: OpenStyle,
    error: &StorageError,
) -> Result<(), LimitHit> {
    let reason = error_reason(error);
    let is_dir = matches!(error, StorageError::IsADirectory(_));
    let message = match style {
        OpenStyle::CannotOpen if is_dir => format!("error reading {}: {reason}", quote(path)),
        OpenStyle::CannotOpen => format!("cannot open {} for reading: {reason}", quote(path)),
        OpenStyle::Plain => format!("{}: {reason}", quotef(path)),
        OpenStyle::Sort if is_dir => format!("read failed: {}: {reason}", quotef(path)),
        OpenStyle::Sort => format!("cannot read: {}: {reason}", quotef(path)),
        OpenStyle::Rev if is_dir => format!("{path}: 0: {reason}"),
        OpenStyle::Rev => format!("cannot open {path}: {reason}"),
    };
    ctx.error(message)
}

/// The next line of `lines`, copied into `line`; false at the end. A limit
/// ends the command; a storage failure on a later piece is reported as
/// the tool reports an unreadable input and ends the input (`*failed` set).
pub(in crate::shell::commands) fn next_line_into(
    ctx: &mut Context<'_>,
    lines: &mut Lines<'_>,
    delim: u8,
    line: &mut Vec<u8>,
    path: &str,
    style: OpenStyle,
    failed: &mut bool,
) -> Result<bool, LimitHit> {
    next_line_reporting(ctx, lines, delim, line, failed, |ctx, error| input_error(ctx, path, style, error))
}

/// [`next_line_into`] with the caller's own report of a storage failure
/// (a tool that holds output writes it first, as GNU's does).
pub(in crate::shell::commands) fn next_line_reporting(
    ctx: &mut Context<'_>,
    lines: &mut Lines<'_>,
    delim: u8,
    line: &mut Vec<u8>,
    failed: &mut bool,
    report: impl FnOnce(&mut Context<'_>, &StorageError) -> Result<(), LimitHit>,
) -> Result<bool, LimitHit> {
    line.clear();
    match lines.next_line(delim) {
        Ok(Some(next)) => {
            line.extend_from_slice(next);
            Ok(true)
        }
        Ok(None) => Ok(false),
        Err(ReadFailed::Limit(hit)) => Err(hit),
        Err(ReadFailed::Storage(error)) => {
            report(ctx, &error)?;
            *failed = true;
            Ok(false)
        }
    }
}

/// Whether GNU's shell quoting leaves a byte bare.
fn is_safe(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"%+,-./:=@_^".contains(&byte)
}

/// GNU `quote()`: always quoted, shell style (`'x'`, `"a'b"`).
pub(in crate::shell::commands) fn quote(name: &str) -> String {
    shell_quote(name, true)
}

/// GNU `quotef()`: quoted only when the name needs it.
pub(in crate::shell::commands) fn quotef(name: &str) -> String {
    shell_quote(name, false)
}

fn shell_quote(name: &str, always: bool) -> String {
    let bytes = name.as_bytes();
    if !always && !bytes.is_empty() && bytes.iter().all(|&b| is_safe(b)) {
        return name.to_string();
    }
    let has_control = bytes.iter().any(|b| b.is_ascii_control());
    if !has_control && name.contains('\'') && !name.contains(['"', '$', '`', '\\']) {
        return format!("\"{name}\"");
    }
    let mut out = String::from("'");
    for ch in name.chars() {
        match ch {
            '\'' => out.push_str("'\\''"),
            c if c.is_ascii_control() => {
                let escaped = match c {
                    '\n' => "\\n".to_string(),
                    '\t' => "\\t".to_string(),
                    '\r' => "\\r".to_string(),
                    other => format!("\\{:03o}", other as u32),
                };
                out.push_str(&format!("'$'{escaped}''"));
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    // `'a'$'\n'''` → GNU drops the empty trailing quotes.
    if let Some(stripped) = out.strip_suffix("''") {
        if stripped.ends_with('\'') && has_control {
            return stripped.to_string();
        }
    }
    out
}

/// Splits `data` into lines ending at `delim`; the delimiter is not part of
/// a line, and a last line without one is still a line.
pub(in crate::shell::commands) fn lines(data: &[u8], delim: u8) -> impl Iterator<Item = &[u8]> {
    let mut rest = data;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match memchr::memchr(delim, rest) {
            Some(pos) => {
                let line = &rest[..pos];
                rest = &rest[pos + 1..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = &[];
                Some(line)
            }
        }
    })
}

/// Calls `ctx.check()` every 4096 iterations of a loop.
pub(in crate::shell::commands) fn tick(ctx: &Context<'_>, counter: &mut usize) -> Result<(), LimitHit> {
    *counter += 1;
    if counter.is_multiple_of(4096) {
        (ctx.check)()?;
    }
    Ok(())
}

/// Parses a count with GNU's size suffixes (`b` 512, `K`/`KiB` 1024, `kB`
/// 1000, `M`, `G`…); `None` when invalid. Values past u64 saturate.
pub(in crate::shell::commands) fn parse_size(text: &str) -> Option<u64> {
    let digits_end = text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    if digits_end == 0 {
        return None;
    }
    let number: u64 = text[..digits_end].parse().unwrap_or(u64::MAX);
    let suffix = &text[digits_end..];
    let multiplier: u64 = match suffix {
        "" => 1,
        "b" => 512,
        "c" => 1,
        "w" => 2,
        _ => {
            let mut chars = suffix.chars();
            let letter = chars.next()?;
            let power = "KMGTPEZYRQ".find(letter.to_ascii_uppercase()).filter(|_| letter != 'k' || suffix == "kB")?;
            let base: u64 = match chars.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            if letter == 'k' && suffix != "kB" {
                return None;
            }
            base.checked_pow(power as u32 + 1).unwrap_or(u64::MAX)
        }
    };
    Some(number.saturating_mul(multiplier))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_matches_gnu() {
        assert_eq!(quote("nope"), "'nope'");
        assert_eq!(quote("a'b"), "\"a'b\"");
        assert_eq!(quotef("nope"), "nope");
        assert_eq!(quotef("a b"), "'a b'");
        assert_eq!(quotef("a\nb"), "'a'$'\\n''b'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2K"), Some(2048));
        assert_eq!(parse_size("2kB"), Some(2000));
        assert_eq!(parse_size("1b"), Some(512));
        assert_eq!(parse_size("2x"), None);
        assert_eq!(parse_size("1MiB"), Some(1 << 20));
    }
}
