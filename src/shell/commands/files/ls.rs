//! `ls`, `du` and `stat`.
//!
//! `ls` writes one name per line by default (its output is never a
//! terminal); `-C`, `-x` and `-m` lay names out in GNU's columns for a
//! width of `-w`, `$COLUMNS` or 80, with tabs every `-T` (8) columns as GNU
//! does. `ls -l` shows the owner and
//! group `user user`, one link per file, the storage's modification time
//! in UTC, and 4096 bytes for a directory.

use std::time::SystemTime;

use super::{blocks_kib, child, civil, epoch_seconds, fail, human, parse, shown_size, tick, HasArg, Spec, MONTH_NAMES};
use crate::shell::command::Context;
use crate::shell::LimitHit;
use crate::storage::{FileKind, Metadata, StorageError};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Name,
    Size,
    Time,
    Extension,
    /// `-v`: natural order of version numbers (GNU's filevercmp).
    Version,
    None,
}

/// How names are laid out (GNU's `format`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    OnePerLine,
    Long,
    /// `-C`: columns, filled down.
    Columns,
    /// `-x`: columns, filled across.
    Across,
    /// `-m`: a comma-separated list.
    Commas,
}

struct LsOptions {
    all: bool,
    almost_all: bool,
    long: bool,
    recursive: bool,
    directory: bool,
    classify: bool,
    slash: bool,
    human: bool,
    sort: Sort,
    reverse: bool,
    owner: bool,
    group: bool,
    now: i64,
    format: Format,
    /// `-Q`: names in double quotes, with C escapes.
    quote: bool,
    /// `--group-directories-first`.
    dirs_first: bool,
    /// The line width for `-C`, `-x`, `-m` (0: no limit).
    width: usize,
    /// Tab stops for `-C` and `-x` (0: spaces only).
    tabsize: usize,
}

/// One name to show: as shown, its absolute path, and its metadata (the
/// link itself for a symlink).
struct Item {
    name: String,
    absolute: String,
    meta: Metadata,
    /// A directory or a link to one (`--group-directories-first`).
    is_dir: bool,
}

impl Item {
    fn new(ctx: &Context<'_>, name: String, absolute: String, meta: Metadata) -> Item {
        let is_dir = match meta.kind {
            FileKind::Directory => true,
            FileKind::Symlink => ctx.storage.stat(&absolute).is_ok_and(|target| target.kind == FileKind::Directory),
            FileKind::File => false,
        };
        Item { name, absolute, meta, is_dir }
    }
}

/// `ls [-1aACdFghlmnopQrRStUxX] [-w COLS] [-T COLS] [FILE]…`.
pub(super) fn ls(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "aAdFhlpRrStU1CxfgoGnNLHcumQvXw:T:",
        long: &[
            ("all", "a", HasArg::No),
            ("almost-all", "A", HasArg::No),
            ("color", "color", HasArg::Optional),
            ("colour", "color", HasArg::Optional),
            ("directory", "d", HasArg::No),
            ("dereference", "L", HasArg::No),
            ("dereference-command-line", "H", HasArg::No),
            ("classify", "F", HasArg::Optional),
            ("format", "format", HasArg::Yes),
            ("group-directories-first", "group-directories-first", HasArg::No),
            ("human-readable", "h", HasArg::No),
            ("literal", "N", HasArg::No),
            ("no-group", "G", HasArg::No),
            ("numeric-uid-gid", "n", HasArg::No),
            ("quote-name", "Q", HasArg::No),
            ("recursive", "R", HasArg::No),
            ("reverse", "r", HasArg::No),
            ("show-control-chars", "show-control-chars", HasArg::No),
            ("sort", "sort", HasArg::Yes),
            ("tabsize", "T", HasArg::Yes),
            ("width", "w", HasArg::Yes),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(2) };
    let mut options = LsOptions {
        all: false,
        almost_all: false,
        long: false,
        recursive: parsed.has("R"),
        directory: parsed.has("d"),
        classify: parsed.has("F"),
        slash: parsed.has("p"),
        human: parsed.has("h"),
        sort: Sort::Name,
        reverse: parsed.has("r"),
        owner: true,
        group: !parsed.has("G"),
        now: epoch_seconds(SystemTime::now()),
        format: Format::OnePerLine,
        quote: parsed.has("Q"),
        dirs_first: parsed.has("group-directories-first"),
        width: 80,
        tabsize: 8,
    };
    if let Some(columns) = (ctx.var)("COLUMNS").and_then(|text| text.parse::<usize>().ok()).filter(|&n| n > 0) {
        options.width = columns;
    }
    for (option, value) in &parsed.options {
        match *option {
            "a" => (options.all, options.almost_all) = (true, false),
            "A" => (options.all, options.almost_all) = (false, true),
            "f" => (options.all, options.sort) = (true, Sort::None),
            "l" | "n" => options.format = Format::Long,
            "g" => (options.format, options.owner) = (Format::Long, false),
            "o" => (options.format, options.group) = (Format::Long, false),
            // -1 has no effect after -l, as in GNU.
            "1" if options.format != Format::Long => options.format = Format::OnePerLine,
            "C" => options.format = Format::Columns,
            "x" => options.format = Format::Across,
            "m" => options.format = Format::Commas,
            "S" => options.sort = Sort::Size,
            "t" => options.sort = Sort::Time,
            "U" => options.sort = Sort::None,
            "X" => options.sort = Sort::Extension,
            "v" => options.sort = Sort::Version,
            "format" => {
                options.format = match value.as_str() {
                    "long" | "verbose" => Format::Long,
                    "single-column" => Format::OnePerLine,
                    "vertical" => Format::Columns,
                    "across" | "horizontal" => Format::Across,
                    "commas" => Format::Commas,
                    _ => {
                        let valid = "Valid arguments are:\n  - 'verbose', 'long'\n  - 'commas'\n  - 'horizontal', 'across'\n  - 'vertical'\n  - 'single-column'";
                        super::usage_error(ctx, format!("invalid argument '{value}' for '--format'\n{valid}"))?;
                        return Ok(1);
                    }
                }
            }
            "sort" => {
                options.sort = match value.as_str() {
                    "none" => Sort::None,
                    "size" => Sort::Size,
                    "time" => Sort::Time,
                    "extension" => Sort::Extension,
                    "version" => Sort::Version,
                    _ => {
                        let valid = "Valid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'";
                        super::usage_error(ctx, format!("invalid argument '{value}' for '--sort'\n{valid}"))?;
                        return Ok(1);
                    }
                }
            }
            "w" | "T" => {
                let Ok(number) = value.parse::<usize>() else {
                    let what = if *option == "w" { "line width" } else { "tab size" };
                    ctx.error(format_args!("invalid {what}: {}", super::quote(value)))?;
                    return Ok(2);
                };
                if *option == "w" {
                    options.width = number;
                } else {
                    options.tabsize = number;
                }
            }
            _ => {}
        }
    }
    options.long = options.format == Format::Long;
    if options.width == 0 {
        // No line limit: GNU pads with spaces only.
        options.tabsize = 0;
    }
    let follow_operands = parsed.has("L") || !(options.long || options.directory || options.classify);
    let operands = if parsed.operands.is_empty() { vec![".".to_string()] } else { parsed.operands.clone() };
    let mut status = 0;
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for operand in &operands {
        let absolute = ctx.path(operand);
        let follow = follow_operands || operand.ends_with('/');
        let result = if follow {
            ctx.stat(operand).or_else(|error| match error {
                StorageError::NotADirectory(_) => Err(error),
                _ => ctx.lstat(operand),
            })
        } else {
            ctx.lstat(operand)
        };
        match result {
            Ok(meta) => {
                let item = Item::new(ctx, operand.clone(), absolute, meta);
                if item.meta.kind == FileKind::Directory && !options.directory {
                    dirs.push(item);
                } else {
                    files.push(item);
                }
            }
            Err(error) => {
                fail(ctx, "cannot access", operand, &error)?;
                status = 2;
            }
        }
    }
    sort_items(&mut files, &options);
    sort_items(&mut dirs, &options);
    let mut printed = !files.is_empty();
    if !files.is_empty() {
        print_block(ctx, &files, &options, false)?;
    }
    let headers = operands.len() > 1 || options.recursive;
    for dir in &dirs {
        if list_dir(ctx, &dir.name, &dir.absolute, &options, headers, &mut printed)? {
            status = status.max(1);
        }
    }
    Ok(status)
}

fn sort_items(items: &mut [Item], options: &LsOptions) {
    match options.sort {
        Sort::Name => items.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes())),
        Sort::Size => {
            items.sort_by(|a, b| shown_size(&b.meta).cmp(&shown_size(&a.meta)).then_with(|| a.name.cmp(&b.name)))
        }
        Sort::Time => items.sort_by(|a, b| b.meta.modified.cmp(&a.meta.modified).then_with(|| a.name.cmp(&b.name))),
        Sort::Extension => items.sort_by(|a, b| {
            extension(&a.name).cmp(extension(&b.name)).then_with(|| a.name.as_bytes().cmp(b.name.as_bytes()))
        }),
        Sort::Version => items.sort_by(|a, b| {
            super::super::text::version::compare(a.name.as_bytes(), b.name.as_bytes())
                .then_with(|| a.name.as_bytes().cmp(b.name.as_bytes()))
        }),
        Sort::None => {}
    }
    if options.reverse {
        items.reverse();
    }
    if options.dirs_first {
        // Directories (and links to them) first; each group keeps its order.
        items.sort_by_key(|item| !item.is_dir);
    }
}

/// `-X`'s key: what follows the name's last dot (nothing without one).
fn extension(name: &str) -> &[u8] {
    name.rfind('.').map_or(&b""[..], |at| &name.as_bytes()[at + 1..])
}

/// `-Q`'s form of a name: in double quotes, with C escapes.
fn quoted(name: &str) -> String {
    let mut out = String::from("\"");
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Lists one directory (and, with `-R`, those under it); returns whether
/// something could not be read.
fn list_dir(
    ctx: &mut Context<'_>,
    shown: &str,
    absolute: &str,
    options: &LsOptions,
    header: bool,
    printed: &mut bool,
) -> Result<bool, LimitHit> {
    (ctx.check)()?;
    if *printed {
        ctx.stdout.write_str("\n")?;
    }
    *printed = true;
    if header {
        ctx.stdout.write_str(&format!("{shown}:\n"))?;
    }
    let entries = match ctx.storage.list(absolute) {
        Ok(entries) => entries,
        Err(error) => {
            fail(ctx, "cannot open directory", shown, &error)?;
            return Ok(true);
        }
    };
    let mut items = Vec::new();
    if options.all {
        for name in [".", ".."] {
            let path = crate::storage::normalize(&child(absolute, name));
            if let Ok(meta) = ctx.storage.stat(&path) {
                items.push(Item::new(ctx, name.to_string(), path, meta));
            }
        }
    }
    let mut step = 0;
    for entry in entries {
        tick(ctx, &mut step)?;
        if entry.name.starts_with('.') && !(options.all || options.almost_all) {
            continue;
        }
        let path = child(absolute, &entry.name);
        if let Ok(meta) = ctx.storage.lstat(&path) {
            items.push(Item::new(ctx, entry.name, path, meta));
        }
    }
    sort_items(&mut items, options);
    print_block(ctx, &items, options, true)?;
    let mut failed = false;
    if options.recursive {
        for item in &items {
            if item.meta.kind == FileKind::Directory && item.name != "." && item.name != ".." {
                let sub = child(shown, &item.name);
                failed |= list_dir(ctx, &sub, &item.absolute, options, true, printed)?;
            }
        }
    }
    Ok(failed)
}

/// `-F`/`-p`'s mark after a name.
fn indicator(meta: &Metadata, options: &LsOptions) -> &'static str {
    match meta.kind {
        FileKind::Directory if options.classify || options.slash => "/",
        FileKind::Symlink if options.classify => "@",
        FileKind::File if options.classify && meta.mode & 0o111 != 0 => "*",
        _ => "",
    }
}

/// A name as listed: quoted with `-Q`.
fn shown_name(name: &str, options: &LsOptions) -> String {
    if options.quote {
        quoted(name)
    } else {
        name.to_string()
    }
}

/// GNU's `indent`: spaces from column `from` to `to`, a tab where one fits.
fn indent(out: &mut String, mut from: usize, to: usize, tabsize: usize) {
    while from < to {
        if tabsize != 0 && to / tabsize > (from + 1) / tabsize {
            out.push('\t');
            from += tabsize - from % tabsize;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

/// `-C` (`across` false) and `-x`: GNU's many-per-line layout, the most
/// columns whose widths (each name plus two, the last column without them)
/// stay under the line width.
fn columns(names: &[String], options: &LsOptions, across: bool) -> String {
    let n = names.len();
    let lengths: Vec<usize> = names.iter().map(|name| name.chars().count()).collect();
    let max_cols = if options.width == 0 { n } else { (options.width / 3).max(1).min(n) };
    let mut cols = 1;
    let mut widths = vec![lengths.iter().copied().max().unwrap_or(0)];
    for try_cols in (2..=max_cols).rev() {
        let rows = n.div_ceil(try_cols);
        let mut col_widths = vec![3usize; try_cols];
        for (index, length) in lengths.iter().enumerate() {
            let col = if across { index % try_cols } else { index / rows };
            let real = length + if col == try_cols - 1 { 0 } else { 2 };
            col_widths[col] = col_widths[col].max(real);
        }
        if options.width == 0 || col_widths.iter().sum::<usize>() < options.width {
            cols = try_cols;
            widths = col_widths;
            break;
        }
    }
    let mut out = String::new();
    if cols == 1 {
        for name in names {
            out.push_str(name);
            out.push('\n');
        }
        return out;
    }
    let rows = n.div_ceil(cols);
    if across {
        let mut pos = 0;
        for (index, name) in names.iter().enumerate() {
            let col = index % cols;
            if index > 0 {
                if col == 0 {
                    out.push('\n');
                    pos = 0;
                } else {
                    indent(&mut out, pos + lengths[index - 1], pos + widths[col - 1], options.tabsize);
                    pos += widths[col - 1];
                }
            }
            out.push_str(name);
        }
        out.push('\n');
        return out;
    }
    for row in 0..rows {
        let (mut index, mut col, mut pos) = (row, 0, 0);
        loop {
            out.push_str(&names[index]);
            let width = widths[col];
            col += 1;
            if index + rows >= n {
                break;
            }
            indent(&mut out, pos + lengths[index], pos + width, options.tabsize);
            pos += width;
            index += rows;
        }
        out.push('\n');
    }
    out
}

/// `-m`: names separated by `, `, a new line where the next would reach the width.
fn commas(names: &[String], options: &LsOptions) -> String {
    let mut out = String::new();
    let mut pos = 0;
    for (index, name) in names.iter().enumerate() {
        let length = if options.width == 0 { 0 } else { name.chars().count() };
        if index > 0 {
            out.push(',');
            if options.width == 0 || pos + length + 2 < options.width {
                out.push(' ');
                pos += 2;
            } else {
                out.push('\n');
                pos = 0;
            }
        }
        out.push_str(name);
        pos += length;
    }
    out.push('\n');
    out
}

fn print_block(ctx: &mut Context<'_>, items: &[Item], options: &LsOptions, with_total: bool) -> Result<(), LimitHit> {
    if !options.long {
        if items.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = items
            .iter()
            .map(|item| format!("{}{}", shown_name(&item.name, options), indicator(&item.meta, options)))
            .collect();
        let out = match options.format {
            Format::Columns => columns(&names, options, false),
            Format::Across => columns(&names, options, true),
            Format::Commas => commas(&names, options),
            Format::OnePerLine | Format::Long => names.iter().map(|name| format!("{name}\n")).collect(),
        };
        return ctx.stdout.write_str(&out);
    }
    if with_total {
        let total: u64 = items.iter().map(|item| blocks_kib(&item.meta)).sum();
        let total = if options.human { human(total * 1024) } else { total.to_string() };
        ctx.stdout.write_str(&format!("total {total}\n"))?;
    }
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        (ctx.check)()?;
        let links = match item.meta.kind {
            FileKind::Directory => {
                let entries = ctx.storage.list(&item.absolute).unwrap_or_default();
                2 + entries.iter().filter(|entry| entry.kind == FileKind::Directory).count()
            }
            _ => 1,
        };
        let size = shown_size(&item.meta);
        let size = if options.human { human(size) } else { size.to_string() };
        let mut name = format!("{}{}", shown_name(&item.name, options), indicator(&item.meta, options));
        if item.meta.kind == FileKind::Symlink {
            if let Ok(target) = ctx.storage.readlink(&item.absolute) {
                name = format!("{} -> {}", shown_name(&item.name, options), shown_name(&target, options));
            }
        }
        rows.push((mode_string(&item.meta), links.to_string(), size, date(item.meta.modified, options.now), name));
    }
    let links_width = rows.iter().map(|row| row.1.len()).max().unwrap_or(0);
    let size_width = rows.iter().map(|row| row.2.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (mode, links, size, date, name) in rows {
        let mut owners = String::new();
        if options.owner {
            owners.push_str("user ");
        }
        if options.group {
            owners.push_str("user ");
        }
        out.push_str(&format!("{mode} {links:>links_width$} {owners}{size:>size_width$} {date} {name}\n"));
    }
    ctx.stdout.write_str(&out)
}

/// `drwxr-xr-x`.
pub(super) fn mode_string(meta: &Metadata) -> String {
    super::mode_string_of(meta)
}

/// `ls -l`'s date: `Dec  2 16:05` within six months, `Dec  2  2025` otherwise.
fn date(time: SystemTime, now: i64) -> String {
    let seconds = epoch_seconds(time);
    let (year, month, day, hour, minute, _) = civil(seconds);
    let month = &MONTH_NAMES[(month as usize).saturating_sub(1) % 12][..3];
    const SIX_MONTHS: i64 = 31_556_952 / 2;
    if seconds > now - SIX_MONTHS && seconds <= now + 60 {
        format!("{month} {day:>2} {hour:02}:{minute:02}")
    } else {
        format!("{month} {day:>2} {year:>5}")
    }
}

/// `du [-abchkmsS] [-d N] [FILE]…`: disk usage counted in 4 KiB blocks
/// (a directory is one block), or bytes with `-b`.
pub(super) fn du(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "abchkmsSxlLPD0d:",
        long: &[
            ("all", "a", HasArg::No),
            ("bytes", "b", HasArg::No),
            ("apparent-size", "A", HasArg::No),
            ("total", "c", HasArg::No),
            ("human-readable", "h", HasArg::No),
            ("summarize", "s", HasArg::No),
            ("max-depth", "d", HasArg::Yes),
            ("null", "0", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let max_depth = match parsed.value("d") {
        Some(text) => match text.parse::<usize>() {
            Ok(depth) => Some(depth),
            Err(_) => {
                ctx.error(format_args!("invalid maximum depth {}", super::quote(text)))?;
                return Ok(1);
            }
        },
        None if parsed.has("s") => Some(0),
        None => None,
    };
    let unit = parsed.options.iter().rev().find_map(|(option, _)| match *option {
        "b" => Some('b'),
        "h" => Some('h'),
        "k" => Some('k'),
        "m" => Some('m'),
        _ => None,
    });
    let apparent = parsed.has("b") || parsed.has("A");
    let settings = DuSettings {
        all: parsed.has("a"),
        max_depth,
        apparent,
        unit: unit.unwrap_or('k'),
        terminator: if parsed.has("0") { '\0' } else { '\n' },
    };
    let operands = if parsed.operands.is_empty() { vec![".".to_string()] } else { parsed.operands.clone() };
    let mut status = 0;
    let mut total = 0;
    for operand in &operands {
        let absolute = ctx.path(operand);
        match ctx.storage.stat(&absolute).or_else(|_| ctx.storage.lstat(&absolute)) {
            Ok(meta) => total += du_walk(ctx, operand, &absolute, meta, 0, &settings)?,
            Err(error) => {
                fail(ctx, "cannot access", operand, &error)?;
                status = 1;
            }
        }
    }
    if parsed.has("c") {
        let line = format!("{}\ttotal{}", settings.show(total), settings.terminator);
        ctx.stdout.write_str(&line)?;
    }
    Ok(status)
}

struct DuSettings {
    all: bool,
    max_depth: Option<usize>,
    apparent: bool,
    unit: char,
    terminator: char,
}

impl DuSettings {
    fn size(&self, meta: &Metadata) -> u64 {
        if self.apparent {
            shown_size(meta)
        } else {
            blocks_kib(meta) * 1024
        }
    }

    fn show(&self, bytes: u64) -> String {
        match self.unit {
            'b' => bytes.to_string(),
            'h' => human(bytes),
            'm' => bytes.div_ceil(1024 * 1024).to_string(),
            _ => bytes.div_ceil(1024).to_string(),
        }
    }
}

/// Bytes under a path, writing a line for it when its depth allows.
fn du_walk(
    ctx: &mut Context<'_>,
    shown: &str,
    absolute: &str,
    meta: Metadata,
    depth: usize,
    settings: &DuSettings,
) -> Result<u64, LimitHit> {
    (ctx.check)()?;
    let mut total = settings.size(&meta);
    if meta.kind == FileKind::Directory {
        for entry in ctx.storage.list(absolute).unwrap_or_default() {
            let path = child(absolute, &entry.name);
            let Ok(sub) = ctx.storage.lstat(&path) else { continue };
            total += du_walk(ctx, &child(shown, &entry.name), &path, sub, depth + 1, settings)?;
        }
    }
    let visible = depth == 0 || meta.kind == FileKind::Directory || settings.all;
    if visible && settings.max_depth.is_none_or(|max| depth <= max) {
        let line = format!("{}\t{shown}{}", settings.show(total), settings.terminator);
        ctx.stdout.write_str(&line)?;
    }
    Ok(total)
}

/// `stat [-L] [-c FORMAT | --printf FORMAT] FILE…`. Device, inode, owner
/// and the access/change/birth times are not kept by the storage: they show
/// as 0, `user` and the modification time.
pub(super) fn stat(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "Lftc:P:",
        long: &[
            ("dereference", "L", HasArg::No),
            ("format", "c", HasArg::Yes),
            ("printf", "P", HasArg::Yes),
            ("terse", "t", HasArg::No),
            ("file-system", "f", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    if parsed.operands.is_empty() {
        super::usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let absolute = ctx.path(operand);
        let result = if parsed.has("L") { ctx.storage.stat(&absolute) } else { ctx.storage.lstat(&absolute) };
        let meta = match result {
            Ok(meta) => meta,
            Err(error) => {
                fail(ctx, "cannot statx", operand, &error)?;
                status = 1;
                continue;
            }
        };
        let target = if meta.kind == FileKind::Symlink { ctx.storage.readlink(&absolute).ok() } else { None };
        let links = if meta.kind == FileKind::Directory {
            let entries = ctx.storage.list(&absolute).unwrap_or_default();
            2 + entries.iter().filter(|entry| entry.kind == FileKind::Directory).count()
        } else {
            1
        };
        let info = StatInfo { name: operand, meta: &meta, target: target.as_deref(), links };
        let text = if let Some(format) = parsed.value("c") {
            format!("{}\n", info.expand(format, false))
        } else if let Some(format) = parsed.value("P") {
            info.expand(format, true)
        } else {
            let file = match &target {
                Some(target) => format!("{operand} -> {target}"),
                None => operand.clone(),
            };
            let format = "  File: \u{0}\n  Size: %-10s\tBlocks: %-10b IO Block: 4096   %F\nDevice: 0,0\tInode: 0           Links: %h\nAccess: (%04a/%A)  Uid: ( 1000/    user)   Gid: ( 1000/    user)\nAccess: %y\nModify: %y\nChange: %y\n Birth: -\n";
            info.expand(format, false).replace('\0', &file)
        };
        ctx.stdout.write_str(&text)?;
    }
    Ok(status)
}

struct StatInfo<'a> {
    name: &'a str,
    meta: &'a Metadata,
    target: Option<&'a str>,
    links: usize,
}

impl StatInfo<'_> {
    /// Expands `%` directives (and, for `--printf`, backslash escapes).
    fn expand(&self, format: &str, escapes: bool) -> String {
        let mut out = String::new();
        let chars: Vec<char> = format.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            let c = chars[at];
            at += 1;
            if c == '\\' && escapes && at < chars.len() {
                let escaped = chars[at];
                at += 1;
                match escaped {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    '\\' => out.push('\\'),
                    '"' => out.push('"'),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
                continue;
            }
            if c != '%' || at >= chars.len() {
                out.push(c);
                continue;
            }
            let mut spec = String::new();
            while at < chars.len() && (chars[at].is_ascii_digit() || chars[at] == '-') {
                spec.push(chars[at]);
                at += 1;
            }
            let Some(&directive) = chars.get(at) else {
                out.push('%');
                out.push_str(&spec);
                break;
            };
            at += 1;
            let value = match directive {
                '%' => "%".to_string(),
                'n' => self.name.to_string(),
                'N' => match self.target {
                    Some(target) => format!("{} -> {}", super::quote(self.name), super::quote(target)),
                    None => super::quote(self.name),
                },
                's' => shown_size(self.meta).to_string(),
                'b' => (blocks_kib(self.meta) * 2).to_string(),
                'B' => "512".to_string(),
                'o' => "4096".to_string(),
                'F' => match self.meta.kind {
                    FileKind::File if self.meta.size == 0 => "regular empty file",
                    FileKind::File => "regular file",
                    FileKind::Directory => "directory",
                    FileKind::Symlink => "symbolic link",
                }
                .to_string(),
                'a' => format!("{:o}", self.meta.mode & 0o7777),
                'A' => mode_string(self.meta),
                'f' => format!("{:x}", self.meta.mode | kind_bits(self.meta.kind)),
                'h' => self.links.to_string(),
                'i' | 'd' | 'D' => "0".to_string(),
                'u' | 'g' => "1000".to_string(),
                'U' | 'G' => "user".to_string(),
                'x' | 'y' | 'z' | 'w' => full_time(self.meta.modified),
                'X' | 'Y' | 'Z' | 'W' => epoch_seconds(self.meta.modified).to_string(),
                't' | 'T' => "0".to_string(),
                other => format!("?{other}"),
            };
            out.push_str(&pad(&value, &spec));
        }
        out
    }
}

/// Applies a printf width (`-10`, `04`) to a value.
fn pad(value: &str, spec: &str) -> String {
    let left = spec.starts_with('-');
    let digits = spec.trim_start_matches('-');
    let zero = digits.starts_with('0');
    let width: usize = digits.parse().unwrap_or(0).min(1000);
    if value.len() >= width {
        value.to_string()
    } else if left {
        format!("{value:<width$}")
    } else if zero {
        format!("{value:0>width$}")
    } else {
        format!("{value:>width$}")
    }
}

fn kind_bits(kind: FileKind) -> u32 {
    match kind {
        FileKind::File => 0o100000,
        FileKind::Directory => 0o040000,
        FileKind::Symlink => 0o120000,
    }
}

/// `2026-12-02 16:05:35.873279298 +0000`.
fn full_time(time: SystemTime) -> String {
    let seconds = epoch_seconds(time);
    let nanos = time.duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let (year, month, day, hour, minute, second) = civil(seconds);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02}.{nanos:09} +0000")
}

#[cfg(test)]
mod tests {
    use super::super::test_support::storage;
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn fixture() -> MemoryStorage {
        let fs = storage(&[("/a", "x\n"), ("/d/b", "hello\n"), ("/d/sub/", ""), ("/e/", ""), ("/.hidden", "")]);
        fs.write("/d/big", &[b' '; 5000]).unwrap();
        fs.symlink("a", "/la").unwrap();
        fs.symlink("d", "/ld").unwrap();
        fs
    }

    fn ls(fs: &MemoryStorage, args: &[&str]) -> (i32, String, String) {
        run_for_test(fs, "ls", args, "")
    }

    /// `ls -l` lines without the date columns, which depend on the clock.
    fn undated(text: &str) -> String {
        text.lines()
            .map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if fields.len() >= 9 {
                    format!("{} {}", fields[..5].join(" "), fields[8..].join(" "))
                } else {
                    line.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn lists_names_like_gnu() {
        let fs = fixture();
        assert_eq!(ls(&fs, &[]), (0, "a\nd\ne\nla\nld\n".into(), "".into()));
        assert_eq!(
            ls(&fs, &["d", "e", "a", "nope"]),
            (2, "a\n\nd:\nb\nbig\nsub\n\ne:\n".into(), "ls: cannot access 'nope': No such file or directory\n".into())
        );
        assert_eq!(ls(&fs, &["-R", "d", "e"]), (0, "d:\nb\nbig\nsub\n\nd/sub:\n\ne:\n".into(), "".into()));
        assert_eq!(ls(&fs, &["-F"]).1, "a\nd/\ne/\nla@\nld@\n");
        assert_eq!(ls(&fs, &["-p", "d"]).1, "b\nbig\nsub/\n");
        assert_eq!(ls(&fs, &["-d", "d", "e"]).1, "d\ne\n");
        assert_eq!(ls(&fs, &["-S", "d"]).1, "big\nsub\nb\n");
        assert_eq!(ls(&fs, &["-r", "d"]).1, "sub\nbig\nb\n");
        assert_eq!(ls(&fs, &["ld"]).1, "b\nbig\nsub\n");
        assert_eq!(ls(&fs, &["-A", "e"]).1, "");
        assert_eq!(ls(&fs, &["-a", "e"]).1, ".\n..\n");
        assert_eq!(ls(&fs, &["-A"]).1, ".hidden\na\nd\ne\nla\nld\n");
        assert_eq!(ls(&fs, &["-1", "d/b"]).1, "d/b\n");
    }

    #[test]
    fn long_listing_matches_gnu_columns() {
        let fs = fixture();
        let (status, out, _) = ls(&fs, &["-l", "d", "ld"]);
        assert_eq!(status, 0);
        assert_eq!(
            undated(&out),
            "lrwxrwxrwx 1 user user 1 ld -> d\n\nd:\ntotal 16\n-rw-r--r-- 1 user user 6 b\n-rw-r--r-- 1 user user 5000 big\ndrwxr-xr-x 2 user user 4096 sub"
        );
        let (_, out, _) = ls(&fs, &["-lh", "d"]);
        assert_eq!(
            undated(&out),
            "total 16K\n-rw-r--r-- 1 user user 6 b\n-rw-r--r-- 1 user user 4.9K big\ndrwxr-xr-x 2 user user 4.0K sub"
        );
        let (_, out, _) = ls(&fs, &["-la", "e"]);
        assert_eq!(undated(&out), "total 8\ndrwxr-xr-x 2 user user 4096 .\ndrwxr-xr-x 4 user user 4096 ..");
        let line = ls(&fs, &["-l", "a"]).1;
        assert!(line.starts_with("-rw-r--r-- 1 user user 2 ") && line.ends_with(" a\n"), "{line}");
        assert_eq!(line.len(), "-rw-r--r-- 1 user user 2 Dec  2 16:05 a\n".len());
    }

    #[test]
    fn du_and_stat() {
        let fs = fixture();
        assert_eq!(run_for_test(&fs, "du", &["d"], "").1, "4\td/sub\n20\td\n");
        assert_eq!(run_for_test(&fs, "du", &["-a", "d"], "").1, "4\td/b\n8\td/big\n4\td/sub\n20\td\n");
        assert_eq!(run_for_test(&fs, "du", &["-sh", "d", "a"], "").1, "20K\td\n4.0K\ta\n");
        assert_eq!(run_for_test(&fs, "du", &["-c", "a", "d/b"], "").1, "4\ta\n4\td/b\n8\ttotal\n");
        assert_eq!(run_for_test(&fs, "du", &["-b", "d"], "").1, "4096\td/sub\n13198\td\n");
        assert_eq!(
            run_for_test(&fs, "du", &["nope"], ""),
            (1, "".into(), "du: cannot access 'nope': No such file or directory\n".into())
        );
        assert_eq!(
            run_for_test(&fs, "stat", &["-c", "%n %s %F %a %A %h", "a", "d", "la"], "").1,
            "a 2 regular file 644 -rw-r--r-- 1\nd 4096 directory 755 drwxr-xr-x 3\nla 1 symbolic link 777 lrwxrwxrwx 1\n"
        );
        let (_, out, _) = run_for_test(&fs, "stat", &["la"], "");
        assert!(
            out.starts_with("  File: la -> a\n  Size: 1         \tBlocks: 0          IO Block: 4096   symbolic link\n"),
            "{out}"
        );
        assert_eq!(
            run_for_test(&fs, "stat", &["nope"], ""),
            (1, "".into(), "stat: cannot statx 'nope': No such file or directory\n".into())
        );
    }
}
