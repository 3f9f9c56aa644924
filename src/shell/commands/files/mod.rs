//! File and misc commands over the storage: `cat`, `ls`, `mkdir`, `rm`,
//! `rmdir`, `cp`, `mv`, `touch`, `ln`, `readlink`, `realpath`, `basename`,
//! `dirname`, `tee`, `seq`, `xargs`, `find`, `du`, `stat`, `mktemp`.
//!
//! They follow GNU coreutils and findutils in the C locale. Differences on
//! purpose, common to the group:
//! - There are no users or groups: `ls -l` and `stat` show the owner and
//!   group `user user`.
//! - The storage cannot set times: `touch` on an existing file leaves it as
//!   it is, and `cp -p`/`-a` keep no times.
//! - Directories count as 4096 bytes (one block) in `ls -l`, `du` and `stat`,
//!   as on a typical Linux file system; files use 4 KiB blocks.
//! - Hard links do not exist: `ln` without `-s` fails.

use crate::shell::command::{error_reason, CommandFn, Context};
use crate::shell::LimitHit;
use crate::storage::{FileKind, Metadata, StorageError};

use super::calendar::{civil, epoch_seconds, MONTH_NAMES};

mod basic;
mod chmod;
mod copy;
mod find;
mod ls;
mod seq;
mod split;
mod xargs;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("basename", basic::basename),
    ("cat", basic::cat),
    ("cp", copy::cp),
    ("dirname", basic::dirname),
    ("du", ls::du),
    ("find", find::find),
    ("ln", basic::ln),
    ("ls", ls::ls),
    ("mkdir", basic::mkdir),
    ("mktemp", basic::mktemp),
    ("mv", copy::mv),
    ("readlink", basic::readlink),
    ("realpath", basic::realpath),
    ("rm", basic::rm),
    ("rmdir", basic::rmdir),
    ("seq", seq::seq),
    ("stat", ls::stat),
    ("tee", basic::tee),
    ("touch", basic::touch),
    ("xargs", xargs::xargs),
    ("truncate", split::truncate),
    ("split", split::split),
    ("chmod", chmod::chmod),
];

pub(super) use super::options::{HasArg, Parsed, Spec};

/// Writes GNU's `Try 'name --help'` line after a usage error.
pub(super) fn usage_error(ctx: &mut Context<'_>, message: impl std::fmt::Display) -> Result<(), LimitHit> {
    ctx.error(message)?;
    let line = format!("Try '{} --help' for more information.\n", ctx.name);
    ctx.stderr.write_str(&line)
}

/// Parses `args` as GNU getopt_long does (`commands/options.rs`); on a bad
/// option writes GNU's message and the `Try` line and returns `None`.
pub(super) fn parse(ctx: &mut Context<'_>, args: &[String], spec: &Spec) -> Result<Option<Parsed>, LimitHit> {
    super::options::parse_or_usage(ctx, spec, args)
}

/// A name quoted as GNU tools quote names in messages: `'name'`, or
/// `"it's"` when it holds a single quote.
pub(super) fn quote(name: &str) -> String {
    if !name.contains('\'') {
        format!("'{name}'")
    } else if !name.contains(['"', '$', '`', '\\']) {
        format!("\"{name}\"")
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}

/// `name: what 'path': reason` for a storage error.
pub(super) fn fail(ctx: &mut Context<'_>, what: &str, user_path: &str, error: &StorageError) -> Result<(), LimitHit> {
    ctx.error(format_args!("{what} {}: {}", quote(user_path), error_reason(error)))
}

/// The metadata of a path, a final symlink not followed; `None` if absent.
pub(super) fn lstat(ctx: &Context<'_>, absolute: &str) -> Option<Metadata> {
    ctx.storage.lstat(absolute).ok()
}

/// Whether the path (symlinks followed) is a directory.
pub(super) fn is_dir(ctx: &Context<'_>, absolute: &str) -> bool {
    matches!(ctx.storage.stat(absolute), Ok(meta) if meta.kind == FileKind::Directory)
}

/// Joins a path as the user wrote it with an entry name: `d` + `x` →
/// `d/x`, `d/` + `x` → `d/x`.
pub(in crate::shell::commands) fn child(user_path: &str, name: &str) -> String {
    if user_path.ends_with('/') {
        format!("{user_path}{name}")
    } else {
        format!("{user_path}/{name}")
    }
}

/// The last component of a path as `basename` sees it: `a/b/` → `b`, `/` → `/`.
pub(in crate::shell::commands) fn base_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" };
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Disk usage in KiB as a 4 KiB-block file system counts it.
pub(super) fn blocks_kib(meta: &Metadata) -> u64 {
    match meta.kind {
        FileKind::Directory => 4,
        FileKind::Symlink => 0,
        FileKind::File => meta.size.div_ceil(4096) * 4,
    }
}

/// The size `ls -l` shows: a directory counts as one 4096-byte block.
pub(super) fn shown_size(meta: &Metadata) -> u64 {
    if meta.kind == FileKind::Directory {
        4096
    } else {
        meta.size
    }
}

/// A size as `-h` shows it: `512`, `1.5K`, `12M` (rounded up, powers of 1024).
pub(super) fn human(bytes: u64) -> String {
    const UNITS: [&str; 8] = ["K", "M", "G", "T", "P", "E", "Z", "Y"];
    if bytes < 1024 {
        return bytes.to_string();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    value /= 1024.0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value < 10.0 {
        let tenths = (value * 10.0).ceil() / 10.0;
        if tenths >= 10.0 {
            return format!("10{}", UNITS[unit]);
        }
        format!("{tenths:.1}{}", UNITS[unit])
    } else {
        let whole = value.ceil();
        if whole >= 1024.0 && unit + 1 < UNITS.len() {
            return format!("1.0{}", UNITS[unit + 1]);
        }
        format!("{whole:.0}{}", UNITS[unit])
    }
}

/// `drwxr-sr-x`: the kind and the permission bits, with `s S t T`, as
/// `ls -l`, `stat` and `tar -tv` show them.
pub(in crate::shell::commands) fn mode_string_of(meta: &Metadata) -> String {
    let kind = match meta.kind {
        FileKind::Directory => 'd',
        FileKind::Symlink => 'l',
        FileKind::File => '-',
    };
    format!("{kind}{}", chmod::symbolic(meta.mode))
}

/// How a path is canonicalised (`readlink -f/-e/-m`, `realpath`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Canon {
    /// Every component must exist.
    Existing,
    /// Every component but the last must exist.
    AllButLast,
    /// No component needs to exist.
    Missing,
}

/// The absolute path with every symlink resolved, `.` and `..` applied
/// after resolving (as the kernel does).
pub(super) fn canonicalize(ctx: &Context<'_>, user_path: &str, mode: Canon) -> Result<String, StorageError> {
    let start = if user_path.starts_with('/') { String::new() } else { ctx.cwd.to_string() };
    let mut pending: Vec<String> =
        user_path.split('/').filter(|part| !part.is_empty()).rev().map(str::to_owned).collect();
    let mut parts: Vec<String> = start.split('/').filter(|part| !part.is_empty()).map(str::to_owned).collect();
    let mut hops = 0;
    let as_path = |parts: &[String]| {
        if parts.is_empty() {
            "/".to_string()
        } else {
            parts.iter().fold(String::new(), |acc, part| acc + "/" + part)
        }
    };
    while let Some(part) = pending.pop() {
        match part.as_str() {
            "." => continue,
            ".." => {
                parts.pop();
                continue;
            }
            _ => {}
        }
        parts.push(part);
        let here = as_path(&parts);
        let is_last = pending.is_empty();
        match ctx.storage.lstat(&here) {
            Ok(meta) if meta.kind == FileKind::Symlink => {
                hops += 1;
                if hops > 40 {
                    return Err(StorageError::SymlinkLoop(here));
                }
                let target = ctx.storage.readlink(&here)?;
                parts.pop();
                if target.starts_with('/') {
                    parts.clear();
                }
                pending.extend(target.split('/').filter(|part| !part.is_empty()).rev().map(str::to_owned));
            }
            Ok(meta) if meta.kind == FileKind::File && !is_last && mode != Canon::Missing => {
                return Err(StorageError::NotADirectory(here));
            }
            Ok(_) => {}
            Err(error) => match mode {
                Canon::Missing => {}
                Canon::AllButLast if is_last => {}
                _ => return Err(error),
            },
        }
    }
    Ok(as_path(&parts))
}

/// Calls `ctx.check` every 256 steps of a loop.
pub(super) fn tick(ctx: &Context<'_>, step: &mut u32) -> Result<(), LimitHit> {
    *step = step.wrapping_add(1);
    if step.is_multiple_of(256) {
        (ctx.check)()?;
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod test_support {
    use crate::storage::{MemoryStorage, Storage};

    /// A storage holding `files` (path, content; a path ending in `/` is a
    /// directory), parents made as needed.
    pub fn storage(files: &[(&str, &str)]) -> MemoryStorage {
        let storage = MemoryStorage::default();
        for (path, content) in files {
            if let Some(dir) = path.strip_suffix('/') {
                storage.mkdir(dir, true).unwrap();
            } else {
                if let Some((parent, _)) = crate::storage::parent(path) {
                    storage.mkdir(parent, true).unwrap();
                }
                storage.write(path, content.as_bytes()).unwrap();
            }
        }
        storage
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names_print_as_gnu_does() {
        assert_eq!(human(512), "512");
        assert_eq!(human(1024), "1.0K");
        assert_eq!(human(1025), "1.1K");
        assert_eq!(human(4096), "4.0K");
        assert_eq!(human(10 * 1024 + 1), "11K");
        assert_eq!(human(1024 * 1024 - 1), "1.0M");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "\"it's\"");
        assert_eq!(base_name("a/b/"), "b");
        assert_eq!(base_name("///"), "/");
    }
}
