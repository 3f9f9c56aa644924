//! The small file commands: `cat`, `mkdir`, `rm`, `rmdir`, `touch`, `tee`,
//! `ln`, `readlink`, `realpath`, `basename`, `dirname`, `mktemp`.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{
    base_name, canonicalize, child, fail, is_dir, lstat, parse, quote, tick, usage_error, Canon, HasArg, Spec,
};
use crate::shell::command::{directories_before_slashes, error_reason, has_trailing_slash, Context, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

/// `cat [-AbeEnstTv] [FILE]…`: no file or `-` reads stdin. A file that
/// cannot be read is reported and skipped (status 1).
pub(super) fn cat(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "AbeEnstTuv",
        long: &[
            ("show-all", "A", HasArg::No),
            ("number-nonblank", "b", HasArg::No),
            ("show-ends", "E", HasArg::No),
            ("number", "n", HasArg::No),
            ("squeeze-blank", "s", HasArg::No),
            ("show-tabs", "T", HasArg::No),
            ("show-nonprinting", "v", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let mut show_ends = false;
    let mut show_tabs = false;
    let mut nonprinting = false;
    for (option, _) in &parsed.options {
        match *option {
            "A" => (show_ends, show_tabs, nonprinting) = (true, true, true),
            "e" => (show_ends, nonprinting) = (true, true),
            "E" => show_ends = true,
            "t" => (show_tabs, nonprinting) = (true, true),
            "T" => show_tabs = true,
            "v" => nonprinting = true,
            _ => {}
        }
    }
    let number_nonblank = parsed.has("b");
    let number = parsed.has("n") && !number_nonblank;
    let squeeze = parsed.has("s");
    let plain = !(show_ends || show_tabs || nonprinting || number || number_nonblank || squeeze);
    let operands = if parsed.operands.is_empty() { vec!["-".to_string()] } else { parsed.operands };
    let mut status = 0;
    // Line state carries across files, as GNU's does.
    let mut line_number = 0u64;
    let mut at_line_start = true;
    let mut blank_run = 0u32;
    for operand in &operands {
        // Stdin streams (each chunk is written as it comes), and a file is
        // read a piece at a time.
        let mut reader = match ctx.open(operand) {
            Ok(reader) => reader,
            Err(error) => {
                ctx.storage_error(operand, &error)?;
                status = 1;
                continue;
            }
        };
        let mut next = |ctx: &mut Context<'_>, status: &mut i32| -> Result<Option<Vec<u8>>, LimitHit> {
            match reader.next_piece() {
                Ok(piece) => Ok(piece),
                Err(ReadFailed::Limit(hit)) => Err(hit),
                Err(ReadFailed::Storage(error)) => {
                    ctx.storage_error(operand, &error)?;
                    *status = 1;
                    Ok(None)
                }
            }
        };
        let Some(mut data) = next(ctx, &mut status)? else { continue };
        loop {
            if plain {
                ctx.stdout.write(&data)?;
            } else {
                let mut out = Vec::with_capacity(data.len() + data.len() / 8);
                let mut step = 0;
                for line in data.split_inclusive(|&byte| byte == b'\n') {
                    tick(ctx, &mut step)?;
                    let is_blank = at_line_start && line == b"\n";
                    if is_blank {
                        blank_run += 1;
                        if squeeze && blank_run > 1 {
                            continue;
                        }
                    } else if at_line_start {
                        blank_run = 0;
                    }
                    if at_line_start && (number || (number_nonblank && !is_blank)) {
                        line_number += 1;
                        out.extend_from_slice(format!("{line_number:>6}\t").as_bytes());
                    }
                    for &byte in line {
                        match byte {
                            b'\n' => {
                                if show_ends {
                                    out.push(b'$');
                                }
                                out.push(b'\n');
                            }
                            b'\t' if show_tabs => out.extend_from_slice(b"^I"),
                            b'\t' => out.push(b'\t'),
                            _ if nonprinting => push_visible(&mut out, byte),
                            _ => out.push(byte),
                        }
                    }
                    at_line_start = line.ends_with(b"\n");
                }
                ctx.stdout.write(&out)?;
            }
            match next(ctx, &mut status)? {
                Some(piece) => data = piece,
                None => break,
            }
        }
    }
    Ok(status)
}

/// `cat -v`'s notation: `^A`, `^?`, `M-a`, `M-^A`.
fn push_visible(out: &mut Vec<u8>, byte: u8) {
    let mut low = byte;
    if byte >= 128 {
        out.extend_from_slice(b"M-");
        low = byte - 128;
    }
    match low {
        0..=31 => out.extend_from_slice(&[b'^', low + 64]),
        127 => out.extend_from_slice(b"^?"),
        _ => out.push(low),
    }
}

/// `mkdir [-pv] [-m MODE] DIR…` (the mode is accepted and ignored).
pub(super) fn mkdir(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "pvm:",
        long: &[("parents", "p", HasArg::No), ("verbose", "v", HasArg::No), ("mode", "m", HasArg::Yes)],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let (parents, verbose) = (parsed.has("p"), parsed.has("v"));
    // `-m MODE`: the mode of each directory named (parents made by `-p`
    // keep the default), set once it is made.
    let mode = match parsed.value("m") {
        Some(text) => match super::chmod::mkdir_mode(text) {
            Some(mode) => Some(mode),
            None => {
                ctx.error(format!("invalid mode {}", quote(text)))?;
                return Ok(1);
            }
        },
        None => None,
    };
    let mut status = 0;
    for operand in &parsed.operands {
        // `-p` on a directory that exists leaves its mode alone, as GNU does.
        let existed = parents && mode.is_some() && ctx.stat(operand).is_ok();
        let result = if parents { make_parents(ctx, operand, verbose)? } else { make_one(ctx, operand, verbose)? };
        match result {
            Err((shown, error)) => {
                fail(ctx, "cannot create directory", &shown, &error)?;
                status = 1;
            }
            Ok(()) => {
                if let Some(mode) = mode.filter(|_| !existed) {
                    if let Err(error) = ctx.storage.set_mode(&ctx.path(operand), mode) {
                        fail(ctx, "cannot set permissions of", operand, &error)?;
                        status = 1;
                    }
                }
            }
        }
    }
    Ok(status)
}

type MkdirResult = Result<(), (String, StorageError)>;

fn make_one(ctx: &mut Context<'_>, operand: &str, verbose: bool) -> Result<MkdirResult, LimitHit> {
    match ctx.storage.mkdir(&ctx.path(operand), false) {
        Ok(()) => {
            if verbose {
                ctx.stdout.write_str(&format!("mkdir: created directory {}\n", quote(operand)))?;
            }
            Ok(Ok(()))
        }
        Err(error) => Ok(Err((operand.to_string(), error))),
    }
}

/// `mkdir -p`: each prefix of the path as written, made when missing.
fn make_parents(ctx: &mut Context<'_>, operand: &str, verbose: bool) -> Result<MkdirResult, LimitHit> {
    // One storage call makes the whole chain (each level from the one
    // above, not resolved from the root again). Written with `.` or `..`,
    // every prefix as written must be made (`a/../b` makes `a`); with `-v`
    // each level is reported; and an error is reported by the walk below.
    let plain = !operand.split('/').any(|part| part == "." || part == "..");
    if plain && !verbose && ctx.storage.mkdir(&ctx.path(operand), true).is_ok() {
        (ctx.check)()?;
        return Ok(Ok(()));
    }
    let mut prefix = String::new();
    if operand.starts_with('/') {
        prefix.push('/');
    }
    let parts: Vec<&str> = operand.split('/').filter(|part| !part.is_empty()).collect();
    // The directories that exist already: every prefix before the first
    // missing one exists, so a binary search finds it in log(depth) stats
    // (one stat per level made `mkdir -p` of 4,000 levels take 37 s). The
    // loop below starts one level above it, to check that level's kind.
    let joined = |count: usize| -> String {
        let mut path = prefix.clone();
        path.push_str(&parts[..count].join("/"));
        path
    };
    let (mut low, mut high) = (0usize, parts.len());
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        (ctx.check)()?;
        if ctx.storage.stat(&ctx.path(&joined(mid))).is_ok_and(|meta| meta.kind == FileKind::Directory) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let skip = low.saturating_sub(1);
    prefix = joined(skip);
    for (index, part) in parts.iter().enumerate().skip(skip) {
        (ctx.check)()?;
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        prefix.push_str(part);
        let absolute = ctx.path(&prefix);
        match ctx.storage.stat(&absolute) {
            Ok(meta) if meta.kind == FileKind::Directory => continue,
            Ok(_) => {
                let error = if index + 1 == parts.len() {
                    StorageError::AlreadyExists(absolute)
                } else {
                    StorageError::NotADirectory(absolute)
                };
                return Ok(Err((prefix, error)));
            }
            Err(_) => {}
        }
        if let Err(error) = ctx.storage.mkdir(&absolute, false) {
            return Ok(Err((prefix, error)));
        }
        if verbose {
            ctx.stdout.write_str(&format!("mkdir: created directory {}\n", quote(&prefix)))?;
        }
    }
    Ok(Ok(()))
}

/// `rm [-dfirRv] FILE…` (`-i`/`-I` are accepted and ignored: there is no
/// one to ask).
pub(super) fn rm(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "dfiIrRv",
        long: &[
            ("dir", "d", HasArg::No),
            ("force", "f", HasArg::No),
            ("recursive", "r", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("no-preserve-root", "N", HasArg::No),
            ("preserve-root", "P", HasArg::No),
            ("interactive", "i", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let force = parsed.has("f");
    let recursive = parsed.has("r") || parsed.has("R");
    let (empty_dirs, verbose) = (parsed.has("d"), parsed.has("v"));
    if parsed.operands.is_empty() {
        if force {
            return Ok(0);
        }
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let last = base_name(operand);
        if recursive && (last == "." || last == "..") {
            ctx.error(format_args!("refusing to remove '.' or '..' directory: skipping {}", quote(operand)))?;
            status = 1;
            continue;
        }
        let absolute = ctx.path(operand);
        if recursive && absolute == "/" {
            ctx.error(format_args!("it is dangerous to operate recursively on {}", quote(operand)))?;
            ctx.error("use --no-preserve-root to override this failsafe")?;
            status = 1;
            continue;
        }
        // `rm f/`: Not a directory (a trailing slash does not make rm follow
        // a symlink here: the link itself is what rm removes).
        let checked = directories_before_slashes(ctx.storage, ctx.cwd, operand);
        let Some(meta) = checked.as_ref().ok().and_then(|()| lstat(ctx, &absolute)) else {
            if !force {
                let error = match checked {
                    Err(error) => error,
                    Ok(()) => ctx.storage.lstat(&absolute).err().unwrap_or(StorageError::NotFound(absolute.clone())),
                };
                fail(ctx, "cannot remove", operand, &error)?;
                status = 1;
            }
            continue;
        };
        if meta.kind == FileKind::Directory && !recursive {
            let empty = ctx.storage.list(&absolute).map(|entries| entries.is_empty()).unwrap_or(false);
            if !empty_dirs || !empty {
                let error =
                    if empty_dirs { StorageError::NotEmpty(absolute) } else { StorageError::IsADirectory(absolute) };
                fail(ctx, "cannot remove", operand, &error)?;
                status = 1;
                continue;
            }
        }
        if verbose && meta.kind == FileKind::Directory {
            report_removals(ctx, operand, &absolute)?;
        }
        match ctx.storage.remove(&absolute, recursive) {
            Ok(()) if verbose && meta.kind != FileKind::Directory => {
                ctx.stdout.write_str(&format!("removed {}\n", quote(operand)))?;
            }
            Ok(()) => {}
            Err(error) => {
                fail(ctx, "cannot remove", operand, &error)?;
                status = 1;
            }
        }
    }
    Ok(status)
}

/// `rm -rv`'s lines for a directory, children first, as GNU prints them.
fn report_removals(ctx: &mut Context<'_>, shown: &str, absolute: &str) -> Result<(), LimitHit> {
    (ctx.check)()?;
    let entries = ctx.storage.list(absolute).unwrap_or_default();
    for entry in entries {
        let shown_child = child(shown, &entry.name);
        let absolute_child = child(absolute, &entry.name);
        if entry.kind == FileKind::Directory {
            report_removals(ctx, &shown_child, &absolute_child)?;
        } else {
            ctx.stdout.write_str(&format!("removed {}\n", quote(&shown_child)))?;
        }
    }
    ctx.stdout.write_str(&format!("removed directory {}\n", quote(shown)))
}

/// `rmdir [-pv] [--ignore-fail-on-non-empty] DIR…`.
pub(super) fn rmdir(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "pv",
        long: &[
            ("parents", "p", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("ignore-fail-on-non-empty", "I", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let mut current = operand.trim_end_matches('/').to_string();
        if current.is_empty() {
            current = operand.clone();
        }
        loop {
            if let Err(error) = remove_dir(ctx, &current) {
                let ignored = parsed.has("I") && matches!(error, StorageError::NotEmpty(_));
                if !ignored {
                    fail(ctx, "failed to remove", &current, &error)?;
                    status = 1;
                }
                break;
            }
            if parsed.has("v") {
                ctx.stdout.write_str(&format!("rmdir: removing directory, {}\n", quote(&current)))?;
            }
            if !parsed.has("p") {
                break;
            }
            match current.rfind('/') {
                Some(cut) if cut > 0 => current = current[..cut].trim_end_matches('/').to_string(),
                _ => break,
            }
            if current.is_empty() {
                break;
            }
        }
    }
    Ok(status)
}

fn remove_dir(ctx: &Context<'_>, user_path: &str) -> Result<(), StorageError> {
    let absolute = ctx.path(user_path);
    let meta = ctx.storage.lstat(&absolute)?;
    if meta.kind != FileKind::Directory {
        return Err(StorageError::NotADirectory(absolute));
    }
    ctx.storage.remove(&absolute, false)
}

/// `touch [-acm] [-d DATE] [-r FILE] [-t STAMP] FILE…`: creates missing
/// files. The storage cannot set times, so an existing file is left as it
/// is and the time options are accepted and ignored.
pub(super) fn touch(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "acfhmd:r:t:",
        long: &[
            ("no-create", "c", HasArg::No),
            ("date", "d", HasArg::Yes),
            ("reference", "r", HasArg::Yes),
            ("no-dereference", "h", HasArg::No),
            ("time", "T", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing file operand")?;
        return Ok(1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let absolute = ctx.path(operand);
        match ctx.stat(operand) {
            Ok(_) => continue,
            Err(_) if parsed.has("c") => continue,
            // `touch f/`, or `touch new/`: no file is made.
            Err(error @ StorageError::NotADirectory(_)) => {
                fail(ctx, "setting times of", operand, &error)?;
                status = 1;
                continue;
            }
            Err(error) if has_trailing_slash(operand) => {
                fail(ctx, "setting times of", operand, &error)?;
                status = 1;
                continue;
            }
            Err(_) => {}
        }
        if let Err(error) = ctx.storage.append(&absolute, b"") {
            fail(ctx, "cannot touch", operand, &error)?;
            status = 1;
        }
    }
    Ok(status)
}

/// `tee [-a] [FILE]…`: stdin to stdout and to every file.
pub(super) fn tee(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "aip",
        long: &[("append", "a", HasArg::No), ("ignore-interrupts", "i", HasArg::No), ("output-error", "p", HasArg::No)],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let mut status = 0;
    // The files that opened, created or truncated first as GNU's are; then
    // each chunk of stdin goes to them and to stdout as it comes.
    // `/dev/stdout` and `/dev/stderr` are this command's own streams.
    enum Sink {
        File(String),
        Stdout,
        Stderr,
    }
    let mut open: Vec<(&String, Sink)> = Vec::new();
    for operand in &parsed.operands {
        match operand.as_str() {
            "-" => continue,
            "/dev/stdout" => {
                open.push((operand, Sink::Stdout));
                continue;
            }
            "/dev/stderr" => {
                open.push((operand, Sink::Stderr));
                continue;
            }
            _ => {}
        }
        let absolute = ctx.path(operand);
        if has_trailing_slash(operand) {
            ctx.storage_error(operand, &StorageError::IsADirectory(absolute))?;
            status = 1;
            continue;
        }
        let result =
            if parsed.has("a") { ctx.storage.append(&absolute, b"") } else { ctx.storage.write(&absolute, b"") };
        match result {
            Ok(()) => open.push((operand, Sink::File(absolute))),
            Err(error) => {
                ctx.storage_error(operand, &error)?;
                status = 1;
            }
        }
    }
    while let Some(chunk) = ctx.stdin.read_chunk()? {
        let mut failed = Vec::new();
        for (index, (operand, sink)) in open.iter().enumerate() {
            match sink {
                Sink::Stdout => ctx.stdout.write(&chunk)?,
                Sink::Stderr => ctx.stderr.write(&chunk)?,
                Sink::File(absolute) => {
                    if let Err(error) = ctx.storage.append(absolute, &chunk) {
                        ctx.storage_error(operand, &error)?;
                        status = 1;
                        failed.push(index);
                    }
                }
            }
        }
        for index in failed.into_iter().rev() {
            open.remove(index);
        }
        ctx.stdout.write(&chunk)?;
    }
    Ok(status)
}

/// `ln -s [-fnTv] TARGET [LINK]` and `ln -s TARGET… DIR`. Only symbolic
/// links exist: without `-s` it fails (the storage has no hard links).
pub(super) fn ln(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "sfnTvrLPibt:",
        long: &[
            ("symbolic", "s", HasArg::No),
            ("force", "f", HasArg::No),
            ("no-dereference", "n", HasArg::No),
            ("no-target-directory", "T", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("target-directory", "t", HasArg::Yes),
            ("relative", "r", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing file operand")?;
        return Ok(1);
    }
    if !parsed.has("s") {
        ctx.error("hard links are not supported in this shell; use 'ln -s' for a symbolic link")?;
        return Ok(1);
    }
    // The (target, link as shown) pairs to make.
    let mut pairs: Vec<(String, String)> = Vec::new();
    let operands = &parsed.operands;
    let into_dir = |dir: &str, target: &str| child(dir, base_name(target));
    if let Some(dir) = parsed.value("t") {
        pairs.extend(operands.iter().map(|target| (target.clone(), into_dir(dir, target))));
    } else if operands.len() == 1 {
        pairs.push((operands[0].clone(), child(".", base_name(&operands[0]))));
    } else {
        let (last, targets) = operands.split_last().unwrap_or((&operands[0], &[]));
        let last_is_dir = !parsed.has("T") && {
            let absolute = ctx.path(last);
            if parsed.has("n") {
                matches!(ctx.storage.lstat(&absolute), Ok(meta) if meta.kind == FileKind::Directory)
            } else {
                is_dir(ctx, &absolute)
            }
        };
        if last_is_dir {
            pairs.extend(targets.iter().map(|target| (target.clone(), into_dir(last, target))));
        } else if targets.len() == 1 {
            pairs.push((targets[0].clone(), last.clone()));
        } else {
            ctx.error(format_args!("target {} is not a directory", quote(last)))?;
            return Ok(1);
        }
    }
    let mut status = 0;
    for (target, link) in pairs {
        let absolute = ctx.path(&link);
        if parsed.has("f") {
            if let Ok(meta) = ctx.storage.lstat(&absolute) {
                if meta.kind != FileKind::Directory {
                    let _ = ctx.storage.remove(&absolute, false);
                }
            }
        }
        match ctx.storage.symlink(&target, &absolute) {
            Ok(()) if parsed.has("v") => ctx.stdout.write_str(&format!("{} -> {}\n", quote(&link), quote(&target)))?,
            Ok(()) => {}
            Err(error) => {
                fail(ctx, "failed to create symbolic link", &link, &error)?;
                status = 1;
            }
        }
    }
    Ok(status)
}

/// `readlink [-femnqsvz] FILE…`: a symlink's target, or with `-f`/`-e`/`-m`
/// the canonical path. Failures are silent (status 1) unless `-v`.
pub(super) fn readlink(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "femnqsvz",
        long: &[
            ("canonicalize", "f", HasArg::No),
            ("canonicalize-existing", "e", HasArg::No),
            ("canonicalize-missing", "m", HasArg::No),
            ("no-newline", "n", HasArg::No),
            ("quiet", "q", HasArg::No),
            ("silent", "s", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("zero", "z", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let mode = parsed.options.iter().rev().find_map(|(option, _)| match *option {
        "f" => Some(Canon::AllButLast),
        "e" => Some(Canon::Existing),
        "m" => Some(Canon::Missing),
        _ => None,
    });
    let terminator = if parsed.has("z") {
        "\0"
    } else if parsed.has("n") && parsed.operands.len() == 1 {
        ""
    } else {
        "\n"
    };
    let mut status = 0;
    for operand in &parsed.operands {
        let result = match mode {
            Some(mode) => canonicalize(ctx, operand, mode),
            None => ctx.storage.readlink(&ctx.path(operand)),
        };
        match result {
            Ok(path) => ctx.stdout.write_str(&format!("{path}{terminator}"))?,
            Err(error) => {
                if parsed.has("v") {
                    ctx.storage_error(operand, &error)?;
                }
                status = 1;
            }
        }
    }
    Ok(status)
}

/// `realpath [-emqsz] FILE…`: the canonical absolute path.
pub(super) fn realpath(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "emqszLPR:B:",
        long: &[
            ("relative-to", "R", HasArg::Yes),
            ("relative-base", "B", HasArg::Yes),
            ("canonicalize-existing", "e", HasArg::No),
            ("canonicalize-missing", "m", HasArg::No),
            ("quiet", "q", HasArg::No),
            ("strip", "s", HasArg::No),
            ("no-symlinks", "s", HasArg::No),
            ("zero", "z", HasArg::No),
            ("logical", "L", HasArg::No),
            ("physical", "P", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let mode = parsed.options.iter().rev().find_map(|(option, _)| match *option {
        "e" => Some(Canon::Existing),
        "m" => Some(Canon::Missing),
        _ => None,
    });
    let terminator = if parsed.has("z") { "\0" } else { "\n" };
    let mut status = 0;
    // `--relative-to=DIR`, `--relative-base=DIR`: canonicalised as the operands are.
    let mut anchors = [None, None];
    for (slot, option) in [(0, "R"), (1, "B")] {
        if let Some(dir) = parsed.value(option) {
            let dir = dir.to_string();
            match canonicalize(ctx, &dir, mode.unwrap_or(Canon::AllButLast)) {
                Ok(path) => anchors[slot] = Some(path),
                Err(error) => {
                    ctx.error(format_args!("{dir}: {}", error_reason(&error)))?;
                    return Ok(1);
                }
            }
        }
    }
    for operand in &parsed.operands {
        let result = if parsed.has("s") {
            let absolute = ctx.path(operand);
            match mode {
                Some(Canon::Missing) => Ok(absolute),
                _ => ctx.storage.lstat(&absolute).map(|_| absolute),
            }
        } else {
            canonicalize(ctx, operand, mode.unwrap_or(Canon::AllButLast))
        };
        let result = result.map(|path| match &anchors {
            [Some(to), Some(base)] if under(&path, base) && under(to, base) => relative(&path, to),
            [Some(_), Some(_)] => path,
            [Some(to), None] => relative(&path, to),
            [None, Some(base)] if under(&path, base) => relative(&path, base),
            _ => path,
        });
        match result {
            Ok(path) => ctx.stdout.write_str(&format!("{path}{terminator}"))?,
            Err(error) => {
                if !parsed.has("q") {
                    ctx.error(format_args!("{operand}: {}", error_reason(&error)))?;
                }
                status = 1;
            }
        }
    }
    Ok(status)
}

/// Whether absolute `path` is `base` or under it.
fn under(path: &str, base: &str) -> bool {
    base == "/" || path == base || path.strip_prefix(base).is_some_and(|rest| rest.starts_with('/'))
}

/// `path` relative to the directory `from` (both absolute, normalised).
fn relative(path: &str, from: &str) -> String {
    let parts = |p: &str| p.split('/').filter(|c| !c.is_empty()).map(str::to_string).collect::<Vec<_>>();
    let (to, from) = (parts(path), parts(from));
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".to_string(); from.len() - common];
    out.extend(to[common..].iter().cloned());
    if out.is_empty() {
        ".".to_string()
    } else {
        out.join("/")
    }
}

/// `basename NAME [SUFFIX]`, `basename -a [-s SUFFIX] [-z] NAME…`.
pub(super) fn basename(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "azs:",
        long: &[("multiple", "a", HasArg::No), ("suffix", "s", HasArg::Yes), ("zero", "z", HasArg::No)],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let operands = &parsed.operands;
    if operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let multiple = parsed.has("a") || parsed.has("s");
    let (names, suffix): (&[String], Option<&str>) = if multiple {
        (operands, parsed.value("s"))
    } else if operands.len() > 2 {
        usage_error(ctx, format_args!("extra operand {}", quote(&operands[2])))?;
        return Ok(1);
    } else {
        (&operands[..1], operands.get(1).map(String::as_str))
    };
    let terminator = if parsed.has("z") { "\0" } else { "\n" };
    for name in names {
        let mut base = base_name(name);
        if let Some(suffix) = suffix {
            if base != suffix && !suffix.is_empty() {
                base = base.strip_suffix(suffix).unwrap_or(base);
            }
        }
        ctx.stdout.write_str(&format!("{base}{terminator}"))?;
    }
    Ok(0)
}

/// `dirname [-z] NAME…`.
pub(super) fn dirname(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec { short: "z", long: &[("zero", "z", HasArg::No)] };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let terminator = if parsed.has("z") { "\0" } else { "\n" };
    for name in &parsed.operands {
        ctx.stdout.write_str(&format!("{}{terminator}", dir_name(name)))?;
    }
    Ok(0)
}

/// The directory part of a name: `a/b/` → `a`, `a` → `.`, `/a` → `/`.
fn dir_name(name: &str) -> &str {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { "." } else { "/" };
    }
    match trimmed.rfind('/') {
        None => ".",
        Some(cut) => {
            let head = trimmed[..cut].trim_end_matches('/');
            if head.is_empty() {
                "/"
            } else {
                head
            }
        }
    }
}

/// `mktemp [-dqtu] [-p DIR] [--suffix=S] [TEMPLATE]`: creates a file (or
/// directory) with a unique name; the default template is
/// `tmp.XXXXXXXXXX` in `$TMPDIR` or `/tmp`, which is created when missing.
pub(super) fn mktemp(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "dqtup:",
        long: &[
            ("directory", "d", HasArg::No),
            ("quiet", "q", HasArg::No),
            ("dry-run", "u", HasArg::No),
            ("tmpdir", "p", HasArg::Yes),
            ("suffix", "S", HasArg::Yes),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.len() > 1 {
        usage_error(ctx, "too many templates")?;
        return Ok(1);
    }
    let template = parsed.operands.first().cloned().unwrap_or_else(|| "tmp.XXXXXXXXXX".to_string());
    // The suffix is `--suffix`'s (then the template must end in X), else
    // what follows the template's last X, as GNU's.
    let (template, suffix) = match parsed.value("S") {
        Some(suffix) => {
            if suffix.contains('/') {
                ctx.error(format_args!("invalid suffix {}, contains directory separator", quote(suffix)))?;
                return Ok(1);
            }
            if !template.ends_with('X') {
                ctx.error(format_args!("with --suffix, template {} must end in X", quote(&template)))?;
                return Ok(1);
            }
            (template.clone(), suffix.to_string())
        }
        None => match template.rfind('X') {
            Some(at) => (template[..=at].to_string(), template[at + 1..].to_string()),
            None => (template.clone(), String::new()),
        },
    };
    let suffix = suffix.as_str();
    let stem_len = template.len() - template.trim_end_matches('X').len();
    if stem_len < 3 {
        ctx.error(format_args!("too few X's in template {}", quote(&format!("{template}{suffix}"))))?;
        return Ok(1);
    }
    let use_dir = parsed.operands.is_empty() || parsed.has("t") || parsed.has("p");
    let dir = if use_dir {
        let dir = parsed
            .value("p")
            .map(str::to_string)
            .or_else(|| (ctx.var)("TMPDIR").filter(|dir| !dir.is_empty()))
            .unwrap_or_else(|| "/tmp".to_string());
        if !parsed.has("u") {
            let _ = ctx.storage.mkdir(&ctx.path(&dir), true);
        }
        Some(dir)
    } else {
        None
    };
    let prefix = &template[..template.len() - stem_len];
    let mut seed = random_seed(ctx);
    for _ in 0..100 {
        let mut name = prefix.to_string();
        for _ in 0..stem_len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
            name.push(ALPHABET[(seed % ALPHABET.len() as u64) as usize] as char);
        }
        name.push_str(suffix);
        let shown = match &dir {
            Some(dir) => child(dir, &name),
            None => name,
        };
        let absolute = ctx.path(&shown);
        if ctx.storage.lstat(&absolute).is_ok() {
            continue;
        }
        let result = if parsed.has("u") {
            Ok(())
        } else if parsed.has("d") {
            ctx.storage.mkdir(&absolute, false)
        } else {
            ctx.storage.write(&absolute, b"")
        };
        return match result {
            Ok(()) => {
                ctx.stdout.write_str(&format!("{shown}\n"))?;
                Ok(0)
            }
            Err(error) => {
                if !parsed.has("q") {
                    let what = if parsed.has("d") {
                        "failed to create directory via template"
                    } else {
                        "failed to create file via template"
                    };
                    fail(ctx, what, &shown, &error)?;
                }
                Ok(1)
            }
        };
    }
    ctx.error(format_args!("failed to create file via template {}: File exists", quote(&template)))?;
    Ok(1)
}

/// A seed that differs from call to call: the clock and a counter.
fn random_seed(ctx: &Context<'_>) -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let address = ctx as *const _ as u64;
    (nanos ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ address) | 1
}

#[cfg(test)]
mod tests {
    use super::super::test_support::storage;
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(storage: &MemoryStorage, name: &str, args: &[&str]) -> (i32, String, String) {
        run_for_test(storage, name, args, "")
    }

    #[test]
    fn cat_concatenates_and_reports_missing_files() {
        let fs = storage(&[("/f", "x\n"), ("/d/", "")]);
        assert_eq!(
            run(&fs, "cat", &["f", "nope", "f"]),
            (1, "x\nx\n".into(), "cat: nope: No such file or directory\n".into())
        );
        assert_eq!(run(&fs, "cat", &["d"]), (1, "".into(), "cat: d: Is a directory\n".into()));
        assert_eq!(run(&fs, "cat", &["-n", "f", "f"]), (0, "     1\tx\n     2\tx\n".into(), "".into()));
        assert_eq!(run_for_test(&fs, "cat", &["-", "f"], "in\n"), (0, "in\nx\n".into(), "".into()));
        assert_eq!(run_for_test(&fs, "cat", &["-A"], "a\tb\x01\n"), (0, "a^Ib^A$\n".into(), "".into()));
        assert_eq!(run_for_test(&fs, "cat", &["-s"], "a\n\n\n\nb\n"), (0, "a\n\nb\n".into(), "".into()));
        assert_eq!(
            run(&fs, "cat", &["-z"]),
            (1, "".into(), "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n".into())
        );
    }

    #[test]
    fn mkdir_reports_like_gnu() {
        let fs = storage(&[("/f", "")]);
        assert_eq!(run(&fs, "mkdir", &["a"]).0, 0);
        assert_eq!(
            run(&fs, "mkdir", &["a", "b/c"]),
            (
                1,
                "".into(),
                "mkdir: cannot create directory 'a': File exists\nmkdir: cannot create directory 'b/c': No such file or directory\n"
                    .into()
            )
        );
        assert_eq!(
            run(&fs, "mkdir", &["-pv", "q/w"]),
            (0, "mkdir: created directory 'q'\nmkdir: created directory 'q/w'\n".into(), "".into())
        );
        assert_eq!(run(&fs, "mkdir", &["-p", "q/w", "a"]).0, 0);
        assert_eq!(
            run(&fs, "mkdir", &["-p", "f/x"]),
            (1, "".into(), "mkdir: cannot create directory 'f': Not a directory\n".into())
        );
        assert_eq!(
            run(&fs, "mkdir", &[]),
            (1, "".into(), "mkdir: missing operand\nTry 'mkdir --help' for more information.\n".into())
        );
    }

    #[test]
    fn rm_and_rmdir_follow_gnu_rules() {
        let fs = storage(&[("/f", ""), ("/d/e/x", "")]);
        assert_eq!(run(&fs, "rm", &["d"]), (1, "".into(), "rm: cannot remove 'd': Is a directory\n".into()));
        assert_eq!(
            run(&fs, "rm", &["nope"]),
            (1, "".into(), "rm: cannot remove 'nope': No such file or directory\n".into())
        );
        assert_eq!(run(&fs, "rm", &["-f", "nope"]), (0, "".into(), "".into()));
        assert_eq!(run(&fs, "rm", &["-f"]), (0, "".into(), "".into()));
        assert_eq!(
            run(&fs, "rm", &["-r", "."]),
            (1, "".into(), "rm: refusing to remove '.' or '..' directory: skipping '.'\n".into())
        );
        assert_eq!(
            run(&fs, "rmdir", &["d"]),
            (1, "".into(), "rmdir: failed to remove 'd': Directory not empty\n".into())
        );
        assert_eq!(run(&fs, "rmdir", &["f"]), (1, "".into(), "rmdir: failed to remove 'f': Not a directory\n".into()));
        assert_eq!(
            run(&fs, "rm", &["-rv", "d"]),
            (0, "removed 'd/e/x'\nremoved directory 'd/e'\nremoved directory 'd'\n".into(), "".into())
        );
        assert_eq!(run(&fs, "rm", &["-v", "f"]), (0, "removed 'f'\n".into(), "".into()));
        fs.mkdir("/a/b/c", true).unwrap();
        assert_eq!(run(&fs, "rmdir", &["-p", "a/b/c"]), (0, "".into(), "".into()));
        assert!(fs.stat("/a").is_err());
    }

    #[test]
    fn touch_tee_and_names() {
        let fs = storage(&[("/f", "keep")]);
        assert_eq!(run(&fs, "touch", &["f", "new"]), (0, "".into(), "".into()));
        assert_eq!(fs.read("/f").unwrap(), b"keep");
        assert_eq!(fs.read("/new").unwrap(), b"");
        assert_eq!(run(&fs, "touch", &["-c", "other"]).0, 0);
        assert!(fs.stat("/other").is_err());
        assert_eq!(
            run(&fs, "touch", &["zz/q"]),
            (1, "".into(), "touch: cannot touch 'zz/q': No such file or directory\n".into())
        );
        assert_eq!(
            run_for_test(&fs, "tee", &["t", "nope/x"], "hi\n"),
            (1, "hi\n".into(), "tee: nope/x: No such file or directory\n".into())
        );
        run_for_test(&fs, "tee", &["-a", "t"], "again\n");
        assert_eq!(fs.read("/t").unwrap(), b"hi\nagain\n");
        assert_eq!(run(&fs, "basename", &["x.c", ".c"]).1, "x\n");
        assert_eq!(run(&fs, "basename", &[".c", ".c"]).1, ".c\n");
        assert_eq!(run(&fs, "basename", &["-a", "a/b", "c/"]).1, "b\nc\n");
        assert_eq!(run(&fs, "basename", &["-s", ".rs", "a.rs", "b.rs"]).1, "a\nb\n");
        assert_eq!(
            run(&fs, "basename", &["a", "b", "c"]),
            (1, "".into(), "basename: extra operand 'c'\nTry 'basename --help' for more information.\n".into())
        );
        assert_eq!(run(&fs, "dirname", &["a", "/a", "a/b/", "//", "/a/b//"]).1, ".\n/\na\n/\n/a\n");
    }

    #[test]
    fn links_resolve_like_gnu() {
        let fs = storage(&[("/f", "x"), ("/d/g", "")]);
        assert_eq!(run(&fs, "ln", &["-s", "f", "l"]), (0, "".into(), "".into()));
        assert_eq!(
            run(&fs, "ln", &["-s", "f", "l"]),
            (1, "".into(), "ln: failed to create symbolic link 'l': File exists\n".into())
        );
        assert_eq!(
            run(&fs, "ln", &["-s", "f"]),
            (1, "".into(), "ln: failed to create symbolic link './f': File exists\n".into())
        );
        assert_eq!(run(&fs, "ln", &["-sf", "d", "l"]).0, 0);
        assert_eq!(run(&fs, "readlink", &["l"]), (0, "d\n".into(), "".into()));
        assert_eq!(run(&fs, "readlink", &["f"]), (1, "".into(), "".into()));
        assert_eq!(run(&fs, "readlink", &["-f", "l/g"]), (0, "/d/g\n".into(), "".into()));
        assert_eq!(run(&fs, "realpath", &["l/../f", "l/nope"]), (0, "/f\n/d/nope\n".into(), "".into()));
        assert_eq!(
            run(&fs, "realpath", &["nope/x"]),
            (1, "".into(), "realpath: nope/x: No such file or directory\n".into())
        );
        assert_eq!(run(&fs, "realpath", &["f/x"]), (1, "".into(), "realpath: f/x: Not a directory\n".into()));
        assert_eq!(run(&fs, "ln", &["f", "h"]).0, 1);
        assert_eq!(run(&fs, "ln", &["-s", "../f", "d"]).0, 0);
        assert_eq!(fs.readlink("/d/f").unwrap(), "../f");
    }

    #[test]
    fn mktemp_makes_unique_files() {
        let fs = MemoryStorage::default();
        let (status, first, _) = run(&fs, "mktemp", &[]);
        assert_eq!(status, 0);
        let (_, second, _) = run(&fs, "mktemp", &["-d"]);
        assert!(first.starts_with("/tmp/tmp.") && first.len() == "/tmp/tmp.XXXXXXXXXX\n".len());
        assert_ne!(first, second);
        assert!(fs.stat(second.trim_end()).unwrap().kind == crate::storage::FileKind::Directory);
    }
}
