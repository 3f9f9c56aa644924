//! `gzip`, `gunzip`, `zcat` (GNU gzip 1.12) and `tar` (GNU tar 1.34):
//! deflate through `flate2`'s pure-Rust backend, archives through the `tar`
//! crate's reader and writer over byte buffers. Nothing touches the host:
//! every member is read from and written to the storage here.
//!
//! Differences: the compressed bytes are miniz_oxide's, not zlib's (same
//! format, other sizes); `gzip -l`, `-N`, `-S`, `--rsyncable` are left
//! out. tar creates ustar/GNU archives (`c`, `x`, `t`, with `-f`, `-z`,
//! `-C`, `-v`, `-O`, `--strip-components`, `--exclude`); no `-r -u -A
//! --delete`, no bzip2/xz; members go in name order (GNU: directory order);
//! owners are `user/user` (uid 1000); hard links in an archive are refused.

use std::io::{Read, Write};

use crate::shell::command::{error_reason, CommandFn, Context};
use crate::shell::LimitHit;
use crate::storage::{join, FileKind, StorageError};

use super::calendar::{civil, epoch_seconds};
use super::text::common::{parse, quote, Arg, HasArg, Spec};
use crate::shell::pattern::Pattern;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("gzip", gzip), ("gunzip", gunzip), ("zcat", zcat), ("tar", tar)];

/// Bytes a decompressed stream may reach: past this it is refused (a zip
/// bomb would otherwise fill memory).
const MAX_INFLATED: u64 = 1 << 30;

fn compress(data: &[u8], level: u32, name: Option<&str>, mtime: u32) -> Vec<u8> {
    let mut builder = flate2::GzBuilder::new().mtime(mtime);
    if let Some(name) = name {
        builder = builder.filename(name.as_bytes());
    }
    let mut encoder = builder.write(Vec::new(), flate2::Compression::new(level));
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

/// Every gzip member of `data`, inflated and concatenated (as gunzip does).
fn decompress(data: &[u8], check: &dyn Fn() -> Result<(), LimitHit>) -> Result<Result<Vec<u8>, String>, LimitHit> {
    if data.len() < 2 || data[0] != 0x1f || data[1] != 0x8b {
        return Ok(Err("not in gzip format".to_string()));
    }
    let mut decoder = flate2::read::MultiGzDecoder::new(data);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        check()?;
        match decoder.read(&mut buf) {
            Ok(0) => return Ok(Ok(out)),
            Ok(n) => {
                if out.len() as u64 + n as u64 > MAX_INFLATED {
                    return Ok(Err(format!("decompressed data exceeds {MAX_INFLATED} bytes")));
                }
                out.extend_from_slice(&buf[..n]);
            }
            Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Ok(Err("unexpected end of file".to_string()));
            }
            Err(_) => return Ok(Err("invalid compressed data--format violated".to_string())),
        }
    }
}

// ----- gzip -----

#[derive(Default)]
struct GzOpts {
    stdout: bool,
    decompress: bool,
    keep: bool,
    force: bool,
    test: bool,
    verbose: bool,
    quiet: bool,
    recursive: bool,
    level: u32,
}

fn gunzip(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut all = vec!["-d".to_string()];
    all.extend_from_slice(args);
    gzip(ctx, &all)
}

fn zcat(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut all = vec!["-dc".to_string()];
    all.extend_from_slice(args);
    gzip(ctx, &all)
}

fn gzip(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "cdfhklnNqrtvV123456789",
        long: &[
            ("stdout", "c", HasArg::No),
            ("to-stdout", "c", HasArg::No),
            ("decompress", "d", HasArg::No),
            ("uncompress", "d", HasArg::No),
            ("force", "f", HasArg::No),
            ("keep", "k", HasArg::No),
            ("no-name", "n", HasArg::No),
            ("name", "N", HasArg::No),
            ("quiet", "q", HasArg::No),
            ("recursive", "r", HasArg::No),
            ("test", "t", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("fast", "1", HasArg::No),
            ("best", "9", HasArg::No),
        ],
    };
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => {
            ctx.error(message)?;
            ctx.stderr.write_str(&format!("Try `{} --help' for more information.\n", ctx.name))?;
            return Ok(1);
        }
    };
    let mut opts = GzOpts { level: 6, ..GzOpts::default() };
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("c", _) => opts.stdout = true,
            Arg::Opt("d", _) => opts.decompress = true,
            Arg::Opt("f", _) => opts.force = true,
            Arg::Opt("k", _) => opts.keep = true,
            Arg::Opt("q", _) => opts.quiet = true,
            Arg::Opt("r", _) => opts.recursive = true,
            Arg::Opt("t", _) => opts.test = true,
            Arg::Opt("v", _) => opts.verbose = true,
            Arg::Opt(digit, _) if digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit() => {
                opts.level = u32::from(digit.as_bytes()[0] - b'0');
            }
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    if opts.test {
        opts.decompress = true;
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    for file in files {
        status = status.max(gzip_one(ctx, &file, &opts)?);
    }
    Ok(status)
}

/// GNU gzip's message prefix: `gzip: ` with the name it was called by.
fn gz_error(ctx: &mut Context<'_>, message: impl std::fmt::Display) -> Result<(), LimitHit> {
    ctx.stderr.write_str(&format!("gzip: {message}\n"))
}

fn gzip_one(ctx: &mut Context<'_>, file: &str, opts: &GzOpts) -> Result<i32, LimitHit> {
    (ctx.check)()?;
    let from_stdin = file == "-";
    if !from_stdin {
        match ctx.lstat(file) {
            Ok(meta) if meta.kind == FileKind::Directory => {
                if !opts.recursive {
                    if !opts.quiet {
                        gz_error(ctx, format!("{file} is a directory -- ignored"))?;
                    }
                    return Ok(2);
                }
                let entries = match ctx.storage.list(&ctx.path(file)) {
                    Ok(entries) => entries,
                    Err(error) => {
                        gz_error(ctx, format!("{file}: {}", error_reason(&error)))?;
                        return Ok(1);
                    }
                };
                let mut status = 0;
                for entry in entries {
                    status = status.max(gzip_one(ctx, &join(file, &entry.name), opts)?);
                }
                return Ok(status);
            }
            Ok(meta) if meta.kind == FileKind::Symlink && !opts.stdout && !opts.force => {
                gz_error(ctx, format!("{file}: Too many levels of symbolic links"))?;
                return Ok(1);
            }
            Ok(_) => {}
            Err(error) => {
                gz_error(ctx, format!("{file}: {}", error_reason(&error)))?;
                return Ok(1);
            }
        }
    }
    let to_stdout = opts.stdout || from_stdin;
    let shown = if from_stdin { "stdin" } else { file };
    // The output name, when it is a file.
    let target = if to_stdout || opts.test {
        None
    } else if opts.decompress {
        let stem = [".gz", "-gz", ".z", "-z", "_z", ".Z"].iter().find_map(|s| file.strip_suffix(s)).map(str::to_string);
        let stem = stem
            .or_else(|| file.strip_suffix(".tgz").or_else(|| file.strip_suffix(".taz")).map(|s| format!("{s}.tar")));
        match stem.filter(|s| !s.is_empty() && !s.ends_with('/')) {
            Some(stem) => Some(stem),
            None => {
                if !opts.quiet {
                    gz_error(ctx, format!("{file}: unknown suffix -- ignored"))?;
                }
                return Ok(2);
            }
        }
    } else {
        if file.ends_with(".gz") || file.ends_with(".tgz") {
            if !opts.quiet {
                gz_error(ctx, format!("{file} already has .gz suffix -- unchanged"))?;
            }
            return Ok(2);
        }
        Some(format!("{file}.gz"))
    };
    if let Some(target) = &target {
        if ctx.lstat(target).is_ok() && !opts.force {
            gz_error(ctx, format!("{target} already exists;\tnot overwritten"))?;
            return Ok(2);
        }
    }
    let data = match ctx.read(file) {
        Ok(data) => data,
        Err(error) => {
            gz_error(ctx, format!("{file}: {}", error_reason(&error)))?;
            return Ok(1);
        }
    };
    let (output, ratio) = if opts.decompress {
        match decompress(&data, ctx.check)? {
            Ok(plain) => {
                let ratio = percent(plain.len(), data.len());
                (plain, ratio)
            }
            Err(message) => {
                // GNU starts this one with an empty line.
                if message == "not in gzip format" {
                    ctx.stderr.write_str("\n")?;
                }
                gz_error(ctx, format!("{shown}: {message}"))?;
                return Ok(1);
            }
        }
    } else {
        let mtime = if from_stdin {
            0
        } else {
            ctx.stat(file).map(|m| epoch_seconds(m.modified).clamp(0, i64::from(u32::MAX)) as u32).unwrap_or(0)
        };
        let name = (!from_stdin).then(|| file.rsplit('/').next().unwrap_or(file));
        let packed = compress(&data, opts.level.max(1), name, mtime);
        let ratio = percent(data.len(), packed.len());
        (packed, ratio)
    };
    if opts.test {
        if opts.verbose {
            ctx.stderr.write_str(&format!("{shown}:\t OK\n"))?;
        }
        return Ok(0);
    }
    match target {
        None => ctx.stdout.write(&output)?,
        Some(target) => {
            let absolute = ctx.path(&target);
            if let Err(error) = ctx.storage.write(&absolute, &output) {
                gz_error(ctx, format!("{target}: {}", error_reason(&error)))?;
                return Ok(1);
            }
            if let Ok(meta) = ctx.stat(file) {
                let _ = ctx.storage.set_mode(&absolute, meta.mode);
            }
            if opts.verbose {
                ctx.stderr.write_str(&format!("{file}:\t{ratio} -- replaced with {target}\n"))?;
            }
            if !opts.keep {
                if let Err(error) = ctx.storage.remove(&ctx.path(file), false) {
                    gz_error(ctx, format!("{file}: {}", error_reason(&error)))?;
                    return Ok(1);
                }
            }
        }
    }
    Ok(0)
}

/// gzip's ratio: how much smaller the compressed form is, `-33.3%`.
fn percent(plain: usize, packed: usize) -> String {
    if plain == 0 {
        return "  0.0%".to_string();
    }
    let saved = (plain as f64 - packed as f64) * 100.0 / plain as f64;
    format!("{saved:5.1}%")
}

// ----- tar -----

#[derive(Default)]
struct TarOpts {
    mode: Option<char>,
    file: Option<String>,
    gzip: bool,
    directory: Option<String>,
    verbose: u8,
    to_stdout: bool,
    strip: usize,
    exclude: Vec<String>,
}

fn tar_usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.stderr.write_str(&format!("tar: {message}\nTry 'tar --help' or 'tar --usage' for more information.\n"))?;
    Ok(2)
}

fn tar(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    // The old form: a first word without a dash is a bundle of letters,
    // whose valued letters take the next words in order (`tar czf out d`).
    let mut args: Vec<String> = args.to_vec();
    if let Some(first) = args.first().cloned() {
        if !first.starts_with('-') && !first.is_empty() {
            let mut expanded = Vec::new();
            let mut rest: Vec<String> = args[1..].to_vec();
            for letter in first.chars() {
                expanded.push(format!("-{letter}"));
                if matches!(letter, 'f' | 'C') && !rest.is_empty() {
                    expanded.push(rest.remove(0));
                }
            }
            expanded.extend(rest);
            args = expanded;
        }
    }
    let spec = Spec {
        short: "cxtf:zC:vOjJaph",
        long: &[
            ("create", "c", HasArg::No),
            ("extract", "x", HasArg::No),
            ("get", "x", HasArg::No),
            ("list", "t", HasArg::No),
            ("file", "f", HasArg::Yes),
            ("gzip", "z", HasArg::No),
            ("gunzip", "z", HasArg::No),
            ("directory", "C", HasArg::Yes),
            ("verbose", "v", HasArg::No),
            ("to-stdout", "O", HasArg::No),
            ("strip-components", "strip-components", HasArg::Yes),
            ("exclude", "exclude", HasArg::Yes),
            ("bzip2", "j", HasArg::No),
            ("xz", "J", HasArg::No),
            ("auto-compress", "a", HasArg::No),
            ("preserve-permissions", "p", HasArg::No),
            ("dereference", "h", HasArg::No),
            ("no-same-owner", "no-same-owner", HasArg::No),
            ("overwrite", "overwrite", HasArg::No),
        ],
    };
    let parsed = match parse(&spec, &args) {
        Ok(parsed) => parsed,
        Err(message) => return tar_usage(ctx, &message),
    };
    let mut opts = TarOpts::default();
    let mut members = Vec::new();
    let mut auto = false;
    for arg in parsed {
        match arg {
            Arg::Opt(key @ ("c" | "x" | "t"), _) => {
                let letter = key.chars().next().unwrap_or('t');
                if opts.mode.is_some_and(|m| m != letter) {
                    return tar_usage(
                        ctx,
                        "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option",
                    );
                }
                opts.mode = Some(letter);
            }
            Arg::Opt("f", value) => opts.file = value,
            Arg::Opt("z", _) => opts.gzip = true,
            Arg::Opt("a", _) => auto = true,
            Arg::Opt("C", value) => opts.directory = value,
            Arg::Opt("v", _) => opts.verbose += 1,
            Arg::Opt("O", _) => opts.to_stdout = true,
            Arg::Opt("strip-components", Some(value)) => match value.parse() {
                Ok(n) => opts.strip = n,
                Err(_) => return tar_usage(ctx, &format!("Invalid number of elements: {}", quote(&value))),
            },
            Arg::Opt("exclude", Some(value)) => opts.exclude.push(value),
            Arg::Opt("j" | "J", _) => {
                ctx.stderr.write_str("tar: only gzip compression (-z) is available here\n")?;
                return Ok(2);
            }
            Arg::Opt(..) => {}
            Arg::Operand(member) => members.push(member),
        }
    }
    if auto && opts.file.as_deref().is_some_and(|f| f.ends_with(".gz") || f.ends_with(".tgz")) {
        opts.gzip = true;
    }
    match opts.mode {
        None => tar_usage(ctx, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options"),
        Some('c') => tar_create(ctx, &opts, &members),
        Some(mode) => tar_read(ctx, &opts, &members, mode == 'x'),
    }
}

/// The archive file name, or `-` for stdin/stdout.
fn archive_name(opts: &TarOpts) -> String {
    opts.file.clone().unwrap_or_else(|| "-".to_string())
}

/// A path under `-C DIR` as the storage sees it.
fn under(ctx: &Context<'_>, opts: &TarOpts, name: &str) -> String {
    match &opts.directory {
        Some(dir) => ctx.path(&join(dir, name)),
        None => ctx.path(name),
    }
}

fn excluded(opts: &TarOpts, name: &str) -> bool {
    let trimmed = name.trim_end_matches('/');
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    opts.exclude.iter().any(|pattern| {
        let pattern = Pattern::new(pattern);
        pattern.matches(trimmed) || pattern.matches(base)
    })
}

fn tar_create(ctx: &mut Context<'_>, opts: &TarOpts, members: &[String]) -> Result<i32, LimitHit> {
    if members.is_empty() {
        ctx.stderr.write_str("tar: Cowardly refusing to create an empty archive\n")?;
        ctx.stderr.write_str("Try 'tar --help' or 'tar --usage' for more information.\n")?;
        return Ok(2);
    }
    if let Some(dir) = &opts.directory {
        if !ctx.stat(dir).is_ok_and(|m| m.kind == FileKind::Directory) {
            ctx.stderr.write_str(&format!("tar: {dir}: Cannot open: No such file or directory\n"))?;
            ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
            return Ok(2);
        }
    }
    let mut builder = tar::Builder::new(Vec::new());
    let mut failed = false;
    let mut warned_slash = false;
    let mut listing = String::new();
    for member in members {
        let mut name = member.clone();
        if name.starts_with('/') {
            if !warned_slash {
                ctx.stderr.write_str("tar: Removing leading `/' from member names\n")?;
                warned_slash = true;
            }
            name = name.trim_start_matches('/').to_string();
        }
        failed |= !add_member(ctx, opts, &mut builder, member, &name, &mut listing)?;
    }
    let Ok(mut data) = builder.into_inner() else {
        ctx.stderr.write_str("tar: cannot finish the archive\n")?;
        return Ok(2);
    };
    // GNU tar writes whole records of 20 blocks (10240 bytes), zeros after
    // the end-of-archive blocks (`ls -l x.tar` shows 10240 for a small one).
    data.resize(data.len().next_multiple_of(10240), 0);
    if opts.gzip {
        data = compress(&data, 6, None, 0);
    }
    let target = archive_name(opts);
    // With `-f -` the listing goes to stderr, as GNU's does.
    if target == "-" {
        ctx.stderr.write_str(&listing)?;
        ctx.stdout.write(&data)?;
    } else {
        ctx.stdout.write_str(&listing)?;
        if let Err(error) = ctx.storage.write(&ctx.path(&target), &data) {
            ctx.stderr.write_str(&format!("tar: {target}: Cannot open: {}\n", error_reason(&error)))?;
            ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
            return Ok(2);
        }
    }
    if failed {
        ctx.stderr.write_str("tar: Exiting with failure status due to previous errors\n")?;
        return Ok(2);
    }
    Ok(0)
}

/// Adds `user_path` (and, for a directory, everything under it) as `name`.
fn add_member(
    ctx: &mut Context<'_>,
    opts: &TarOpts,
    builder: &mut tar::Builder<Vec<u8>>,
    user_path: &str,
    name: &str,
    listing: &mut String,
) -> Result<bool, LimitHit> {
    (ctx.check)()?;
    if excluded(opts, name) {
        return Ok(true);
    }
    let absolute = under(ctx, opts, user_path);
    let meta = match ctx.storage.lstat(&absolute) {
        Ok(meta) => meta,
        Err(error) => {
            ctx.stderr.write_str(&format!("tar: {user_path}: Cannot stat: {}\n", error_reason(&error)))?;
            return Ok(false);
        }
    };
    let mut header = tar::Header::new_gnu();
    header.set_mode(meta.mode & 0o7777);
    header.set_mtime(epoch_seconds(meta.modified).max(0) as u64);
    header.set_uid(1000);
    header.set_gid(1000);
    let _ = header.set_username("user");
    let _ = header.set_groupname("user");
    let shown = match meta.kind {
        FileKind::Directory => format!("{}/", name.trim_end_matches('/')),
        _ => name.to_string(),
    };
    if opts.verbose > 0 {
        listing.push_str(&verbose_line(opts.verbose, &meta, &shown, None));
    }
    let result = match meta.kind {
        FileKind::File => {
            let data = match ctx.storage.read(&absolute) {
                Ok(data) => data,
                Err(error) => {
                    ctx.stderr.write_str(&format!("tar: {user_path}: Cannot open: {}\n", error_reason(&error)))?;
                    return Ok(false);
                }
            };
            header.set_entry_type(tar::EntryType::Regular);
            header.set_size(data.len() as u64);
            builder.append_data(&mut header, &shown, &data[..])
        }
        FileKind::Symlink => {
            let target = ctx.storage.readlink(&absolute).unwrap_or_default();
            header.set_entry_type(tar::EntryType::Symlink);
            header.set_size(0);
            builder.append_link(&mut header, &shown, &target)
        }
        FileKind::Directory => {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_size(0);
            builder.append_data(&mut header, &shown, std::io::empty())
        }
    };
    if let Err(error) = result {
        ctx.stderr.write_str(&format!("tar: {user_path}: {error}\n"))?;
        return Ok(false);
    }
    let mut ok = true;
    if meta.kind == FileKind::Directory {
        let entries = match ctx.storage.list(&absolute) {
            Ok(entries) => entries,
            Err(error) => {
                ctx.stderr.write_str(&format!("tar: {user_path}: Cannot open: {}\n", error_reason(&error)))?;
                return Ok(false);
            }
        };
        let base = user_path.trim_end_matches('/');
        let base_name = name.trim_end_matches('/');
        for entry in entries {
            let child = format!("{base}/{}", entry.name);
            let child_name =
                if base_name.is_empty() { entry.name.clone() } else { format!("{base_name}/{}", entry.name) };
            ok &= add_member(ctx, opts, builder, &child, &child_name, listing)?;
        }
    }
    Ok(ok)
}

/// `-v` prints the name; `-vv` (and `t` with `-v`) the long form:
/// `-rw-r--r-- user/user        6 2026-12-03 10:11 name`.
fn verbose_line(level: u8, meta: &crate::storage::Metadata, name: &str, link: Option<&str>) -> String {
    if level < 2 {
        return format!("{name}\n");
    }
    long_line(meta.kind, meta.mode, "user/user", meta.size, epoch_seconds(meta.modified), name, link)
}

fn long_line(kind: FileKind, mode: u32, owner: &str, size: u64, mtime: i64, name: &str, link: Option<&str>) -> String {
    let meta = crate::storage::Metadata { kind, size, mode, modified: std::time::UNIX_EPOCH };
    let modes = super::files::mode_string_of(&meta);
    let size = if kind == FileKind::File { size } else { 0 };
    let size_text = size.to_string();
    let pad = owner.len() + size_text.len();
    let width = 19usize.saturating_sub(pad) + size_text.len();
    let (year, month, day, hour, minute, _) = civil(mtime);
    let mut line =
        format!("{modes} {owner} {size_text:>width$} {year}-{month:02}-{day:02} {hour:02}:{minute:02} {name}");
    if let Some(link) = link {
        line.push_str(&format!(" -> {link}"));
    }
    line.push('\n');
    line
}

fn tar_read(ctx: &mut Context<'_>, opts: &TarOpts, members: &[String], extract: bool) -> Result<i32, LimitHit> {
    let source = archive_name(opts);
    let mut data = match ctx.read(&source) {
        Ok(data) => data,
        Err(error) => {
            ctx.stderr.write_str(&format!("tar: {source}: Cannot open: {}\n", error_reason(&error)))?;
            ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
            return Ok(2);
        }
    };
    let gzipped = data.len() >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if opts.gzip && !gzipped {
        ctx.stderr.write_str("\ngzip: stdin: not in gzip format\ntar: Child returned status 1\n")?;
        ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
        return Ok(2);
    }
    // GNU tar recognises a compressed archive when reading, -z or not.
    if gzipped {
        data = match decompress(&data, ctx.check)? {
            Ok(plain) => plain,
            Err(message) => {
                ctx.stderr.write_str(&format!("\ngzip: stdin: {message}\ntar: Child returned status 1\n"))?;
                ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
                return Ok(2);
            }
        };
    }
    if extract {
        if let Some(dir) = &opts.directory {
            if !ctx.stat(dir).is_ok_and(|m| m.kind == FileKind::Directory) {
                ctx.stderr.write_str(&format!("tar: {dir}: Cannot open: No such file or directory\n"))?;
                ctx.stderr.write_str("tar: Error is not recoverable: exiting now\n")?;
                return Ok(2);
            }
        }
    }
    let mut archive = tar::Archive::new(&data[..]);
    let entries = match archive.entries() {
        Ok(entries) => entries,
        Err(_) => return not_a_tar(ctx, data.len() >= 512),
    };
    let mut seen = vec![false; members.len()];
    let mut failed = false;
    let mut out = String::new();
    for (count, entry) in entries.enumerate() {
        (ctx.check)()?;
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(_) if count == 0 => return not_a_tar(ctx, data.len() >= 512),
            Err(error) => {
                ctx.stderr.write_str(&format!("tar: {error}\n"))?;
                failed = true;
                break;
            }
        };
        let name = match entry.path() {
            Ok(path) => path.to_string_lossy().into_owned(),
            Err(_) => continue,
        };
        let header = entry.header();
        let kind = header.entry_type();
        let mode = header.mode().unwrap_or(0o644);
        let size = header.size().unwrap_or(0);
        let mtime = header.mtime().unwrap_or(0) as i64;
        let owner = format!(
            "{}/{}",
            header.username().ok().flatten().unwrap_or("user"),
            header.groupname().ok().flatten().unwrap_or("user")
        );
        let link = entry.link_name().ok().flatten().map(|l| l.to_string_lossy().into_owned());
        // Operands select members: the name itself or a directory above it.
        if !members.is_empty() {
            let trimmed = name.trim_end_matches('/');
            let hit = members.iter().position(|m| {
                let m = m.trim_end_matches('/');
                trimmed == m || trimmed.starts_with(&format!("{m}/"))
            });
            match hit {
                Some(i) => seen[i] = true,
                None => continue,
            }
        }
        if excluded(opts, &name) {
            continue;
        }
        let file_kind = if kind.is_dir() {
            FileKind::Directory
        } else if kind.is_symlink() {
            FileKind::Symlink
        } else {
            FileKind::File
        };
        if opts.verbose > 0 || !extract {
            let line = if (opts.verbose > 0 && !extract) || opts.verbose > 1 {
                long_line(file_kind, mode, &owner, size, mtime, &name, link.as_deref())
            } else {
                format!("{name}\n")
            };
            out.push_str(&line);
        }
        if !extract {
            continue;
        }
        // Members that would climb out of the target are skipped, as GNU's.
        let stripped: Vec<&str> = name.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if stripped.contains(&"..") {
            ctx.stderr.write_str(&format!("tar: {name}: Member name contains '..'\n"))?;
            failed = true;
            continue;
        }
        if stripped.len() <= opts.strip {
            continue;
        }
        let relative = stripped[opts.strip..].join("/");
        if opts.to_stdout {
            if file_kind == FileKind::File {
                let mut content = Vec::new();
                if entry.read_to_end(&mut content).is_err() {
                    failed = true;
                    continue;
                }
                ctx.stdout.write_str(&out)?;
                out.clear();
                ctx.stdout.write(&content)?;
            }
            continue;
        }
        let target = under(ctx, opts, &relative);
        let result: Result<(), StorageError> = match file_kind {
            FileKind::Directory => {
                ctx.storage.mkdir(&target, true).and_then(|()| ctx.storage.set_mode(&target, mode).or(Ok(())))
            }
            FileKind::Symlink => {
                let _ = ctx.storage.remove(&target, false);
                make_parent(ctx, &target).and_then(|()| ctx.storage.symlink(link.as_deref().unwrap_or(""), &target))
            }
            FileKind::File => {
                if kind == tar::EntryType::Link {
                    ctx.stderr.write_str(&format!("tar: {name}: hard links are not supported here\n"))?;
                    failed = true;
                    continue;
                }
                let mut content = Vec::new();
                if entry.read_to_end(&mut content).is_err() {
                    ctx.stderr.write_str("tar: Unexpected EOF in archive\n")?;
                    failed = true;
                    break;
                }
                make_parent(ctx, &target)
                    .and_then(|()| ctx.storage.write(&target, &content))
                    .and_then(|()| ctx.storage.set_mode(&target, mode).or(Ok(())))
            }
        };
        if let Err(error) = result {
            ctx.stderr.write_str(&format!("tar: {relative}: Cannot open: {}\n", error_reason(&error)))?;
            failed = true;
        }
    }
    ctx.stdout.write_str(&out)?;
    for (member, found) in members.iter().zip(&seen) {
        if !found {
            ctx.stderr.write_str(&format!("tar: {member}: Not found in archive\n"))?;
            failed = true;
        }
    }
    if failed {
        ctx.stderr.write_str("tar: Exiting with failure status due to previous errors\n")?;
        return Ok(2);
    }
    Ok(0)
}

fn make_parent(ctx: &Context<'_>, target: &str) -> Result<(), StorageError> {
    match target.rfind('/') {
        Some(0) | None => Ok(()),
        Some(at) => ctx.storage.mkdir(&target[..at], true),
    }
}

fn not_a_tar(ctx: &mut Context<'_>, whole_block: bool) -> Result<i32, LimitHit> {
    ctx.stderr.write_str("tar: This does not look like a tar archive\n")?;
    if whole_block {
        ctx.stderr.write_str("tar: Skipping to next header\n")?;
    }
    ctx.stderr.write_str("tar: Exiting with failure status due to previous errors\n")?;
    Ok(2)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    #[test]
    fn gzip_round_trips_and_reports_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/a", b"hello\n").unwrap();
        assert_eq!(run_for_test(&storage, "gzip", &["a"], "").0, 0);
        assert!(storage.stat("/a").is_err());
        assert_eq!(&storage.read("/a.gz").unwrap()[..2], b"\x1f\x8b");
        assert_eq!(run_for_test(&storage, "zcat", &["a.gz"], "").1, "hello\n");
        assert_eq!(run_for_test(&storage, "gunzip", &["a.gz"], "").0, 0);
        assert_eq!(storage.read("/a").unwrap(), b"hello\n");
        run_for_test(&storage, "gzip", &["-k", "a"], "");
        let (status, _, err) = run_for_test(&storage, "gzip", &["a"], "");
        assert_eq!((status, err.as_str()), (2, "gzip: a.gz already exists;\tnot overwritten\n"));
        let (status, _, err) = run_for_test(&storage, "gzip", &["a.gz"], "");
        assert_eq!((status, err.as_str()), (2, "gzip: a.gz already has .gz suffix -- unchanged\n"));
        storage.write("/j.gz", b"junk\n").unwrap();
        let (status, _, err) = run_for_test(&storage, "gunzip", &["j.gz"], "");
        assert_eq!((status, err.as_str()), (1, "\ngzip: j.gz: not in gzip format\n"));
        let (status, _, err) = run_for_test(&storage, "gunzip", &["a"], "");
        assert_eq!((status, err.as_str()), (2, "gzip: a: unknown suffix -- ignored\n"));
        assert_eq!(run_for_test(&storage, "gzip", &["-t", "a.gz"], "").0, 0);
    }

    #[test]
    fn tar_creates_lists_and_extracts_over_the_storage() {
        let storage = MemoryStorage::new(Default::default());
        storage.mkdir("/d/s", true).unwrap();
        storage.write("/d/a", b"a\n").unwrap();
        storage.write("/d/s/b", b"b\n").unwrap();
        storage.symlink("a", "/d/l").unwrap();
        let (status, out, _) = run_for_test(&storage, "tar", &["-czvf", "t.tgz", "d"], "");
        assert_eq!((status, out.as_str()), (0, "d/\nd/a\nd/l\nd/s/\nd/s/b\n"));
        let (_, out, _) = run_for_test(&storage, "tar", &["tzf", "t.tgz"], "");
        assert_eq!(out, "d/\nd/a\nd/l\nd/s/\nd/s/b\n");
        storage.mkdir("/out", false).unwrap();
        assert_eq!(run_for_test(&storage, "tar", &["-xzf", "t.tgz", "-C", "out"], "").0, 0);
        assert_eq!(storage.read("/out/d/s/b").unwrap(), b"b\n");
        assert_eq!(storage.readlink("/out/d/l").unwrap(), "a");
        let (_, out, _) = run_for_test(&storage, "tar", &["-xzf", "t.tgz", "-O", "d/a"], "");
        assert_eq!(out, "a\n");
        run_for_test(&storage, "tar", &["xzf", "t.tgz", "--strip-components=1", "-C", "out"], "");
        assert_eq!(storage.read("/out/s/b").unwrap(), b"b\n");
        let (status, _, err) = run_for_test(&storage, "tar", &["-tzf", "t.tgz", "zz"], "");
        assert_eq!(status, 2);
        assert_eq!(err, "tar: zz: Not found in archive\ntar: Exiting with failure status due to previous errors\n");
        storage.write("/bad.tar", b"junk\n").unwrap();
        let (status, _, err) = run_for_test(&storage, "tar", &["-tf", "bad.tar"], "");
        assert_eq!(status, 2);
        assert!(err.starts_with("tar: This does not look like a tar archive\n"));
        let (status, _, _) = run_for_test(&storage, "tar", &["-cf", "x.tar", "nofile"], "");
        assert_eq!(status, 2);
        let (status, _, err) = run_for_test(&storage, "tar", &["-xf", "nope.tar"], "");
        assert_eq!(status, 2);
        assert!(err.starts_with("tar: nope.tar: Cannot open: No such file or directory\n"));
    }
}
