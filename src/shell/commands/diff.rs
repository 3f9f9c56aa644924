//! Comparing files: `diff` (GNU diffutils: normal and unified formats,
//! directories), `cmp` (byte by byte) and `comm` (two sorted files), in the
//! C locale. `diff` finds its changes with Myers' O(ND) algorithm in linear
//! space, after setting aside lines that occur in one file only, then slides
//! each run of changes the way GNU does so that the hunks read the same.

use std::collections::HashMap;

use crate::shell::command::{error_reason, CommandFn, Context};
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

use super::calendar::{civil, epoch_seconds, DAY_NAMES, MONTH_NAMES};
use super::files::{base_name, child};
use super::text::common::{parse, tick, usage, Arg, HasArg, Spec};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("diff", diff), ("cmp", cmp), ("comm", comm)];

/// A diffutils usage error: `diff: message` and `diff: Try 'diff --help'…`,
/// status 2 (diffutils prefixes the Try line with its name, coreutils not).
fn diffutils_usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.error(message)?;
    let line = format!("{}: Try '{} --help' for more information.\n", ctx.name, ctx.name);
    ctx.stderr.write_str(&line)?;
    Ok(2)
}

// ---------------------------------------------------------------- diff --

const DIFF_SPEC: Spec = Spec {
    short: "qsrNiwbBuU:cC:a",
    long: &[
        ("brief", "q", HasArg::No),
        ("report-identical-files", "s", HasArg::No),
        ("recursive", "r", HasArg::No),
        ("new-file", "N", HasArg::No),
        ("ignore-case", "i", HasArg::No),
        ("ignore-all-space", "w", HasArg::No),
        ("ignore-space-change", "b", HasArg::No),
        ("ignore-blank-lines", "B", HasArg::No),
        ("unified", "unified", HasArg::Optional),
        ("context", "context", HasArg::Optional),
        ("label", "label", HasArg::Yes),
        ("text", "a", HasArg::No),
        ("color", "color", HasArg::Optional),
        ("strip-trailing-cr", "strip-trailing-cr", HasArg::No),
    ],
};

#[derive(Default)]
struct DiffOptions {
    /// Lines of context for `-u` or `-c`; `None` is the normal format.
    unified: Option<usize>,
    /// `-c`: the context format rather than the unified one.
    context_format: bool,
    brief: bool,
    report_identical: bool,
    recursive: bool,
    new_file: bool,
    ignore_case: bool,
    ignore_all_space: bool,
    ignore_space_change: bool,
    ignore_blank_lines: bool,
    text: bool,
    /// `--color=always`: SGR colours on headers, hunk lines, - and +.
    color: bool,
    strip_trailing_cr: bool,
    labels: Vec<String>,
    /// The options as written, for the `diff -r a/f b/f` lines.
    switches: String,
}

fn diff(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&DIFF_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return diffutils_usage(ctx, &message),
    };
    let mut options = DiffOptions::default();
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt(key, value) => match key {
                "q" => options.brief = true,
                "s" => options.report_identical = true,
                "r" => options.recursive = true,
                "N" => options.new_file = true,
                "i" => options.ignore_case = true,
                "w" => options.ignore_all_space = true,
                "b" => options.ignore_space_change = true,
                "B" => options.ignore_blank_lines = true,
                "a" => options.text = true,
                // GNU keeps the largest context asked for (`-u -U1` is 3).
                "u" | "U" | "unified" | "c" | "C" | "context" => {
                    let context_format = matches!(key, "c" | "C" | "context");
                    if options.unified.is_some() && options.context_format != context_format {
                        return diffutils_usage(ctx, "conflicting output style options");
                    }
                    options.context_format = context_format;
                    let value = if matches!(key, "u" | "c") { None } else { value };
                    let lines = match value {
                        None => 3,
                        Some(text) => match text.parse::<usize>() {
                            Ok(lines) => lines,
                            Err(_) => return diffutils_usage(ctx, &format!("invalid context length '{text}'")),
                        },
                    };
                    options.unified = Some(options.unified.unwrap_or(0).max(lines));
                }
                "label" => options.labels.extend(value),
                "strip-trailing-cr" => options.strip_trailing_cr = true,
                // Standard output is never a terminal here, so `auto` is `never`.
                "color" => match value.as_deref() {
                    None | Some("auto") | Some("never") => options.color = false,
                    Some("always") => options.color = true,
                    Some(other) => return diffutils_usage(ctx, &format!("invalid color '{other}'")),
                },
                _ => {}
            },
        }
    }
    // The switches as the user wrote them: the arguments that are not operands.
    let mut rest: Vec<&String> = args.iter().collect();
    for operand in operands.iter().rev() {
        if let Some(at) = rest.iter().rposition(|arg| *arg == operand) {
            rest.remove(at);
        }
    }
    options.switches = rest.iter().map(|arg| format!(" {}", shell_quote(arg))).collect();
    match operands.len() {
        0 => return diffutils_usage(ctx, &format!("missing operand after '{}'", ctx.name)),
        1 => return diffutils_usage(ctx, &format!("missing operand after '{}'", operands[0])),
        2 => {}
        _ => return diffutils_usage(ctx, &format!("extra operand '{}'", operands[2])),
    }
    let mut a = operands[0].clone();
    let mut b = operands[1].clone();
    // Stdin against itself is one file, as GNU finds by its inode.
    let stdin = |name: &str| name == "-" || name == "/dev/stdin";
    if stdin(&a) && stdin(&b) {
        return Ok(0);
    }
    let kind_a = operand_kind(ctx, &a);
    let kind_b = operand_kind(ctx, &b);
    let mut trouble = false;
    for (path, kind) in [(&a, &kind_a), (&b, &kind_b)] {
        match kind {
            Err(StorageError::NotFound(_)) if options.new_file => {}
            Err(error) => {
                ctx.storage_error(path, error)?;
                trouble = true;
            }
            Ok(_) => {}
        }
    }
    if trouble {
        return Ok(2);
    }
    // A file against a directory compares it with the same name inside.
    match (kind_a, kind_b) {
        (Ok(FileKind::Directory), Ok(FileKind::Directory)) => {
            // The same directory twice: nothing to compare (GNU checks the inode).
            if ctx.path(&a) == ctx.path(&b) {
                return Ok(0);
            }
            return diff_dirs(ctx, &options, &a, &b, true);
        }
        (Ok(FileKind::Directory), Ok(_)) => {
            if b == "-" {
                ctx.error("cannot compare '-' to a directory")?;
                return Ok(2);
            }
            a = child(&a, base_name(&b));
        }
        (Ok(_), Ok(FileKind::Directory)) => {
            if a == "-" {
                ctx.error("cannot compare '-' to a directory")?;
                return Ok(2);
            }
            b = child(&b, base_name(&a));
        }
        _ => {}
    }
    diff_files(ctx, &options, &a, &b, false)
}

/// What an operand is (`-` is stdin, a file).
fn operand_kind(ctx: &Context<'_>, path: &str) -> Result<FileKind, StorageError> {
    if path == "-" {
        return Ok(FileKind::File);
    }
    ctx.stat(path).map(|meta| meta.kind)
}

/// An argument as GNU's shell quoting writes it in `diff -r` lines: bare
/// when every byte is safe (`=` is not), else in single quotes.
fn shell_quote(arg: &str) -> String {
    let safe = |b: u8| b.is_ascii_alphanumeric() || b"%+,-./:@_^".contains(&b);
    if !arg.is_empty() && arg.bytes().all(safe) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// Reads one side: `Ok(None)` when it is missing and `-N` makes it empty.
fn read_side(ctx: &mut Context<'_>, options: &DiffOptions, path: &str) -> Result<Option<Option<Vec<u8>>>, LimitHit> {
    match ctx.read(path) {
        Ok(data) => Ok(Some(Some(data))),
        Err(StorageError::NotFound(_)) if options.new_file => Ok(Some(None)),
        Err(error) => {
            ctx.storage_error(path, &error)?;
            Ok(None)
        }
    }
}

/// Compares two files; `in_dir` prints the `diff SWITCHES a b` line first.
fn diff_files(ctx: &mut Context<'_>, options: &DiffOptions, a: &str, b: &str, in_dir: bool) -> Result<i32, LimitHit> {
    let Some(data_a) = read_side(ctx, options, a)? else { return Ok(2) };
    let Some(data_b) = read_side(ctx, options, b)? else { return Ok(2) };
    if data_a.is_none() && data_b.is_none() {
        let error = StorageError::NotFound(ctx.path(a));
        ctx.storage_error(a, &error)?;
        return Ok(2);
    }
    let missing = (data_a.is_none(), data_b.is_none());
    let data_a = data_a.unwrap_or_default();
    let data_b = data_b.unwrap_or_default();
    if data_a == data_b && missing == (false, false) {
        if options.report_identical {
            ctx.stdout.write_str(&format!("Files {a} and {b} are identical\n"))?;
        }
        return Ok(0);
    }
    let binary = |data: &[u8]| memchr::memchr(0, &data[..data.len().min(1 << 15)]).is_some();
    if !options.text && (binary(&data_a) || binary(&data_b)) {
        if data_a == data_b {
            return Ok(0);
        }
        let line = if options.brief {
            format!("Files {a} and {b} differ\n")
        } else {
            format!("Binary files {a} and {b} differ\n")
        };
        ctx.stdout.write_str(&line)?;
        return Ok(1);
    }
    let lines_a = split_lines(&data_a);
    let lines_b = split_lines(&data_b);
    let changes = compute_changes(ctx, options, &lines_a, &lines_b)?;
    let shown: Vec<bool> = changes.iter().map(|change| !ignorable(options, change, &lines_a, &lines_b)).collect();
    if !shown.iter().any(|&shown| shown) {
        if options.report_identical && changes.is_empty() {
            ctx.stdout.write_str(&format!("Files {a} and {b} are identical\n"))?;
        }
        return Ok(0);
    }
    if options.brief {
        ctx.stdout.write_str(&format!("Files {a} and {b} differ\n"))?;
        return Ok(1);
    }
    let mut out = Vec::new();
    if in_dir {
        out.extend_from_slice(format!("diff{} {a} {b}\n", options.switches).as_bytes());
    }
    match options.unified {
        None => normal_format(&mut out, &changes, &shown, &lines_a, &lines_b, options.color),
        Some(context) if options.context_format => {
            let label_a = context_header(ctx, options.labels.first(), a, missing.0);
            let label_b = context_header(ctx, options.labels.get(1), b, missing.1);
            out.extend_from_slice(format!("*** {label_a}\n--- {label_b}\n").as_bytes());
            context_format(&mut out, &changes, &shown, (&lines_a, &lines_b), context);
        }
        Some(context) => {
            let label_a = header(ctx, options.labels.first(), a, missing.0);
            let label_b = header(ctx, options.labels.get(1), b, missing.1);
            push_line(&mut out, b"--- ", format!("{label_a}\n").as_bytes(), paint(options.color, "1"));
            push_line(&mut out, b"+++ ", format!("{label_b}\n").as_bytes(), paint(options.color, "1"));
            unified_format(&mut out, &changes, &shown, (&lines_a, &lines_b), context, options.color);
        }
    }
    ctx.stdout.write(&out)?;
    Ok(1)
}

/// The name and time on a `---`/`+++` line (or the label as given).
fn header(ctx: &Context<'_>, label: Option<&String>, path: &str, missing: bool) -> String {
    if let Some(label) = label {
        return label.clone();
    }
    let modified = if missing {
        None
    } else if path == "-" {
        // Standard input has no file: GNU shows the current time.
        Some(std::time::SystemTime::now())
    } else {
        ctx.stat(path).ok().map(|meta| meta.modified)
    };
    let (seconds, nanos) = match modified {
        Some(time) => {
            let nanos = match time.duration_since(std::time::UNIX_EPOCH) {
                Ok(after) => after.subsec_nanos(),
                Err(_) => 0,
            };
            (epoch_seconds(time), nanos)
        }
        None => (0, 0),
    };
    let (year, month, day, hour, minute, second) = civil(seconds);
    format!("{path}\t{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02}.{nanos:09} +0000")
}

/// The name and time on a `-c` header line: the time as ctime prints it
/// (`Wed Dec  2 22:56:08 2026`, UTC).
fn context_header(ctx: &Context<'_>, label: Option<&String>, path: &str, missing: bool) -> String {
    if let Some(label) = label {
        return label.clone();
    }
    let modified = if missing {
        None
    } else if path == "-" {
        Some(std::time::SystemTime::now())
    } else {
        ctx.stat(path).ok().map(|meta| meta.modified)
    };
    let seconds = modified.map_or(0, epoch_seconds);
    let (year, month, day, hour, minute, second) = civil(seconds);
    // 1970-01-01 was a Thursday.
    let weekday = &DAY_NAMES[(seconds.div_euclid(86_400) + 4).rem_euclid(7) as usize][..3];
    let month = &MONTH_NAMES[(month as usize).saturating_sub(1).min(11)][..3];
    format!("{path}\t{weekday} {month} {day:>2} {hour:02}:{minute:02}:{second:02} {year}")
}

/// Compares two directories entry by entry (sorted by name, C locale).
fn diff_dirs(ctx: &mut Context<'_>, options: &DiffOptions, a: &str, b: &str, _top: bool) -> Result<i32, LimitHit> {
    let list = |ctx: &mut Context<'_>, dir: &str| -> Result<Option<Vec<String>>, LimitHit> {
        match ctx.storage.list(&ctx.path(dir)) {
            Ok(entries) => Ok(Some(entries.into_iter().map(|entry| entry.name).collect())),
            Err(StorageError::NotFound(_)) if options.new_file => Ok(Some(Vec::new())),
            Err(error) => {
                ctx.storage_error(dir, &error)?;
                Ok(None)
            }
        }
    };
    let Some(names_a) = list(ctx, a)? else { return Ok(2) };
    let Some(names_b) = list(ctx, b)? else { return Ok(2) };
    let mut names: Vec<String> = names_a.iter().chain(names_b.iter()).cloned().collect();
    names.sort_unstable_by(|x, y| x.as_bytes().cmp(y.as_bytes()));
    names.dedup();
    let mut status = 0;
    for name in names {
        (ctx.check)()?;
        let path_a = child(a, &name);
        let path_b = child(b, &name);
        let kind_a = names_a.contains(&name).then(|| ctx.stat(&path_a).map(|meta| meta.kind));
        let kind_b = names_b.contains(&name).then(|| ctx.stat(&path_b).map(|meta| meta.kind));
        let this = match (kind_a, kind_b) {
            (Some(Err(error)), _) => {
                ctx.storage_error(&path_a, &error)?;
                2
            }
            (_, Some(Err(error))) => {
                ctx.storage_error(&path_b, &error)?;
                2
            }
            (Some(Ok(kind)), None) | (None, Some(Ok(kind))) => {
                let (dir, present_a) = if names_a.contains(&name) { (a, true) } else { (b, false) };
                if !options.new_file {
                    ctx.stdout.write_str(&format!("Only in {dir}: {name}\n"))?;
                    1
                } else if kind == FileKind::Directory {
                    if options.recursive {
                        diff_dirs(ctx, options, &path_a, &path_b, false)?
                    } else {
                        ctx.stdout.write_str(&format!("Only in {dir}: {name}\n"))?;
                        1
                    }
                } else {
                    let _ = present_a;
                    diff_files(ctx, options, &path_a, &path_b, true)?
                }
            }
            (Some(Ok(FileKind::Directory)), Some(Ok(FileKind::Directory))) => {
                if options.recursive {
                    diff_dirs(ctx, options, &path_a, &path_b, false)?
                } else {
                    ctx.stdout.write_str(&format!("Common subdirectories: {path_a} and {path_b}\n"))?;
                    0
                }
            }
            (Some(Ok(FileKind::Directory)), Some(Ok(_))) => {
                let line = format!("File {path_a} is a directory while file {path_b} is a regular file\n");
                ctx.stdout.write_str(&line)?;
                1
            }
            (Some(Ok(_)), Some(Ok(FileKind::Directory))) => {
                let line = format!("File {path_a} is a regular file while file {path_b} is a directory\n");
                ctx.stdout.write_str(&line)?;
                1
            }
            (Some(Ok(_)), Some(Ok(_))) => diff_files(ctx, options, &path_a, &path_b, true)?,
            (None, None) => 0,
        };
        status = status.max(this);
    }
    Ok(status)
}

/// The lines of a file, each with its newline (the last may have none).
fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    for pos in memchr::memchr_iter(b'\n', data) {
        lines.push(&data[start..=pos]);
        start = pos + 1;
    }
    if start < data.len() {
        lines.push(&data[start..]);
    }
    lines
}

/// What two lines are compared by, after `-i`, `-w` and `-b`.
fn line_key(options: &DiffOptions, line: &[u8]) -> Vec<u8> {
    let (mut body, newline) = match line.strip_suffix(b"\n") {
        Some(body) => (body, true),
        None => (line, false),
    };
    if options.strip_trailing_cr && newline {
        body = body.strip_suffix(b"\r").unwrap_or(body);
    }
    let mut key: Vec<u8> = if options.ignore_all_space {
        body.iter().copied().filter(|b| !is_space(*b)).collect()
    } else if options.ignore_space_change {
        let mut key = Vec::with_capacity(body.len());
        let mut in_space = false;
        for &byte in body {
            if is_space(byte) {
                in_space = true;
            } else {
                if in_space {
                    key.push(b' ');
                }
                in_space = false;
                key.push(byte);
            }
        }
        key
    } else {
        body.to_vec()
    };
    if options.ignore_case {
        key.make_ascii_lowercase();
    }
    // A last line without its newline differs from the same line with one.
    if !newline && !options.ignore_all_space && !options.ignore_space_change {
        key.push(0xff);
        key.push(0);
    }
    key
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// One change: lines `a0..a1` of the first file became `b0..b1` of the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    a0: usize,
    a1: usize,
    b0: usize,
    b1: usize,
}

/// `-B`: a change whose lines are all empty is not shown.
fn ignorable(options: &DiffOptions, change: &Change, a: &[&[u8]], b: &[&[u8]]) -> bool {
    let blank = |line: &&[u8]| {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        if options.ignore_all_space || options.ignore_space_change {
            body.iter().all(|&b| is_space(b))
        } else {
            body.is_empty()
        }
    };
    options.ignore_blank_lines && a[change.a0..change.a1].iter().all(blank) && b[change.b0..change.b1].iter().all(blank)
}

/// The changes between two files' lines, GNU style.
fn compute_changes(
    ctx: &Context<'_>,
    options: &DiffOptions,
    lines_a: &[&[u8]],
    lines_b: &[&[u8]],
) -> Result<Vec<Change>, LimitHit> {
    let mut ids: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut counter = 0;
    let mut intern = |line: &&[u8]| {
        let next = ids.len() as u32;
        *ids.entry(line_key(options, line)).or_insert(next)
    };
    let mut a = Vec::with_capacity(lines_a.len());
    for line in lines_a {
        tick(ctx, &mut counter)?;
        a.push(intern(line));
    }
    let mut b = Vec::with_capacity(lines_b.len());
    for line in lines_b {
        tick(ctx, &mut counter)?;
        b.push(intern(line));
    }
    // As GNU does, the identical first and last lines are left out of the
    // search, so no change slides into them.
    let mut prefix = 0;
    while prefix < lines_a.len() && prefix < lines_b.len() && lines_a[prefix] == lines_b[prefix] {
        prefix += 1;
    }
    let mut suffix = 0;
    while suffix < lines_a.len() - prefix
        && suffix < lines_b.len() - prefix
        && lines_a[lines_a.len() - 1 - suffix] == lines_b[lines_b.len() - 1 - suffix]
    {
        suffix += 1;
    }
    // Except the last few, kept as context (GNU's "horizon").
    let horizon = options.unified.unwrap_or(0);
    prefix -= prefix.min(horizon);
    suffix -= suffix.min(horizon);
    let (middle_a, middle_b) = diff_sequences(ctx, &a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix])?;
    let mut changed_a = vec![false; a.len()];
    let mut changed_b = vec![false; b.len()];
    changed_a[prefix..a.len() - suffix].copy_from_slice(&middle_a);
    changed_b[prefix..b.len() - suffix].copy_from_slice(&middle_b);
    Ok(collect_changes(&changed_a, &changed_b))
}

/// Which elements of `a` and `b` are not part of the common subsequence.
fn diff_sequences(ctx: &Context<'_>, a: &[u32], b: &[u32]) -> Result<(Vec<bool>, Vec<bool>), LimitHit> {
    let mut changed_a = vec![false; a.len()];
    let mut changed_b = vec![false; b.len()];
    // Lines with no match at all in the other file are changes for sure:
    // set them aside so the search runs over fewer lines.
    let ids = a.iter().chain(b.iter()).copied().max().map_or(0, |max| max as usize + 1);
    let mut in_a = vec![false; ids];
    let mut in_b = vec![false; ids];
    a.iter().for_each(|&id| in_a[id as usize] = true);
    b.iter().for_each(|&id| in_b[id as usize] = true);
    let kept_a: Vec<usize> = (0..a.len()).filter(|&i| in_b[a[i] as usize]).collect();
    let kept_b: Vec<usize> = (0..b.len()).filter(|&j| in_a[b[j] as usize]).collect();
    for (i, flag) in changed_a.iter_mut().enumerate() {
        *flag = !in_b[a[i] as usize];
    }
    for (j, flag) in changed_b.iter_mut().enumerate() {
        *flag = !in_a[b[j] as usize];
    }
    let xs: Vec<u32> = kept_a.iter().map(|&i| a[i]).collect();
    let ys: Vec<u32> = kept_b.iter().map(|&j| b[j]).collect();
    let mut search = Myers::new(ctx.check, &xs, &ys);
    search.compare(0, xs.len(), 0, ys.len(), false)?;
    let (sub_a, sub_b) = (search.changed_x, search.changed_y);
    for (k, &i) in kept_a.iter().enumerate() {
        changed_a[i] = sub_a[k];
    }
    for (k, &j) in kept_b.iter().enumerate() {
        changed_b[j] = sub_b[k];
    }
    shift_boundaries(a, &mut changed_a, &changed_b);
    shift_boundaries(b, &mut changed_b, &changed_a);
    Ok((changed_a, changed_b))
}

/// Myers' bidirectional search for the middle snake, applied recursively
/// (linear space).
struct Myers<'c, 'x> {
    check: &'c dyn Fn() -> Result<(), LimitHit>,
    xs: &'x [u32],
    ys: &'x [u32],
    forward: Vec<i64>,
    backward: Vec<i64>,
    offset: i64,
    steps: usize,
    /// Which elements of `xs` and `ys` are not in the common subsequence.
    changed_x: Vec<bool>,
    changed_y: Vec<bool>,
    /// Past this many rounds the search settles for the furthest point
    /// reached instead of the optimal midpoint, as GNU does (about the
    /// square root of the input, at least 4096), so that very different
    /// inputs stay fast.
    too_expensive: i64,
}

impl<'c, 'x> Myers<'c, 'x> {
    fn new(check: &'c dyn Fn() -> Result<(), LimitHit>, xs: &'x [u32], ys: &'x [u32]) -> Self {
        let size = xs.len() + ys.len() + 3;
        Myers {
            check,
            xs,
            ys,
            forward: vec![0; size],
            backward: vec![0; size],
            offset: ys.len() as i64 + 1,
            steps: 0,
            changed_x: vec![false; xs.len()],
            changed_y: vec![false; ys.len()],
            too_expensive: {
                let mut diagonals = xs.len() + ys.len() + 3;
                let mut limit: i64 = 1;
                while diagonals != 0 {
                    diagonals >>= 2;
                    limit <<= 1;
                }
                limit.max(4096)
            },
        }
    }

    fn compare(
        &mut self,
        mut xoff: usize,
        mut xlim: usize,
        mut yoff: usize,
        mut ylim: usize,
        minimal: bool,
    ) -> Result<(), LimitHit> {
        while xoff < xlim && yoff < ylim && self.xs[xoff] == self.ys[yoff] {
            xoff += 1;
            yoff += 1;
        }
        while xlim > xoff && ylim > yoff && self.xs[xlim - 1] == self.ys[ylim - 1] {
            xlim -= 1;
            ylim -= 1;
        }
        if xoff == xlim {
            self.changed_y[yoff..ylim].iter_mut().for_each(|flag| *flag = true);
        } else if yoff == ylim {
            self.changed_x[xoff..xlim].iter_mut().for_each(|flag| *flag = true);
        } else {
            let (xmid, ymid, low_minimal, high_minimal) = self.midpoint(xoff, xlim, yoff, ylim, minimal)?;
            self.compare(xoff, xmid, yoff, ymid, low_minimal)?;
            self.compare(xmid, xlim, ymid, ylim, high_minimal)?;
        }
        Ok(())
    }

    /// A point on an optimal path from (xoff, yoff) to (xlim, ylim), found
    /// by running the search from both ends until they meet.
    /// Also says, for each half, whether it must be searched minimally.
    fn midpoint(
        &mut self,
        xoff: usize,
        xlim: usize,
        yoff: usize,
        ylim: usize,
        minimal: bool,
    ) -> Result<(usize, usize, bool, bool), LimitHit> {
        let (xoff, xlim, yoff, ylim) = (xoff as i64, xlim as i64, yoff as i64, ylim as i64);
        let dmin = xoff - ylim;
        let dmax = xlim - yoff;
        let fmid = xoff - yoff;
        let bmid = xlim - ylim;
        let odd = (fmid - bmid) & 1 != 0;
        let o = self.offset;
        let at = |d: i64| (d + o) as usize;
        self.forward[at(fmid)] = xoff;
        self.backward[at(bmid)] = xlim;
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let mut rounds: i64 = 0;
        loop {
            self.steps += 1;
            if self.steps.is_multiple_of(64) {
                (self.check)()?;
            }
            if fmin > dmin {
                fmin -= 1;
                self.forward[at(fmin - 1)] = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.forward[at(fmax + 1)] = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let low = self.forward[at(d - 1)];
                let high = self.forward[at(d + 1)];
                let mut x = if low >= high { low + 1 } else { high };
                let mut y = x - d;
                while x < xlim && y < ylim && self.xs[x as usize] == self.ys[y as usize] {
                    x += 1;
                    y += 1;
                }
                self.forward[at(d)] = x;
                if odd && bmin <= d && d <= bmax && self.backward[at(d)] <= x {
                    return Ok((x as usize, y as usize, true, true));
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.backward[at(bmin - 1)] = i64::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.backward[at(bmax + 1)] = i64::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let low = self.backward[at(d - 1)];
                let high = self.backward[at(d + 1)];
                let mut x = if low < high { low } else { high - 1 };
                let mut y = x - d;
                while x > xoff && y > yoff && self.xs[x as usize - 1] == self.ys[y as usize - 1] {
                    x -= 1;
                    y -= 1;
                }
                self.backward[at(d)] = x;
                if !odd && fmin <= d && d <= fmax && x <= self.forward[at(d)] {
                    return Ok((x as usize, y as usize, true, true));
                }
                d -= 2;
            }
            rounds += 1;
            if !minimal && rounds >= self.too_expensive {
                // The furthest forward point (largest x + y) and the
                // furthest backward one (smallest x + y); take the one
                // that got further from its end.
                let (mut forward_best, mut forward_x) = (-1, 0);
                let mut d = fmax;
                while d >= fmin {
                    let mut x = self.forward[at(d)].min(xlim);
                    let mut y = x - d;
                    if ylim < y {
                        x = ylim + d;
                        y = ylim;
                    }
                    if forward_best < x + y {
                        forward_best = x + y;
                        forward_x = x;
                    }
                    d -= 2;
                }
                let (mut backward_best, mut backward_x) = (i64::MAX, 0);
                let mut d = bmax;
                while d >= bmin {
                    let mut x = self.backward[at(d)].max(xoff);
                    let mut y = x - d;
                    if y < yoff {
                        x = yoff + d;
                        y = yoff;
                    }
                    if x + y < backward_best {
                        backward_best = x + y;
                        backward_x = x;
                    }
                    d -= 2;
                }
                return Ok(if (xlim + ylim) - backward_best < forward_best - (xoff + yoff) {
                    (forward_x as usize, (forward_best - forward_x) as usize, true, false)
                } else {
                    (backward_x as usize, (backward_best - backward_x) as usize, false, true)
                });
            }
        }
    }
}

/// Slides each run of changed lines as far down as it goes (merging with
/// the runs it meets), then back up to where it lines up with a change in
/// the other file if it passed one: GNU's rule, which makes hunks read as
/// a person would write them.
fn shift_boundaries(ids: &[u32], changed: &mut [bool], other: &[bool]) {
    let n = ids.len();
    let other_changed = |j: usize| j < other.len() && other[j];
    let other_before = |j: usize| j > 0 && other_changed(j - 1);
    let mut i = 0;
    let mut j = 0;
    loop {
        while i < n && !changed[i] {
            while other_changed(j) {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == n {
            break;
        }
        let mut start = i;
        while i < n && changed[i] {
            i += 1;
        }
        while other_changed(j) {
            j += 1;
        }
        let mut corresponding;
        loop {
            let run = i - start;
            // Up as far as it goes, merging with the runs above.
            while start > 0 && ids[start - 1] == ids[i - 1] {
                start -= 1;
                changed[start] = true;
                i -= 1;
                changed[i] = false;
                while start > 0 && changed[start - 1] {
                    start -= 1;
                }
                j = j.saturating_sub(1);
                while j > 0 && other_changed(j) {
                    j -= 1;
                }
            }
            corresponding = if other_before(j) { i } else { usize::MAX };
            // Down as far as it goes, merging with the runs below.
            while i < n && ids[start] == ids[i] {
                changed[start] = false;
                start += 1;
                changed[i] = true;
                i += 1;
                while i < n && changed[i] {
                    i += 1;
                }
                j += 1;
                while other_changed(j) {
                    j += 1;
                    corresponding = i;
                }
            }
            if run == i - start {
                break;
            }
        }
        // Back up to line up with a change in the other file.
        while corresponding != usize::MAX && corresponding < i {
            start -= 1;
            changed[start] = true;
            i -= 1;
            changed[i] = false;
            j = j.saturating_sub(1);
            while j > 0 && other_changed(j) {
                j -= 1;
            }
        }
    }
}

fn collect_changes(changed_a: &[bool], changed_b: &[bool]) -> Vec<Change> {
    let (n, m) = (changed_a.len(), changed_b.len());
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && !changed_a[i] && !changed_b[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (a0, b0) = (i, j);
        while i < n && changed_a[i] {
            i += 1;
        }
        while j < m && changed_b[j] {
            j += 1;
        }
        if (a0, b0) == (i, j) {
            // Unbalanced tails cannot happen; guard against looping.
            i = (i + 1).min(n);
            j = (j + 1).min(m);
            continue;
        }
        changes.push(Change { a0, a1: i, b0, b1: j });
    }
    changes
}

/// Writes one line after its prefix; `color` is the SGR code around it.
fn push_line(out: &mut Vec<u8>, prefix: &[u8], line: &[u8], color: Option<&str>) {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    if let Some(code) = color {
        out.extend_from_slice(format!("\x1b[{code}m").as_bytes());
    }
    out.extend_from_slice(prefix);
    out.extend_from_slice(body);
    if color.is_some() {
        out.extend_from_slice(b"\x1b[0m");
    }
    out.push(b'\n');
    if !line.ends_with(b"\n") {
        out.extend_from_slice(b"\\ No newline at end of file\n");
    }
}

/// The SGR code for a kind of line when colours are on.
fn paint(color: bool, code: &'static str) -> Option<&'static str> {
    color.then_some(code)
}

/// `3`, `3,5`: a 1-based inclusive range in the normal format.
fn normal_range(start: usize, end: usize) -> String {
    if end <= start + 1 {
        format!("{}", if end > start { end } else { start })
    } else {
        format!("{},{}", start + 1, end)
    }
}

fn normal_format(out: &mut Vec<u8>, changes: &[Change], shown: &[bool], a: &[&[u8]], b: &[&[u8]], color: bool) {
    for (change, _) in changes.iter().zip(shown).filter(|(_, shown)| **shown) {
        let kind = if change.a0 == change.a1 {
            'a'
        } else if change.b0 == change.b1 {
            'd'
        } else {
            'c'
        };
        let line = format!("{}{kind}{}\n", normal_range(change.a0, change.a1), normal_range(change.b0, change.b1));
        push_line(out, b"", line.as_bytes(), paint(color, "36"));
        for line in &a[change.a0..change.a1] {
            push_line(out, b"< ", line, paint(color, "31"));
        }
        if kind == 'c' {
            out.extend_from_slice(b"---\n");
        }
        for line in &b[change.b0..change.b1] {
            push_line(out, b"> ", line, paint(color, "32"));
        }
    }
}

/// `-3,4`, `-3`, `-2,0`: a range in a unified hunk header.
fn unified_range(start: usize, end: usize) -> String {
    match end - start {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        len => format!("{},{len}", start + 1),
    }
}

/// One hunk of a context or unified diff: `changes[first..=last]`, and on
/// each side the lines it shows (the changes and up to `context` around).
struct Hunk {
    first: usize,
    last: usize,
    a: (usize, usize),
    b: (usize, usize),
}

/// The hunks of a context or unified diff: ranges of changes whose
/// context touches or overlaps, without those that are all ignorable.
/// `a_len` is the old side's line count (the last hunk's context ends there).
fn hunks(changes: &[Change], shown: &[bool], context: usize, a_len: usize) -> Vec<Hunk> {
    let mut hunks = Vec::new();
    let mut k = 0;
    while k < changes.len() {
        let first = k;
        let mut last = k;
        // An ignorable (-B) change joins only when within one context of
        // the hunk; another within two contexts.
        while last + 1 < changes.len() && {
            let gap = changes[last + 1].a0 - changes[last].a1;
            if shown[last + 1] {
                gap <= 2 * context
            } else {
                gap < context
            }
        } {
            last += 1;
        }
        k = last + 1;
        if shown[first..=last].iter().any(|&shown| shown) {
            let (head, tail) = (changes[first], changes[last]);
            let before = context.min(head.a0);
            let after = context.min(a_len - tail.a1);
            let a = (head.a0 - before, tail.a1 + after);
            let b = (head.b0 - before, tail.b1 + after);
            hunks.push(Hunk { first, last, a, b });
        }
    }
    hunks
}

/// `3,5`, `3`, `0`: a range in a context hunk header.
fn context_range(start: usize, end: usize) -> String {
    if end > start + 1 {
        format!("{},{end}", start + 1)
    } else {
        format!("{end}")
    }
}

fn context_format(out: &mut Vec<u8>, changes: &[Change], shown: &[bool], (a, b): (&[&[u8]], &[&[u8]]), context: usize) {
    for hunk in hunks(changes, shown, context, a.len()) {
        let group = &changes[hunk.first..=hunk.last];
        out.extend_from_slice(format!("***************\n*** {} ****\n", context_range(hunk.a.0, hunk.a.1)).as_bytes());
        context_side(out, a, hunk.a, group, true);
        out.extend_from_slice(format!("--- {} ----\n", context_range(hunk.b.0, hunk.b.1)).as_bytes());
        context_side(out, b, hunk.b, group, false);
    }
}

/// One side of a context hunk, printed only when it has changed lines:
/// `! ` marks a line of a change that replaces, else `- ` on the old side
/// and `+ ` on the new; the rest are context (`  `).
fn context_side(out: &mut Vec<u8>, lines: &[&[u8]], (lo, hi): (usize, usize), group: &[Change], old: bool) {
    let range = |change: &Change| if old { (change.a0, change.a1) } else { (change.b0, change.b1) };
    if !group.iter().any(|change| range(change).0 < range(change).1) {
        return;
    }
    let mut at = lo;
    for change in group {
        let (start, end) = range(change);
        for line in &lines[at..start] {
            push_line(out, b"  ", line, None);
        }
        let replaces = change.a0 < change.a1 && change.b0 < change.b1;
        let marker: &[u8] = if replaces {
            b"! "
        } else if old {
            b"- "
        } else {
            b"+ "
        };
        for line in &lines[start..end] {
            push_line(out, marker, line, None);
        }
        at = end;
    }
    for line in &lines[at..hi] {
        push_line(out, b"  ", line, None);
    }
}

fn unified_format(
    out: &mut Vec<u8>,
    changes: &[Change],
    shown: &[bool],
    (a, b): (&[&[u8]], &[&[u8]]),
    context: usize,
    color: bool,
) {
    for hunk in hunks(changes, shown, context, a.len()) {
        let line = format!("@@ -{} +{} @@\n", unified_range(hunk.a.0, hunk.a.1), unified_range(hunk.b.0, hunk.b.1));
        push_line(out, b"", line.as_bytes(), paint(color, "36"));
        let mut i = hunk.a.0;
        for change in &changes[hunk.first..=hunk.last] {
            for line in &a[i..change.a0] {
                push_line(out, b" ", line, None);
            }
            for line in &a[change.a0..change.a1] {
                push_line(out, b"-", line, paint(color, "31"));
            }
            for line in &b[change.b0..change.b1] {
                push_line(out, b"+", line, paint(color, "32"));
            }
            i = change.a1;
        }
        for line in &a[i..hunk.a.1] {
            push_line(out, b" ", line, None);
        }
    }
}

// ----------------------------------------------------------------- cmp --

const CMP_SPEC: Spec = Spec {
    short: "bi:ln:s",
    long: &[
        ("print-bytes", "b", HasArg::No),
        ("ignore-initial", "i", HasArg::Yes),
        ("verbose", "l", HasArg::No),
        ("bytes", "n", HasArg::Yes),
        ("quiet", "s", HasArg::No),
        ("silent", "s", HasArg::No),
    ],
};

/// `^A`, `M-x`, `a`: how `cmp -b` shows a byte.
fn show_byte(byte: u8) -> String {
    let (meta, low) = if byte >= 128 { ("M-", byte - 128) } else { ("", byte) };
    let shown = match low {
        0..=31 => format!("^{}", (low + 64) as char),
        127 => "^?".to_string(),
        _ => (low as char).to_string(),
    };
    format!("{meta}{shown}")
}

fn cmp(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&CMP_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return diffutils_usage(ctx, &message),
    };
    let (mut print_bytes, mut verbose, mut silent) = (false, false, false);
    let mut limit: Option<u64> = None;
    let mut skips: [Option<u64>; 2] = [None, None];
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt("b", _) => print_bytes = true,
            Arg::Opt("l", _) => verbose = true,
            Arg::Opt("s", _) => silent = true,
            Arg::Opt("n", Some(value)) => match super::text::common::parse_size(&value) {
                Some(bytes) => limit = Some(bytes),
                None => return diffutils_usage(ctx, &format!("invalid --bytes value '{value}'")),
            },
            Arg::Opt("i", Some(value)) => {
                let parts: Vec<&str> = value.splitn(2, ':').collect();
                for (k, part) in parts.iter().enumerate() {
                    match super::text::common::parse_size(part) {
                        Some(bytes) => skips[k] = Some(bytes),
                        None => return diffutils_usage(ctx, &format!("invalid --ignore-initial value '{value}'")),
                    }
                }
                if parts.len() == 1 {
                    skips[1] = skips[0];
                }
            }
            Arg::Opt(..) => {}
        }
    }
    if verbose && silent {
        return diffutils_usage(ctx, "options -l and -s are incompatible");
    }
    for (skip, text) in skips.iter_mut().zip(operands.iter().skip(2)) {
        match super::text::common::parse_size(text) {
            Some(bytes) => *skip = Some(bytes),
            None => return diffutils_usage(ctx, &format!("invalid --ignore-initial value '{text}'")),
        }
    }
    match operands.len() {
        0 => return diffutils_usage(ctx, &format!("missing operand after '{}'", ctx.name)),
        1..=4 => {}
        _ => return diffutils_usage(ctx, &format!("extra operand '{}'", operands[4])),
    }
    let name_a = operands[0].clone();
    let name_b = operands.get(1).cloned().unwrap_or_else(|| "-".to_string());
    let mut data = Vec::new();
    for name in [&name_a, &name_b] {
        match ctx.read(name) {
            Ok(bytes) => data.push(bytes),
            Err(error) => {
                ctx.storage_error(name, &error)?;
                return Ok(2);
            }
        }
    }
    let skip = |k: usize| (skips[k].unwrap_or(0) as usize).min(data[k].len());
    let a = &data[0][skip(0)..];
    let b = &data[1][skip(1)..];
    let limit = limit.map_or(usize::MAX, |l| l.min(usize::MAX as u64) as usize);
    let a = &a[..a.len().min(limit)];
    let b = &b[..b.len().min(limit)];
    let common = a.len().min(b.len());
    let mut status = 0;
    let mut counter = 0;
    if verbose {
        let width = common.max(1).to_string().len();
        let mut out = String::new();
        for at in 0..common {
            tick(ctx, &mut counter)?;
            if a[at] != b[at] {
                status = 1;
                if print_bytes {
                    let line = format!(
                        "{:>width$} {:>3o} {:<4} {:>3o} {}\n",
                        at + 1,
                        a[at],
                        show_byte(a[at]),
                        b[at],
                        show_byte(b[at])
                    );
                    out.push_str(&line);
                } else {
                    out.push_str(&format!("{:>width$} {:>3o} {:>3o}\n", at + 1, a[at], b[at]));
                }
            }
        }
        ctx.stdout.write_str(&out)?;
    } else if let Some(at) = (0..common).find(|&at| a[at] != b[at]) {
        if !silent {
            let line_number = memchr::memchr_iter(b'\n', &a[..at]).count() + 1;
            // GNU says "char" in the C locale, "byte" with -b.
            let unit = if print_bytes { "byte" } else { "char" };
            let mut line = format!("{name_a} {name_b} differ: {unit} {}, line {line_number}", at + 1);
            if print_bytes {
                line.push_str(&format!(" is {:>3o} {} {:>3o} {}", a[at], show_byte(a[at]), b[at], show_byte(b[at])));
            }
            line.push('\n');
            ctx.stdout.write_str(&line)?;
        }
        return Ok(1);
    }
    if a.len() != b.len() {
        if !silent {
            let shorter = if a.len() < b.len() { &name_a } else { &name_b };
            let message = if common == 0 {
                format!("EOF on {shorter} which is empty")
            } else if verbose {
                format!("EOF on {shorter} after byte {common}")
            } else {
                let newlines = memchr::memchr_iter(b'\n', &a[..common]).count();
                if a[common - 1] == b'\n' {
                    format!("EOF on {shorter} after byte {common}, line {newlines}")
                } else {
                    format!("EOF on {shorter} after byte {common}, in line {}", newlines + 1)
                }
            };
            ctx.error(message)?;
        }
        return Ok(1);
    }
    Ok(status)
}

// ---------------------------------------------------------------- comm --

const COMM_SPEC: Spec = Spec {
    short: "123z",
    long: &[
        ("check-order", "check-order", HasArg::No),
        ("nocheck-order", "nocheck-order", HasArg::No),
        ("output-delimiter", "output-delimiter", HasArg::Yes),
        ("total", "total", HasArg::No),
        ("zero-terminated", "z", HasArg::No),
    ],
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum OrderCheck {
    Default,
    Enabled,
    Disabled,
}

fn comm(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&COMM_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut show = [true; 3];
    let mut check = OrderCheck::Default;
    let mut delimiter: Option<Vec<u8>> = None;
    let mut total = false;
    let mut eol = b'\n';
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt("1", _) => show[0] = false,
            Arg::Opt("2", _) => show[1] = false,
            Arg::Opt("3", _) => show[2] = false,
            Arg::Opt("z", _) => eol = 0,
            Arg::Opt("check-order", _) => check = OrderCheck::Enabled,
            Arg::Opt("nocheck-order", _) => check = OrderCheck::Disabled,
            Arg::Opt("total", _) => total = true,
            Arg::Opt("output-delimiter", Some(value)) => {
                let value = if value.is_empty() { vec![0] } else { value.into_bytes() };
                if delimiter.as_ref().is_some_and(|old| *old != value) {
                    ctx.error("multiple output delimiters specified")?;
                    return Ok(1);
                }
                delimiter = Some(value);
            }
            Arg::Opt(..) => {}
        }
    }
    match operands.len() {
        0 => return usage(ctx, "missing operand", 1),
        1 => return usage(ctx, &format!("missing operand after '{}'", operands[0]), 1),
        2 => {}
        _ => return usage(ctx, &format!("extra operand '{}'", operands[2]), 1),
    }
    let delimiter = delimiter.unwrap_or_else(|| b"\t".to_vec());
    let mut files = Vec::new();
    for name in &operands {
        match ctx.read(name) {
            Ok(bytes) => files.push(bytes),
            Err(error) => {
                let line = format!("{}: {name}: {}\n", ctx.name, error_reason(&error));
                ctx.stderr.write_str(&line)?;
                return Ok(1);
            }
        }
    }
    let split = |data: &[u8]| -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = data.split(|&b| b == eol).map(<[u8]>::to_vec).collect();
        if data.is_empty() || data.ends_with(&[eol]) {
            lines.pop();
        }
        lines
    };
    let lines = [split(&files[0]), split(&files[1])];
    let mut at = [0usize, 0usize];
    let mut warned = [false, false];
    let mut seen_unpairable = false;
    let mut counts = [0u64; 3];
    let mut out = Vec::new();
    let mut counter = 0;
    let mut status = 0;
    while at[0] < lines[0].len() || at[1] < lines[1].len() {
        tick(ctx, &mut counter)?;
        let order = match (lines[0].get(at[0]), lines[1].get(at[1])) {
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
            (Some(x), Some(y)) => x.cmp(y),
        };
        if order.is_ne() {
            seen_unpairable = true;
        }
        let column = match order {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 2,
        };
        counts[column] += 1;
        if show[column] {
            let indent = (0..column).filter(|&c| show[c]).count();
            for _ in 0..indent {
                out.extend_from_slice(&delimiter);
            }
            let line = if column == 1 { &lines[1][at[1]] } else { &lines[0][at[0]] };
            out.extend_from_slice(line);
            out.push(eol);
        }
        for file in 0..2 {
            let steps = match file {
                0 => order.is_le(),
                _ => order.is_ge(),
            };
            if !steps {
                continue;
            }
            at[file] += 1;
            let checking = match check {
                OrderCheck::Disabled => false,
                OrderCheck::Enabled => true,
                OrderCheck::Default => seen_unpairable,
            };
            if checking
                && !warned[file]
                && at[file] < lines[file].len()
                && lines[file][at[file] - 1] > lines[file][at[file]]
            {
                warned[file] = true;
                ctx.stdout.write(&std::mem::take(&mut out))?;
                ctx.error(format!("file {} is not in sorted order", file + 1))?;
                if check == OrderCheck::Enabled {
                    return Ok(1);
                }
                status = 1;
            }
        }
    }
    if total {
        let mut line = Vec::new();
        for count in counts {
            line.extend_from_slice(count.to_string().as_bytes());
            line.extend_from_slice(&delimiter);
        }
        line.extend_from_slice(b"total");
        line.push(eol);
        out.extend_from_slice(&line);
    }
    ctx.stdout.write(&out)?;
    if status != 0 {
        ctx.error("input is not in sorted order")?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    /// Each expectation below is what GNU diffutils 3.8 / coreutils 9.1
    /// printed for the same files with LC_ALL=C.
    fn run(name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
        let storage = MemoryStorage::new(Default::default());
        let numbers: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let files: &[(&str, String)] = &[
            ("/a", "a\nb\nc\n".into()),
            ("/b", "a\nB\nc\nd".into()),
            ("/c", "a\nb\n".into()),
            ("/u", "b\na\n".into()),
            ("/e1", "a\nb".into()),
            ("/e2", "a\nbc".into()),
            ("/empty", String::new()),
            ("/bl1", "a\n\nb\n".into()),
            ("/bl2", "a\nb\n\n".into()),
            ("/w1", "a b\n".into()),
            ("/w2", "a  b \n".into()),
            ("/t1", numbers.clone()),
            ("/t3", numbers.replace("\n4\n", "\nX\n").replace("\n12\n", "\nY\n")),
            ("/d1/f", "x\n".into()),
            ("/d2/f", "y\n".into()),
            ("/d1/s", "same\n".into()),
            ("/d2/s", "same\n".into()),
            ("/d1/sub/g", "z\n".into()),
            ("/d2/sub/g", "w\n".into()),
            ("/d2/o2", "q\n".into()),
            ("/bin1", "x\0y".into()),
            ("/bin2", "x\0z".into()),
        ];
        for dir in ["/d1/sub", "/d1/only1", "/d2/sub"] {
            storage.mkdir(dir, true).unwrap();
        }
        for (path, text) in files {
            storage.write(path, text.as_bytes()).unwrap();
        }
        run_for_test(&storage, name, args, stdin)
    }

    fn out(status: i32, stdout: &str) -> (i32, String, String) {
        (status, stdout.into(), String::new())
    }

    #[test]
    fn diff_normal_format() {
        assert_eq!(
            run("diff", &["a", "b"], ""),
            out(1, "2c2\n< b\n---\n> B\n3a4\n> d\n\\ No newline at end of file\n")
        );
        assert_eq!(run("diff", &["a", "a"], ""), out(0, ""));
        assert_eq!(run("diff", &["-i", "a", "b"], ""), out(1, "3a4\n> d\n\\ No newline at end of file\n"));
        assert_eq!(run("diff", &["-", "b"], "a\nB\nc\nd"), out(0, ""));
        assert_eq!(run("diff", &["w1", "w2"], ""), out(1, "1c1\n< a b\n---\n> a  b \n"));
        assert_eq!(run("diff", &["-w", "w1", "w2"], ""), out(0, ""));
        assert_eq!(run("diff", &["-b", "w1", "w2"], ""), out(0, ""));
        assert_eq!(run("diff", &["-B", "bl1", "bl2"], ""), out(0, ""));
        assert_eq!(run("diff", &["bl1", "bl2"], ""), out(1, "2d1\n< \n3a3\n> \n"));
        assert_eq!(run("diff", &["c", "a"], ""), out(1, "2a3\n> c\n"));
        assert_eq!(run("diff", &["a", "c"], ""), out(1, "3d2\n< c\n"));
    }

    #[test]
    fn diff_unified_format() {
        assert_eq!(
            run("diff", &["-u", "--label", "A", "--label", "B", "e1", "e2"], ""),
            out(
                1,
                "--- A\n+++ B\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+bc\n\\ No newline at end of file\n"
            )
        );
        assert_eq!(
            run("diff", &["-U1", "--label", "A", "--label", "B", "t1", "t3"], ""),
            out(1, "--- A\n+++ B\n@@ -3,3 +3,3 @@\n 3\n-4\n+X\n 5\n@@ -11,3 +11,3 @@\n 11\n-12\n+Y\n 13\n")
        );
        // Context 3: the 7 lines between the changes keep two hunks; 6 would merge them.
        let (status, text, _) = run("diff", &["--unified", "--label=A", "--label=B", "t1", "t3"], "");
        assert_eq!(status, 1);
        assert!(text.contains("@@ -1,7 +1,7 @@\n") && text.contains("@@ -9,7 +9,7 @@\n"), "{text}");
        assert_eq!(
            run("diff", &["--label", "A", "--label", "B", "-u", "empty", "a"], ""),
            out(1, "--- A\n+++ B\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n")
        );
        let (_, text, _) = run("diff", &["-u", "a", "c"], "");
        assert!(text.starts_with("--- a\t") && text.contains(" +0000\n+++ c\t"), "{text}");
        assert!(text.ends_with("@@ -1,3 +1,2 @@\n a\n b\n-c\n"), "{text}");
    }

    #[test]
    fn diff_directories_and_errors() {
        assert_eq!(
            run("diff", &["-r", "d1", "d2"], ""),
            out(
                1,
                "diff -r d1/f d2/f\n1c1\n< x\n---\n> y\nOnly in d2: o2\nOnly in d1: only1\n\
                 diff -r d1/sub/g d2/sub/g\n1c1\n< z\n---\n> w\n"
            )
        );
        assert_eq!(
            run("diff", &["-q", "d1", "d2"], ""),
            out(1, "Files d1/f and d2/f differ\nOnly in d2: o2\nOnly in d1: only1\nCommon subdirectories: d1/sub and d2/sub\n")
        );
        assert_eq!(run("diff", &["-rN", "d1", "d2"], "").1.matches("diff -rN ").count(), 3);
        assert_eq!(run("diff", &["-s", "a", "a"], ""), out(0, "Files a and a are identical\n"));
        assert_eq!(run("diff", &["bin1", "bin2"], ""), out(1, "Binary files bin1 and bin2 differ\n"));
        assert_eq!(run("diff", &["-q", "bin1", "bin2"], ""), out(1, "Files bin1 and bin2 differ\n"));
        assert_eq!(run("diff", &["nope", "a"], ""), (2, "".into(), "diff: nope: No such file or directory\n".into()));
        assert_eq!(run("diff", &["-N", "a", "nope"], ""), out(1, "1,3d0\n< a\n< b\n< c\n"));
        assert_eq!(run("diff", &["a", "d1"], ""), (2, "".into(), "diff: d1/a: No such file or directory\n".into()));
        assert_eq!(
            run("diff", &["a"], ""),
            (2, "".into(), "diff: missing operand after 'a'\ndiff: Try 'diff --help' for more information.\n".into())
        );
        // Not GNU's answer: -y (side by side) is left out, and a flag left
        // out fails with getopt's own message rather than doing something else.
        assert_eq!(
            run("diff", &["-y", "a", "b"], ""),
            (2, "".into(), "diff: invalid option -- 'y'\ndiff: Try 'diff --help' for more information.\n".into())
        );
        assert_eq!(
            run("diff", &["-U", "x", "a", "b"], ""),
            (2, "".into(), "diff: invalid context length 'x'\ndiff: Try 'diff --help' for more information.\n".into())
        );
    }

    #[test]
    fn diff_unified_ignores_blank_changes_and_keeps_the_widest_context() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/bb1", b"a\n\nb\nc\nd\ne\nf\ng\nh\n").unwrap();
        storage.write("/bb2", b"a\nb\nc\nX\nd\ne\nf\ng\nh\n\n").unwrap();
        storage.write("/a", b"a\nb\nc\n").unwrap();
        storage.write("/b", b"a\nB\nc\nd").unwrap();
        let labels = ["--label", "A", "--label", "B"];
        let args: Vec<&str> = ["-uB"].iter().chain(&labels).chain(&["bb1", "bb2"]).copied().collect();
        assert_eq!(
            run_for_test(&storage, "diff", &args, "").1,
            "--- A\n+++ B\n@@ -1,7 +1,7 @@\n a\n-\n b\n c\n+X\n d\n e\n f\n"
        );
        let args: Vec<&str> = ["-u", "-U1"].iter().chain(&labels).chain(&["a", "b"]).copied().collect();
        assert_eq!(
            run_for_test(&storage, "diff", &args, "").1,
            "--- A\n+++ B\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn diff_colors_crs_and_switch_lines() {
        assert_eq!(
            run("diff", &["--color=always", "a", "b"], "").1,
            "\x1b[36m2c2\x1b[0m\n\x1b[31m< b\x1b[0m\n---\n\x1b[32m> B\x1b[0m\n\
             \x1b[36m3a4\x1b[0m\n\x1b[32m> d\x1b[0m\n\\ No newline at end of file\n"
        );
        assert_eq!(
            run("diff", &["--color=always", "-u", "--label", "A", "--label", "B", "c", "a"], "").1,
            "\x1b[1m--- A\x1b[0m\n\x1b[1m+++ B\x1b[0m\n\x1b[36m@@ -1,2 +1,3 @@\x1b[0m\n a\n b\n\x1b[32m+c\x1b[0m\n"
        );
        assert_eq!(run("diff", &["--color", "c", "a"], "").1, "2a3\n> c\n");
        assert_eq!(
            run("diff", &["--color=bad", "a", "b"], "").2,
            "diff: invalid color 'bad'\ndiff: Try 'diff --help' for more information.\n"
        );
        let storage = MemoryStorage::new(Default::default());
        storage.write("/cr1", b"a\r\nb\n").unwrap();
        storage.write("/cr2", b"a\nb\n").unwrap();
        assert_eq!(run_for_test(&storage, "diff", &["--strip-trailing-cr", "cr1", "cr2"], "").0, 0);
        assert_eq!(run_for_test(&storage, "diff", &["cr1", "cr2"], "").1, "1c1\n< a\r\n---\n> a\n");
        assert!(run("diff", &["-r", "--unified=5", "d1", "d2"], "").1.starts_with("diff -r '--unified=5' d1/f d2/f\n"));
        assert!(run("diff", &["-r", "--", "d1", "d2"], "").1.starts_with("diff -r -- d1/f d2/f\n"));
    }

    #[test]
    fn diff_context_format() {
        assert_eq!(
            run("diff", &["-C1", "--label", "A", "--label", "B", "t1", "t3"], ""),
            out(
                1,
                "*** A\n--- B\n***************\n*** 3,5 ****\n  3\n! 4\n  5\n--- 3,5 ----\n  3\n! X\n  5\n\
                 ***************\n*** 11,13 ****\n  11\n! 12\n  13\n--- 11,13 ----\n  11\n! Y\n  13\n"
            )
        );
        assert_eq!(
            run("diff", &["-c", "--label", "A", "--label", "B", "empty", "a"], "").1,
            "*** A\n--- B\n***************\n*** 0 ****\n--- 1,3 ----\n+ a\n+ b\n+ c\n"
        );
        assert_eq!(
            run("diff", &["-c", "--label", "A", "--label", "B", "a", "c"], "").1,
            "*** A\n--- B\n***************\n*** 1,3 ****\n  a\n  b\n- c\n--- 1,2 ----\n"
        );
        let (_, text, _) = run("diff", &["-c", "a", "c"], "");
        assert!(text.starts_with("*** a\t") && text.contains("\n--- c\t"), "{text}");
        assert_eq!(
            run("diff", &["-c", "-u", "a", "b"], "").2,
            "diff: conflicting output style options\ndiff: Try 'diff --help' for more information.\n"
        );
    }

    #[test]
    fn diff_slides_changes_as_gnu_does() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/p1", b"a\nb\nb\nb\nc\n").unwrap();
        storage.write("/p2", b"a\nb\nb\nc\n").unwrap();
        storage.write("/q1", b"a\nb\na\nb\nz\n").unwrap();
        storage.write("/q2", b"a\nb\nz\n").unwrap();
        // GNU leaves the common last lines out of the search: 19d16, not 21d18.
        storage.write("/r1", b"b\na\na\nb\na\na\nb\na\nb\na\nb\na\na\nb\nb\na\na\na\nb\nb\nb\n").unwrap();
        storage.write("/r2", b"b\na\na\nb\na\na\nb\na\nb\na\na\nb\nb\na\na\na\nb\nb\n").unwrap();
        assert_eq!(run_for_test(&storage, "diff", &["p1", "p2"], "").1, "4d3\n< b\n");
        assert_eq!(run_for_test(&storage, "diff", &["q1", "q2"], "").1, "3,4d2\n< a\n< b\n");
        assert_eq!(run_for_test(&storage, "diff", &["r1", "r2"], "").1, "11,12d10\n< b\n< a\n19d16\n< b\n");
        let unified = run_for_test(&storage, "diff", &["-U2", "--label", "A", "--label", "B", "r1", "r2"], "").1;
        assert!(unified.ends_with("@@ -19,3 +17,2 @@\n b\n b\n-b\n"), "{unified}");
    }

    #[test]
    fn cmp_messages() {
        assert_eq!(run("cmp", &["a", "b"], ""), out(1, "a b differ: char 3, line 2\n"));
        assert_eq!(run("cmp", &["-b", "a", "b"], ""), out(1, "a b differ: byte 3, line 2 is 142 b 102 B\n"));
        assert_eq!(run("cmp", &["a", "a"], ""), out(0, ""));
        assert_eq!(run("cmp", &["-s", "a", "b"], ""), out(1, ""));
        assert_eq!(run("cmp", &["-n", "2", "a", "b"], ""), out(0, ""));
        assert_eq!(run("cmp", &["-l", "a", "b"], ""), (1, "3 142 102\n".into(), "cmp: EOF on a after byte 6\n".into()));
        assert_eq!(run("cmp", &["a", "c"], ""), (1, "".into(), "cmp: EOF on c after byte 4, line 2\n".into()));
        assert_eq!(run("cmp", &["e1", "e2"], ""), (1, "".into(), "cmp: EOF on e1 after byte 3, in line 2\n".into()));
        assert_eq!(run("cmp", &["empty", "a"], ""), (1, "".into(), "cmp: EOF on empty which is empty\n".into()));
        assert_eq!(run("cmp", &["nope", "a"], ""), (2, "".into(), "cmp: nope: No such file or directory\n".into()));
        assert_eq!(
            run("cmp", &["-n", "x", "a", "b"], ""),
            (2, "".into(), "cmp: invalid --bytes value 'x'\ncmp: Try 'cmp --help' for more information.\n".into())
        );
    }

    #[test]
    fn comm_columns_and_order() {
        assert_eq!(run("comm", &["a", "b"], ""), out(0, "\t\ta\n\tB\nb\n\t\tc\n\td\n"));
        assert_eq!(run("comm", &["-12", "a", "c"], ""), out(0, "a\nb\n"));
        assert_eq!(run("comm", &["--output-delimiter=:", "a", "c"], ""), out(0, "::a\n::b\nc\n"));
        assert_eq!(run("comm", &["--total", "a", "c"], ""), out(0, "\t\ta\n\t\tb\nc\n1\t0\t2\ttotal\n"));
        assert_eq!(
            run("comm", &["u", "a"], ""),
            (
                1,
                "\ta\n\t\tb\na\n\tc\n".into(),
                "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n".into()
            )
        );
        assert_eq!(
            run("comm", &["--check-order", "u", "a"], ""),
            (1, "\ta\n\t\tb\n".into(), "comm: file 1 is not in sorted order\n".into())
        );
        assert_eq!(run("comm", &["--nocheck-order", "u", "a"], ""), out(0, "\ta\n\t\tb\na\n\tc\n"));
        assert_eq!(
            run("comm", &["a"], ""),
            (1, "".into(), "comm: missing operand after 'a'\nTry 'comm --help' for more information.\n".into())
        );
    }
}
