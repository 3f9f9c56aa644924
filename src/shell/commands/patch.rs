//! `patch` (GNU patch 2.7.6) for unified diffs, as agents apply them:
//! `-p N`, `-i FILE` or stdin, `-R`, `--dry-run`, `-d DIR`, `-s`, `-N`,
//! `--no-backup-if-mismatch`; files created (from `/dev/null` or an epoch
//! timestamp) and deleted; each hunk is looked for at its line, then ever
//! further above and below (GNU's offset search), and a hunk that matches
//! nowhere is saved to `FILE.rej` with GNU's messages. A file patched at an
//! offset is first backed up to `FILE.orig`, as GNU does by default.
//!
//! A hunk whose outer context lines are stale applies with GNU's fuzz (up
//! to 2 lines at each end), its context lines taken from the file.
//!
//! Differences: the whole patch is read before any file is patched (a
//! malformed hunk is reported before `patching file`); no context or normal
//! diffs, no `ed` scripts, no git binary patches or renames; questions GNU
//! would ask get its non-interactive answers (`[n]`, skip).

use crate::shell::command::{error_reason, CommandFn, Context};
use crate::shell::LimitHit;
use crate::storage::{join, FileKind};

use super::text::common::{parse, Arg, HasArg, Spec};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("patch", patch)];

struct Hunk {
    old_start: usize,
    /// ' ', '-' or '+' and the line's text, without its newline.
    lines: Vec<(u8, Vec<u8>)>,
    /// The old (new) side's last line has no newline (`\ No newline`).
    old_no_newline: bool,
    new_no_newline: bool,
    /// The hunk as written, for the reject file.
    raw: Vec<u8>,
    /// The input line of its `@@`.
    line: usize,
}

struct FilePatch {
    old: String,
    new: String,
    old_missing: bool,
    new_missing: bool,
    /// What followed each name on its line (a tab and the time), for `.rej`.
    old_time: String,
    new_time: String,
    /// Text from the end of the previous file's hunks to the `+++` line.
    leading: Vec<u8>,
    hunks: Vec<Hunk>,
}

/// `--- name\ttime`: the name and whether the time says "no file".
fn name_of(rest: &[u8]) -> (String, bool, String) {
    let text = String::from_utf8_lossy(rest).into_owned();
    let (name, time) = match text.split_once('\t') {
        Some((name, time)) => (name.to_string(), time.trim().to_string()),
        None => (text.trim_end().to_string(), String::new()),
    };
    let name = name.trim().to_string();
    let epoch = time.starts_with("1970-01-01 00:00:00") || time.starts_with("1969-12-31");
    let missing = name == "/dev/null" || epoch;
    let suffix = if time.is_empty() { String::new() } else { format!("\t{time}") };
    (name, missing, suffix)
}

fn parse_range(text: &str) -> Option<(usize, usize)> {
    match text.split_once(',') {
        Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

fn parse_patch(data: &[u8]) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    let mut patches: Vec<FilePatch> = Vec::new();
    let mut leading: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with(b"--- ") && lines.get(i + 1).is_some_and(|next| next.starts_with(b"+++ ")) {
            let strip = |l: &[u8]| l.strip_suffix(b"\n").unwrap_or(l).strip_suffix(b"\r").map(<[u8]>::to_vec);
            let first = strip(line).unwrap_or_else(|| line.strip_suffix(b"\n").unwrap_or(line).to_vec());
            let second = strip(lines[i + 1])
                .unwrap_or_else(|| lines[i + 1].strip_suffix(b"\n").unwrap_or(lines[i + 1]).to_vec());
            let (old, old_missing, old_time) = name_of(&first[4..]);
            let (new, new_missing, new_time) = name_of(&second[4..]);
            leading.extend_from_slice(line);
            leading.extend_from_slice(lines[i + 1]);
            i += 2;
            let mut hunks = Vec::new();
            while i < lines.len() && lines[i].starts_with(b"@@ ") {
                let head = String::from_utf8_lossy(lines[i]).into_owned();
                let parts: Vec<&str> = head.split_whitespace().collect();
                let at_line = i + 1;
                let bad = || format!("malformed patch at line {at_line}: {head}");
                if parts.len() < 4 || !parts[1].starts_with('-') || !parts[2].starts_with('+') {
                    return Err(bad());
                }
                let (old_start, old_len) = parse_range(&parts[1][1..]).ok_or_else(bad)?;
                let (_, new_len) = parse_range(&parts[2][1..]).ok_or_else(bad)?;
                let mut hunk = Hunk {
                    old_start,
                    lines: Vec::new(),
                    old_no_newline: false,
                    new_no_newline: false,
                    raw: lines[i].to_vec(),
                    line: i + 1,
                };
                i += 1;
                let (mut old_seen, mut new_seen) = (0, 0);
                while (old_seen < old_len || new_seen < new_len) && i < lines.len() {
                    let l = lines[i];
                    let body = l.strip_suffix(b"\n").unwrap_or(l);
                    let (kind, text) = match body.first() {
                        Some(b' ') | Some(b'-') | Some(b'+') => (body[0], body[1..].to_vec()),
                        // An empty line stands for an empty context line.
                        None => (b' ', Vec::new()),
                        Some(b'\\') => {
                            i += 1;
                            continue;
                        }
                        _ => {
                            // GNU quotes the line with its newline, then ends the message.
                            let text = String::from_utf8_lossy(l).into_owned();
                            return Err(format!("malformed patch at line {}: {text}", i + 1));
                        }
                    };
                    match kind {
                        b' ' => {
                            old_seen += 1;
                            new_seen += 1;
                        }
                        b'-' => old_seen += 1,
                        _ => new_seen += 1,
                    }
                    hunk.raw.extend_from_slice(l);
                    hunk.lines.push((kind, text));
                    i += 1;
                }
                // A hunk cut short by the end of the input (counts one or two
                // too high, as hand-written hunks often are): GNU reads the
                // missing lines as empty context lines.
                while i >= lines.len() && old_seen < old_len && new_seen < new_len {
                    hunk.raw.extend_from_slice(b" \n");
                    hunk.lines.push((b' ', Vec::new()));
                    old_seen += 1;
                    new_seen += 1;
                }
                if old_seen != old_len || new_seen != new_len {
                    return Err(format!("malformed patch at line {}: {}", i + 1, head.trim_end()));
                }
                // `\ No newline at end of file` after the last lines.
                while i < lines.len() && lines[i].starts_with(b"\\") {
                    hunk.raw.extend_from_slice(lines[i]);
                    match hunk.lines.last().map(|l| l.0) {
                        Some(b'-') => hunk.old_no_newline = true,
                        Some(b'+') => hunk.new_no_newline = true,
                        _ => {
                            hunk.old_no_newline = true;
                            hunk.new_no_newline = true;
                        }
                    }
                    i += 1;
                }
                hunks.push(hunk);
            }
            patches.push(FilePatch {
                old,
                new,
                old_missing,
                new_missing,
                old_time,
                new_time,
                leading: std::mem::take(&mut leading),
                hunks,
            });
            continue;
        }
        leading.extend_from_slice(line);
        i += 1;
    }
    Ok(patches)
}

struct Opts {
    strip: Option<usize>,
    reverse: bool,
    dry_run: bool,
    silent: bool,
    forward: bool,
    backup: bool,
    /// `-b`: back the file up to `FILE.orig` even when every hunk matched.
    always_backup: bool,
    directory: Option<String>,
}

fn patch(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "p:i:Rd:sNfttEbo:u",
        long: &[
            ("strip", "p", HasArg::Yes),
            ("input", "i", HasArg::Yes),
            ("reverse", "R", HasArg::No),
            ("directory", "d", HasArg::Yes),
            ("dry-run", "dry-run", HasArg::No),
            ("silent", "s", HasArg::No),
            ("quiet", "s", HasArg::No),
            ("forward", "N", HasArg::No),
            ("force", "f", HasArg::No),
            ("batch", "t", HasArg::No),
            ("remove-empty-files", "E", HasArg::No),
            ("unified", "u", HasArg::No),
            ("no-backup-if-mismatch", "no-backup-if-mismatch", HasArg::No),
            ("backup-if-mismatch", "backup-if-mismatch", HasArg::No),
        ],
    };
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => {
            ctx.error(message)?;
            ctx.stderr.write_str("patch: Try 'patch --help' for more information.\n")?;
            return Ok(2);
        }
    };
    let mut opts = Opts {
        strip: None,
        reverse: false,
        dry_run: false,
        silent: false,
        forward: false,
        backup: true,
        always_backup: false,
        directory: None,
    };
    let (mut input, mut operands) = (None, Vec::new());
    for arg in parsed {
        match arg {
            Arg::Opt("p", Some(value)) => match value.parse() {
                Ok(n) => opts.strip = Some(n),
                Err(_) => {
                    ctx.error(format!("strip count {value} is not a number"))?;
                    return Ok(2);
                }
            },
            Arg::Opt("i", value) => input = value,
            Arg::Opt("R", _) => opts.reverse = true,
            Arg::Opt("d", value) => opts.directory = value,
            Arg::Opt("dry-run", _) => opts.dry_run = true,
            Arg::Opt("s", _) => opts.silent = true,
            Arg::Opt("N", _) => opts.forward = true,
            Arg::Opt("b", _) => opts.always_backup = true,
            Arg::Opt("no-backup-if-mismatch", _) => opts.backup = false,
            Arg::Opt(..) => {}
            Arg::Operand(operand) => operands.push(operand),
        }
    }
    // `patch FILE [PATCHFILE]`: FILE is the file to patch.
    let forced_file = operands.first().cloned();
    if input.is_none() {
        input = operands.get(1).cloned();
    }
    let data = match &input {
        Some(path) => match ctx.read(path) {
            Ok(data) => data,
            Err(error) => {
                ctx.error(format!("Can't open patch file {path} : {}", error_reason(&error)))?;
                return Ok(2);
            }
        },
        None => ctx.stdin.read_all()?,
    };
    let patches = match parse_patch(&data) {
        Ok(patches) => patches,
        Err(message) => {
            ctx.stderr.write_str(&format!("patch: **** {message}\n"))?;
            return Ok(2);
        }
    };
    if patches.is_empty() {
        let has_text = data.iter().any(|b| !b.is_ascii_whitespace());
        if has_text {
            ctx.stderr.write_str("patch: **** Only garbage was found in the patch input.\n")?;
            return Ok(2);
        }
        return Ok(0);
    }
    let mut status = 0;
    for file_patch in &patches {
        status = status.max(apply_file(ctx, file_patch, &opts, forced_file.as_deref())?);
    }
    Ok(status)
}

/// Strips `n` leading components; `None` when there are fewer.
fn strip_name(name: &str, n: usize) -> Option<String> {
    let mut rest = name;
    for _ in 0..n {
        let at = rest.find('/')?;
        rest = rest[at + 1..].trim_start_matches('/');
    }
    (!rest.is_empty()).then(|| rest.to_string())
}

fn apply_file(ctx: &mut Context<'_>, fp: &FilePatch, opts: &Opts, forced: Option<&str>) -> Result<i32, LimitHit> {
    (ctx.check)()?;
    let (mut old_missing, mut new_missing) = (fp.old_missing, fp.new_missing);
    if opts.reverse {
        std::mem::swap(&mut old_missing, &mut new_missing);
    }
    let base = |name: &str| -> Option<String> {
        if name == "/dev/null" {
            return None;
        }
        match opts.strip {
            Some(n) => strip_name(name, n),
            None => {
                // GNU: the whole name if its directories exist, else the base name.
                let dir = name.rsplit_once('/').map(|(d, _)| d);
                match dir {
                    Some(dir)
                        if !name.starts_with('/')
                            && ctx.stat(&prefixed(opts, dir)).is_ok_and(|m| m.kind == FileKind::Directory) =>
                    {
                        Some(name.to_string())
                    }
                    _ => name.rsplit('/').next().map(str::to_string),
                }
            }
        }
    };
    let candidates: Vec<String> = [base(&fp.old), base(&fp.new)].into_iter().flatten().collect();
    let exists = |name: &str| ctx.stat(&prefixed(opts, name)).is_ok();
    let chosen = match forced {
        Some(file) => Some(file.to_string()),
        None => {
            let existing: Vec<&String> = candidates.iter().filter(|c| exists(c)).collect();
            let pick = |list: &[&String]| -> Option<String> {
                list.iter()
                    .min_by_key(|c| (c.matches('/').count(), c.rsplit('/').next().map_or(0, str::len), c.len()))
                    .map(|c| c.to_string())
            };
            pick(&existing).or_else(|| {
                if old_missing {
                    let all: Vec<&String> = candidates.iter().collect();
                    pick(&all)
                } else {
                    None
                }
            })
        }
    };
    // The reject file's header: the names as stripped, the times kept.
    let rej_header = format!(
        "--- {}{}\n+++ {}{}\n",
        base(&fp.old).unwrap_or_else(|| fp.old.clone()),
        fp.old_time,
        base(&fp.new).unwrap_or_else(|| fp.new.clone()),
        fp.new_time
    )
    .into_bytes();
    let total = fp.hunks.len();
    let plural = |n: usize| if n == 1 { "hunk" } else { "hunks" };
    let mut out = String::new();
    let Some(name) = chosen else {
        let first_line = fp.hunks.first().map_or(0, |h| h.line);
        out.push_str(&format!(
            "can't find file to patch at input line {first_line}\nPerhaps you {} the wrong -p or --strip option?\n\
             The text leading up to this was:\n--------------------------\n",
            if opts.strip.is_some() { "used" } else { "should have used" }
        ));
        for line in String::from_utf8_lossy(&fp.leading).lines() {
            out.push_str(&format!("|{line}\n"));
        }
        out.push_str("--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n");
        out.push_str(&format!("{total} out of {total} {} ignored\n", plural(total)));
        ctx.stdout.write_str(&out)?;
        return Ok(1);
    };
    let path = prefixed(opts, &name);
    let absolute = ctx.path(&path);
    let current = match ctx.storage.read(&absolute) {
        Ok(data) => Some(data),
        Err(crate::storage::StorageError::NotFound(_)) => None,
        Err(error) => {
            ctx.stderr.write_str(&format!("patch: **** Can't open file {name} : {}\n", error_reason(&error)))?;
            return Ok(2);
        }
    };
    let skip = |out: &mut String, what: &str| {
        out.push_str(what);
        out.push_str("  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n");
        out.push_str(&format!("{total} out of {total} {} ignored\n", plural(total)));
    };
    if old_missing && current.as_ref().is_some_and(|c| !c.is_empty()) && total > 0 {
        skip(&mut out, &format!("The next patch would create the file {name},\nwhich already exists!"));
        ctx.stdout.write_str(&out)?;
        return Ok(1);
    }
    if new_missing && !old_missing && current.is_none() {
        skip(&mut out, &format!("The next patch would delete the file {name},\nwhich does not exist!"));
        ctx.stdout.write_str(&out)?;
        return Ok(1);
    }
    if current.is_none() && !old_missing {
        ctx.stdout.write_str(&out)?;
        ctx.stderr.write_str(&format!("patch: **** Can't open file {name} : No such file or directory\n"))?;
        return Ok(2);
    }
    if !opts.silent {
        out.push_str(&format!("{} file {name}\n", if opts.dry_run { "checking" } else { "patching" }));
    }
    let original = current.clone().unwrap_or_default();
    let had_newline = original.is_empty() || original.ends_with(b"\n");
    let input: Vec<&[u8]> = if original.is_empty() {
        Vec::new()
    } else {
        original.strip_suffix(b"\n").unwrap_or(&original).split(|&b| b == b'\n').collect()
    };
    let mut output: Vec<Vec<u8>> = Vec::new();
    let mut final_newline = had_newline;
    let mut copied = 0; // input lines consumed
    let mut out_delta: isize = 0;
    let mut last_offset: isize = 0;
    let mut failed: Vec<&Hunk> = Vec::new();
    let mut mismatch = false;
    for (number, hunk) in fp.hunks.iter().enumerate() {
        let (old, new): (Vec<&[u8]>, Vec<&[u8]>) = {
            let side = |keep: u8| -> Vec<&[u8]> {
                hunk.lines.iter().filter(|(k, _)| *k == b' ' || *k == keep).map(|(_, t)| t.as_slice()).collect()
            };
            if opts.reverse {
                (side(b'+'), side(b'-'))
            } else {
                (side(b'-'), side(b'+'))
            }
        };
        let (old_no_newline, new_no_newline) = if opts.reverse {
            (hunk.new_no_newline, hunk.old_no_newline)
        } else {
            (hunk.old_no_newline, hunk.new_no_newline)
        };
        let stated = if opts.reverse {
            // The new side's start, read from the raw header.
            new_start(hunk)
        } else {
            hunk.old_start
        };
        let expected = if old.is_empty() { stated } else { stated.saturating_sub(1) } as isize + last_offset;
        let (old_kind, new_kind) = if opts.reverse { (b'+', b'-') } else { (b'-', b'+') };
        let found = locate(&input, hunk, old_kind, stated, expected, copied, 0);
        let found = match found {
            Some(found) => Some(found),
            None => {
                // The first hunk that fails: is the patch reversed (or applied)?
                if number == 0 && failed.is_empty() && !old.is_empty() && search(&input, &new, expected, 0).is_some() {
                    let what = if opts.reverse {
                        "Unreversed patch detected!"
                    } else {
                        "Reversed (or previously applied) patch detected!"
                    };
                    out.push_str(what);
                    if opts.forward {
                        out.push_str("  Skipping patch.\n");
                    } else {
                        out.push_str(if opts.reverse { "  Ignore -R?" } else { "  Assume -R?" });
                        out.push_str(" [n] \nApply anyway? [n] \nSkipping patch.\n");
                    }
                    out.push_str(&format!(
                        "{total} out of {total} {} ignored -- saving rejects to file {name}.rej\n",
                        plural(total)
                    ));
                    ctx.stdout.write_str(&out)?;
                    if !opts.dry_run {
                        let mut rej = rej_header.clone();
                        for hunk in &fp.hunks {
                            rej.extend_from_slice(&rej_hunk(hunk));
                        }
                        write(ctx, &format!("{absolute}.rej"), &rej)?;
                    }
                    return Ok(1);
                }
                // GNU's fuzz: up to 2 context lines at each end may differ.
                (1..=MAX_FUZZ.min(context_of(hunk, old_kind)))
                    .find_map(|fuzz| locate(&input, hunk, old_kind, stated, expected, copied, fuzz))
            }
        };
        let Some((at, fuzz)) = found else {
            if !opts.silent {
                out.push_str(&format!("Hunk #{} FAILED at {}.\n", number + 1, (stated as isize + last_offset).max(0)));
            }
            failed.push(hunk);
            mismatch = true;
            continue;
        };
        let offset = at as isize - (if old.is_empty() { stated as isize } else { stated as isize - 1 });
        if offset != 0 || fuzz > 0 {
            mismatch = true;
            if !opts.silent {
                let lines = if offset.abs() == 1 { "line" } else { "lines" };
                let place = at as isize + 1 + out_delta;
                out.push_str(&match (fuzz, offset) {
                    (0, _) => format!("Hunk #{} succeeded at {place} (offset {offset} {lines}).\n", number + 1),
                    (_, 0) => format!("Hunk #{} succeeded at {place} with fuzz {fuzz}.\n", number + 1),
                    _ => format!(
                        "Hunk #{} succeeded at {place} with fuzz {fuzz} (offset {offset} {lines}).\n",
                        number + 1
                    ),
                });
            }
        }
        last_offset = offset;
        output.extend(input[copied..at].iter().map(|l| l.to_vec()));
        // Walk the hunk: context lines are taken from the input (with fuzz
        // they may differ from the patch's), removed lines are skipped,
        // added lines come from the patch.
        let mut j = at;
        for (kind, text) in &hunk.lines {
            if *kind == b' ' {
                if let Some(line) = input.get(j) {
                    output.push(line.to_vec());
                }
                j += 1;
            } else if *kind == old_kind {
                j += 1;
            } else if *kind == new_kind {
                output.push(text.clone());
            }
        }
        copied = j.min(input.len());
        out_delta += new.len() as isize - old.len() as isize;
        if copied == input.len() {
            final_newline = if new.is_empty() {
                if old_no_newline {
                    true
                } else {
                    had_newline
                }
            } else {
                !new_no_newline
            };
            if new.is_empty() && at == 0 {
                final_newline = true;
            }
        }
    }
    output.extend(input[copied..].iter().map(|l| l.to_vec()));
    let mut result = Vec::new();
    for (i, line) in output.iter().enumerate() {
        result.extend_from_slice(line);
        if i + 1 < output.len() || final_newline {
            result.push(b'\n');
        }
    }
    if !failed.is_empty() {
        let count = failed.len();
        let saving = if opts.dry_run { String::new() } else { format!(" -- saving rejects to file {name}.rej") };
        out.push_str(&format!("{count} out of {total} {} FAILED{saving}\n", plural(total)));
    }
    ctx.stdout.write_str(&out)?;
    if opts.dry_run {
        return Ok(if failed.is_empty() { 0 } else { 1 });
    }
    if ((mismatch && opts.backup) || opts.always_backup) && current.is_some() {
        write(ctx, &format!("{absolute}.orig"), &original)?;
    }
    if !failed.is_empty() {
        let mut rej = rej_header;
        for hunk in &failed {
            rej.extend_from_slice(&rej_hunk(hunk));
        }
        write(ctx, &format!("{absolute}.rej"), &rej)?;
    }
    if failed.len() < total {
        if new_missing && result.is_empty() {
            if let Err(error) = ctx.storage.remove(&absolute, false) {
                ctx.stderr.write_str(&format!("patch: **** Can't remove file {name} : {}\n", error_reason(&error)))?;
                return Ok(2);
            }
        } else {
            if let Some(at) = absolute.rfind('/').filter(|&at| at > 0) {
                let _ = ctx.storage.mkdir(&absolute[..at], true);
            }
            write(ctx, &absolute, &result)?;
        }
    }
    Ok(if failed.is_empty() { 0 } else { 1 })
}

/// GNU patch's largest fuzz factor (`-F 2`, its default).
const MAX_FUZZ: usize = 2;

/// The context lines a hunk has at its start and at its end (lines that
/// are neither removed nor added).
fn context_ends(hunk: &Hunk, old_kind: u8) -> (usize, usize) {
    let old_side: Vec<u8> = hunk.lines.iter().map(|(k, _)| *k).filter(|&k| k == b' ' || k == old_kind).collect();
    let changes: Vec<u8> = hunk.lines.iter().map(|(k, _)| *k).collect();
    let prefix = changes.iter().take_while(|&&k| k == b' ').count();
    let suffix = changes.iter().rev().take_while(|&&k| k == b' ').count();
    let all = old_side.len();
    (prefix.min(all), suffix.min(all))
}

/// GNU's `pch_context`: the longer of the two context ends.
fn context_of(hunk: &Hunk, old_kind: u8) -> usize {
    let (prefix, suffix) = context_ends(hunk, old_kind);
    prefix.max(suffix)
}

/// GNU patch's `locate_hunk`: where the hunk's old side starts in `input`
/// (0-based), ignoring `fuzz` context lines at its ends (fewer at an end
/// with less context, which must then be the file's start or end), nearest
/// to `expected`, never before `floor`. Returns the place and the fuzz.
fn locate(
    input: &[&[u8]],
    hunk: &Hunk,
    old_kind: u8,
    stated: usize,
    expected: isize,
    floor: usize,
    fuzz: usize,
) -> Option<(usize, usize)> {
    let old: Vec<&[u8]> =
        hunk.lines.iter().filter(|(k, _)| *k == b' ' || *k == old_kind).map(|(_, t)| t.as_slice()).collect();
    if old.is_empty() {
        return search(input, &old, expected, floor).map(|at| (at, fuzz));
    }
    let (prefix, suffix) = context_ends(hunk, old_kind);
    let context = prefix.max(suffix) as isize;
    let mut prefix_fuzz = fuzz as isize + prefix as isize - context;
    let suffix_fuzz = fuzz as isize + suffix as isize - context;
    let lines = old.len();
    // Whether the old side matches at `at`, its fuzzed ends left out; the
    // fuzzed end lines may lie past the end of the input.
    let matches = |at: usize, pf: usize, sf: usize| -> bool {
        let last = lines - sf;
        at >= floor && at + last <= input.len() && (pf..last).all(|i| input[at + i] == old[i])
    };
    if prefix_fuzz < 0 && stated <= 1 {
        // Can only match the start of the file (or all of it).
        if suffix_fuzz < 0 && (lines != input.len() || floor > 0) {
            return None;
        }
        return matches(0, 0, suffix_fuzz.max(0) as usize).then_some((0, fuzz));
    }
    prefix_fuzz = prefix_fuzz.max(0);
    if suffix_fuzz < 0 {
        // Can only match the end of the file.
        let at = input.len().checked_sub(lines)?;
        return matches(at, prefix_fuzz as usize, 0).then_some((at, fuzz));
    }
    let (pf, sf) = (prefix_fuzz as usize, suffix_fuzz as usize);
    let last = (input.len() + sf).checked_sub(lines)? as isize;
    let expected = expected.clamp(0, last.max(0));
    for distance in 0..=input.len() as isize + 1 {
        let (up, down) = (expected + distance, expected - distance);
        if up <= last && matches(up as usize, pf, sf) {
            return Some((up as usize, fuzz));
        }
        if distance > 0 && down >= 0 && matches(down as usize, pf, sf) {
            return Some((down as usize, fuzz));
        }
        if up > last && down < 0 {
            break;
        }
    }
    None
}

/// A failed hunk as GNU writes it into the reject file: its header
/// rewritten with a count of 1 left out (`@@ -3 +3,2 @@`).
fn rej_hunk(hunk: &Hunk) -> Vec<u8> {
    let end = hunk.raw.iter().position(|&b| b == b'\n').map_or(hunk.raw.len(), |i| i + 1);
    let head = String::from_utf8_lossy(&hunk.raw[..end]).into_owned();
    let mut out = Vec::with_capacity(hunk.raw.len());
    let mut rest = head.as_str();
    let mut rewritten = String::new();
    for _ in 0..3 {
        let Some(space) = rest.find(' ') else { break };
        let word = &rest[..space];
        rewritten.push_str(word.strip_suffix(",1").filter(|w| w.starts_with(['-', '+'])).unwrap_or(word));
        rewritten.push(' ');
        rest = &rest[space + 1..];
    }
    rewritten.push_str(rest);
    out.extend_from_slice(rewritten.as_bytes());
    out.extend_from_slice(&hunk.raw[end..]);
    out
}

/// The `+N` start of a hunk header.
fn new_start(hunk: &Hunk) -> usize {
    let head = String::from_utf8_lossy(&hunk.raw);
    head.split_whitespace().nth(2).and_then(|p| p.strip_prefix('+')).and_then(parse_range).map_or(0, |(start, _)| start)
}

fn prefixed(opts: &Opts, name: &str) -> String {
    match &opts.directory {
        Some(dir) => join(dir, name),
        None => name.to_string(),
    }
}

fn write(ctx: &mut Context<'_>, absolute: &str, data: &[u8]) -> Result<(), LimitHit> {
    if let Err(error) = ctx.storage.write(absolute, data) {
        ctx.stderr.write_str(&format!("patch: **** Can't create file {absolute} : {}\n", error_reason(&error)))?;
    }
    Ok(())
}

/// Where `old` matches `input` exactly: at `expected`, else the nearest
/// place above or below it, never before `floor`.
fn search(input: &[&[u8]], old: &[&[u8]], expected: isize, floor: usize) -> Option<usize> {
    if input.len() < old.len() {
        return None;
    }
    let last = input.len() - old.len();
    let matches = |at: usize| at >= floor && at <= last && input[at..at + old.len()] == *old;
    let expected = expected.clamp(0, last as isize) as usize;
    if matches(expected) {
        return Some(expected);
    }
    for distance in 1..=input.len() {
        if expected >= distance && matches(expected - distance) {
            return Some(expected - distance);
        }
        if matches(expected + distance) {
            return Some(expected + distance);
        }
        if expected < distance && expected + distance > last {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn seq(from: u32, to: u32) -> String {
        (from..=to).map(|i| format!("{i}\n")).collect()
    }

    const DIFF: &str = "--- a\t2026-12-03 10:24:18.422691401 +0000\n+++ b\t2026-12-03 10:24:18.430188013 +0000\n\
        @@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -12,7 +12,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n";

    #[test]
    fn applies_reverses_and_rejects_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/a", seq(1, 20).as_bytes()).unwrap();
        let (status, out, _) = run_for_test(&storage, "patch", &[], DIFF);
        assert_eq!((status, out.as_str()), (0, "patching file a\n"));
        let patched = String::from_utf8(storage.read("/a").unwrap()).unwrap();
        assert!(patched.contains("\nfive\n") && patched.contains("\nfifteen\n"));
        let (status, out, _) = run_for_test(&storage, "patch", &[], DIFF);
        assert_eq!(status, 1);
        assert_eq!(
            out,
            "patching file a\nReversed (or previously applied) patch detected!  Assume -R? [n] \n\
             Apply anyway? [n] \nSkipping patch.\n2 out of 2 hunks ignored -- saving rejects to file a.rej\n"
        );
        assert!(storage.read("/a.rej").unwrap().starts_with(b"--- a\t"));
        let (status, _, _) = run_for_test(&storage, "patch", &["-R"], DIFF);
        assert_eq!(status, 0);
        assert_eq!(storage.read("/a").unwrap(), seq(1, 20).as_bytes());
        // At an offset: reported, and the original kept as a.orig.
        storage.write("/a", format!("0\n{}", seq(1, 20)).as_bytes()).unwrap();
        let (status, out, _) = run_for_test(&storage, "patch", &[], DIFF);
        assert_eq!(status, 0);
        assert_eq!(
            out,
            "patching file a\nHunk #1 succeeded at 3 (offset 1 line).\nHunk #2 succeeded at 13 (offset 1 line).\n"
        );
        assert_eq!(storage.read("/a.orig").unwrap(), format!("0\n{}", seq(1, 20)).as_bytes());
        // A hunk that matches nowhere.
        storage.write("/a", seq(1, 14).as_bytes()).unwrap();
        let (status, out, _) = run_for_test(&storage, "patch", &["--dry-run"], DIFF);
        assert_eq!(status, 1);
        assert!(out.ends_with("Hunk #2 FAILED at 12.\n1 out of 2 hunks FAILED\n"), "{out}");
    }

    #[test]
    fn creates_and_deletes_files_with_strip() {
        let storage = MemoryStorage::new(Default::default());
        storage.mkdir("/w", false).unwrap();
        storage.write("/w/gone", b"hi\n").unwrap();
        storage.write("/w/s", b"same\n").unwrap();
        let diff = "diff -ruN old/born new/born\n--- old/born\t1970-01-01 00:00:00.000000000 +0000\n\
            +++ new/born\t2026-12-03 10:24:36.140411733 +0000\n@@ -0,0 +1 @@\n+new\n\
            diff -ruN old/gone new/gone\n--- old/gone\t2026-12-03 10:24:36.140411733 +0000\n\
            +++ new/gone\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-hi\n\
            --- a/s\n+++ b/s\n@@ -1 +1 @@\n-same\n\\ No newline at end of file\n+changed\n";
        let (status, out, err) = run_for_test(&storage, "patch", &["-p1", "-d", "w"], diff);
        assert_eq!(
            (status, out.as_str(), err.as_str()),
            (0, "patching file born\npatching file gone\npatching file s\n", "")
        );
        assert_eq!(storage.read("/w/born").unwrap(), b"new\n");
        assert!(storage.stat("/w/gone").is_err());
        assert_eq!(storage.read("/w/s").unwrap(), b"changed\n");
        let (status, out, _) = run_for_test(&storage, "patch", &["-p1"], "--- a/zz\n+++ b/zz\n@@ -1 +1 @@\n-x\n+y\n");
        assert_eq!(status, 1);
        assert!(out.starts_with("can't find file to patch at input line 3\n"));
        let (status, _, err) = run_for_test(&storage, "patch", &[], "hello\n");
        assert_eq!((status, err.as_str()), (2, "patch: **** Only garbage was found in the patch input.\n"));
    }
}
