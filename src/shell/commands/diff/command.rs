//! `diff`: its options, the operands (files, directories, stdin) and the
//! headers; the lines are compared in `lines.rs` and `myers.rs` and
//! written out by `format.rs`.

use crate::shell::command::Context;
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

use super::super::calendar::{civil, epoch_seconds, DAY_NAMES, MONTH_NAMES};
use super::super::files::{base_name, child};
use super::super::text::common::{parse, Arg, HasArg, Spec};

use super::*;

const DIFF_SPEC: Spec = Spec {
    short: "qsrNiwbBuU:cC:aeytW:",
    long: &[
        ("normal", "normal", HasArg::No),
        ("ed", "e", HasArg::No),
        ("side-by-side", "y", HasArg::No),
        ("width", "W", HasArg::Yes),
        ("left-column", "left-column", HasArg::No),
        ("suppress-common-lines", "suppress-common-lines", HasArg::No),
        ("expand-tabs", "t", HasArg::No),
        ("tabsize", "tabsize", HasArg::Yes),
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
pub(super) struct DiffOptions {
    /// Lines of context for `-u` or `-c`; `None` is the normal format.
    pub(super) unified: Option<usize>,
    /// `-c`: the context format rather than the unified one.
    pub(super) context_format: bool,
    pub(super) brief: bool,
    pub(super) report_identical: bool,
    pub(super) recursive: bool,
    pub(super) new_file: bool,
    pub(super) ignore_case: bool,
    pub(super) ignore_all_space: bool,
    pub(super) ignore_space_change: bool,
    pub(super) ignore_blank_lines: bool,
    pub(super) text: bool,
    /// `--color=always`: SGR colours on headers, hunk lines, - and +.
    pub(super) color: bool,
    pub(super) strip_trailing_cr: bool,
    pub(super) labels: Vec<String>,
    /// The options as written, for the `diff -r a/f b/f` lines.
    pub(super) switches: String,
    /// `-y`: the side-by-side layout.
    pub(super) side_by_side: Option<SideBySide>,
    /// `-e`: an ed script.
    pub(super) ed: bool,
}

/// The output formats, of which a command line may choose one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Normal,
    Unified,
    Context,
    SideBySide,
    Ed,
}

pub(super) fn diff(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&DIFF_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return diffutils_usage(ctx, &message),
    };
    let mut options = DiffOptions::default();
    let mut operands = Vec::new();
    let mut style: Option<Style> = None;
    let (mut width, mut tabsize, mut expand_tabs) = (130usize, 8usize, false);
    let (mut left_column, mut suppress_common) = (false, false);
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
                "normal" | "e" | "y" => {
                    let chosen = match key {
                        "normal" => Style::Normal,
                        "e" => Style::Ed,
                        _ => Style::SideBySide,
                    };
                    if style.is_some_and(|s| s != chosen) {
                        return diffutils_usage(ctx, "conflicting output style options");
                    }
                    style = Some(chosen);
                }
                "W" | "tabsize" => {
                    let text = value.unwrap_or_default();
                    match text.parse::<usize>() {
                        Ok(n) if n > 0 => {
                            if key == "W" {
                                width = n;
                            } else {
                                tabsize = n;
                            }
                        }
                        _ => {
                            let what = if key == "W" { "width" } else { "tabsize" };
                            return diffutils_usage(ctx, &format!("invalid {what} '{text}'"));
                        }
                    }
                }
                "t" => expand_tabs = true,
                "left-column" => left_column = true,
                "suppress-common-lines" => suppress_common = true,
                "u" | "U" | "unified" | "c" | "C" | "context" => {
                    let context_format = matches!(key, "c" | "C" | "context");
                    let chosen = if context_format { Style::Context } else { Style::Unified };
                    if style.is_some_and(|s| s != chosen) {
                        return diffutils_usage(ctx, "conflicting output style options");
                    }
                    style = Some(chosen);
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
    match style {
        Some(Style::SideBySide) => {
            let mut layout = SideBySide::new(width, tabsize, expand_tabs);
            layout.left_column = left_column;
            layout.suppress_common = suppress_common;
            options.side_by_side = Some(layout);
        }
        Some(Style::Ed) => options.ed = true,
        _ => {}
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
    if data_a == data_b && missing == (false, false) && (options.side_by_side.is_none() || options.brief) {
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
        // `-y` shows the files side by side even when they are the same.
        if let (Some(layout), false) = (options.side_by_side, options.brief) {
            let mut out = Vec::new();
            layout.format(&mut out, &changes, &shown, (&lines_a, &lines_b));
            ctx.stdout.write(&out)?;
        }
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
        _ if options.side_by_side.is_some() => {
            if let Some(layout) = options.side_by_side {
                layout.format(&mut out, &changes, &shown, (&lines_a, &lines_b));
            }
        }
        _ if options.ed => ed_format(&mut out, &changes, &shown, &lines_b),
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
