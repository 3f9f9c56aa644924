//! `cp` and `mv`.
//!
//! `cp -p`/`-a` keep no times (the storage cannot set them); `-i` is
//! accepted and ignored (there is no one to ask). Recursive copies visit
//! entries in name order.

use super::{base_name, canonicalize, child, fail, is_dir, parse, quote, usage_error, Canon, HasArg, Parsed, Spec};
use crate::shell::command::{directories_before_slashes, error_reason, has_trailing_slash, Context};
use crate::shell::LimitHit;
use crate::storage::{parent, FileKind, StorageError};

/// The (source, destination) pairs of a `cp`/`mv` command line, or the
/// status of a usage error already reported.
fn plan(ctx: &mut Context<'_>, parsed: &Parsed) -> Result<Result<Vec<(String, String)>, i32>, LimitHit> {
    let operands = &parsed.operands;
    if let Some(dir) = parsed.value("t") {
        if operands.is_empty() {
            usage_error(ctx, "missing file operand")?;
            return Ok(Err(1));
        }
        if !is_dir(ctx, &ctx.path(dir)) {
            ctx.error(format_args!("target directory {}: Not a directory", quote(dir)))?;
            return Ok(Err(1));
        }
        return Ok(Ok(operands.iter().map(|source| (source.clone(), child(dir, base_name(source)))).collect()));
    }
    match operands.len() {
        0 => {
            usage_error(ctx, "missing file operand")?;
            return Ok(Err(1));
        }
        1 => {
            usage_error(ctx, format_args!("missing destination file operand after {}", quote(&operands[0])))?;
            return Ok(Err(1));
        }
        _ => {}
    }
    let (target, sources) = operands.split_last().unwrap_or((&operands[0], &[]));
    if parsed.has("T") {
        if sources.len() > 1 {
            usage_error(ctx, format_args!("extra operand {}", quote(target)))?;
            return Ok(Err(1));
        }
        return Ok(Ok(vec![(sources[0].clone(), target.clone())]));
    }
    let absolute = ctx.path(target);
    if is_dir(ctx, &absolute) {
        return Ok(Ok(sources.iter().map(|source| (source.clone(), child(target, base_name(source)))).collect()));
    }
    if sources.len() > 1 {
        match ctx.storage.stat(&absolute) {
            Ok(_) => ctx.error(format_args!("target {}: Not a directory", quote(target)))?,
            Err(error) => ctx.error(format_args!("target {}: {}", quote(target), error_reason(&error)))?,
        }
        return Ok(Err(1));
    }
    Ok(Ok(vec![(sources[0].clone(), target.clone())]))
}

struct CopyOptions {
    recursive: bool,
    no_clobber: bool,
    verbose: bool,
    /// Copy symlinks as symlinks (`-r`, `-a`, `-P`, `-d`), not their targets.
    keep_links: bool,
}

/// `cp [-aRrnfvpPLdT] [-t DIR] SOURCE… DEST`.
pub(super) fn cp(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "aRrnfvpPLdTiuHxbt:",
        long: &[
            ("archive", "a", HasArg::No),
            ("recursive", "r", HasArg::No),
            ("no-clobber", "n", HasArg::No),
            ("force", "f", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("no-dereference", "P", HasArg::No),
            ("dereference", "L", HasArg::No),
            ("no-target-directory", "T", HasArg::No),
            ("target-directory", "t", HasArg::Yes),
            ("interactive", "i", HasArg::No),
            ("update", "u", HasArg::No),
            ("preserve", "p", HasArg::No),
        ],
    };
    let args: Vec<String> =
        args.iter().map(|arg| if arg.starts_with("--preserve=") { "-p".to_string() } else { arg.clone() }).collect();
    let Some(parsed) = parse(ctx, &args, &SPEC)? else { return Ok(1) };
    let recursive = parsed.has("r") || parsed.has("R") || parsed.has("a");
    let options = CopyOptions {
        recursive,
        no_clobber: parsed.has("n"),
        verbose: parsed.has("v"),
        keep_links: !parsed.has("L") && (recursive || parsed.has("P") || parsed.has("d")),
    };
    let pairs = match plan(ctx, &parsed)? {
        Ok(pairs) => pairs,
        Err(status) => return Ok(status),
    };
    let mut status = 0;
    for (source, destination) in pairs {
        if !copy_top(ctx, &source, &destination, &options)? {
            status = 1;
        }
    }
    Ok(status)
}

/// Copies one operand, with cp's checks; false when it failed.
fn copy_top(ctx: &mut Context<'_>, source: &str, destination: &str, options: &CopyOptions) -> Result<bool, LimitHit> {
    let source_abs = ctx.path(source);
    let meta = if options.keep_links { ctx.lstat(source) } else { ctx.stat(source) };
    let meta = match meta {
        Ok(meta) => meta,
        Err(error) => {
            fail(ctx, "cannot stat", source, &error)?;
            return Ok(false);
        }
    };
    if meta.kind == FileKind::Directory {
        if !options.recursive {
            ctx.error(format_args!("-r not specified; omitting directory {}", quote(source)))?;
            return Ok(false);
        }
        let real_source = canonicalize(ctx, source, Canon::Missing).unwrap_or(source_abs.clone());
        let real_destination = canonicalize(ctx, destination, Canon::Missing).unwrap_or_default();
        if real_destination == real_source || real_destination.starts_with(&format!("{real_source}/")) {
            ctx.error(format_args!("cannot copy a directory, {}, into itself, {}", quote(source), quote(destination)))?;
            return Ok(false);
        }
    } else if let Err(error) = directories_before_slashes(ctx.storage, ctx.cwd, destination) {
        // `cp f f/`: the destination cannot be looked up at all.
        fail(ctx, "cannot stat", destination, &error)?;
        return Ok(false);
    } else if let (Ok(a), Ok(b)) =
        (canonicalize(ctx, source, Canon::Existing), canonicalize(ctx, destination, Canon::Existing))
    {
        if a == b {
            ctx.error(format_args!("{} and {} are the same file", quote(source), quote(destination)))?;
            return Ok(false);
        }
    }
    // The real directories being copied, and the copy itself: a symlink
    // followed (`-L`) back into either would copy forever.
    let mut ancestors = vec![canonicalize(ctx, destination, Canon::Missing).unwrap_or_default()];
    copy_tree(ctx, source, &source_abs, destination, options, &mut ancestors)
}

/// Copies a file, symlink or (recursively) directory; false when something failed.
fn copy_tree(
    ctx: &mut Context<'_>,
    source: &str,
    source_abs: &str,
    destination: &str,
    options: &CopyOptions,
    ancestors: &mut Vec<String>,
) -> Result<bool, LimitHit> {
    (ctx.check)()?;
    let destination_abs = ctx.path(destination);
    let meta = if options.keep_links { ctx.storage.lstat(source_abs) } else { ctx.storage.stat(source_abs) };
    let meta = match meta {
        Ok(meta) => meta,
        Err(error) => {
            fail(ctx, "cannot stat", source, &error)?;
            return Ok(false);
        }
    };
    let existing = match ctx.stat(destination) {
        Ok(existing) => Some(existing),
        Err(StorageError::NotFound(_)) => ctx.storage.lstat(&destination_abs).ok(),
        Err(error) => {
            fail(ctx, "cannot stat", destination, &error)?;
            return Ok(false);
        }
    };
    let verbose = |ctx: &mut Context<'_>| -> Result<(), LimitHit> {
        if options.verbose {
            ctx.stdout.write_str(&format!("{} -> {}\n", quote(source), quote(destination)))?;
        }
        Ok(())
    };
    match meta.kind {
        FileKind::Directory => {
            match existing {
                Some(existing) if existing.kind != FileKind::Directory => {
                    ctx.error(format_args!(
                        "cannot overwrite non-directory {} with directory {}",
                        quote(destination),
                        quote(source)
                    ))?;
                    return Ok(false);
                }
                Some(_) => {}
                None => {
                    if let Err(error) = ctx.storage.mkdir(&destination_abs, false) {
                        fail(ctx, "cannot create directory", destination, &error)?;
                        return Ok(false);
                    }
                    verbose(ctx)?;
                }
            }
            let real = canonicalize(ctx, source, Canon::Missing).unwrap_or_default();
            if ancestors.contains(&real) {
                ctx.error(format_args!("{}: directory causes a cycle", quote(source)))?;
                return Ok(false);
            }
            let entries = match ctx.storage.list(source_abs) {
                Ok(entries) => entries,
                Err(error) => {
                    fail(ctx, "cannot access", source, &error)?;
                    return Ok(false);
                }
            };
            let mut ok = true;
            ancestors.push(real);
            for entry in entries {
                ok &= copy_tree(
                    ctx,
                    &child(source, &entry.name),
                    &child(source_abs, &entry.name),
                    &child(destination, &entry.name),
                    options,
                    ancestors,
                )?;
            }
            ancestors.pop();
            Ok(ok)
        }
        FileKind::Symlink => {
            let target = match ctx.storage.readlink(source_abs) {
                Ok(target) => target,
                Err(error) => {
                    fail(ctx, "cannot read symbolic link", source, &error)?;
                    return Ok(false);
                }
            };
            if let Some(existing) = existing {
                if options.no_clobber {
                    return Ok(true);
                }
                if existing.kind == FileKind::Directory {
                    ctx.error(format_args!("cannot overwrite directory {} with non-directory", quote(destination)))?;
                    return Ok(false);
                }
                let _ = ctx.storage.remove(&destination_abs, false);
            }
            if let Err(error) = ctx.storage.symlink(&target, &destination_abs) {
                fail(ctx, "cannot create symbolic link", destination, &error)?;
                return Ok(false);
            }
            verbose(ctx)?;
            Ok(true)
        }
        FileKind::File => {
            // `cp f new/` names a directory that is not there.
            if existing.is_none() && has_trailing_slash(destination) {
                let parent_exists = parent(&destination_abs).is_none_or(|(dir, _)| ctx.storage.stat(dir).is_ok());
                let error = if parent_exists {
                    StorageError::NotADirectory(destination_abs)
                } else {
                    StorageError::NotFound(destination_abs)
                };
                fail(ctx, "cannot create regular file", destination, &error)?;
                return Ok(false);
            }
            if let Some(existing) = existing {
                if options.no_clobber {
                    return Ok(true);
                }
                if existing.kind == FileKind::Directory {
                    ctx.error(format_args!("cannot overwrite directory {} with non-directory", quote(destination)))?;
                    return Ok(false);
                }
            }
            let data = match ctx.storage.read(source_abs) {
                Ok(data) => data,
                Err(error) => {
                    fail(ctx, "cannot open", source, &error)?;
                    return Ok(false);
                }
            };
            if let Err(error) = ctx.storage.write(&destination_abs, &data) {
                fail(ctx, "cannot create regular file", destination, &error)?;
                return Ok(false);
            }
            verbose(ctx)?;
            Ok(true)
        }
    }
}

/// `mv [-fnvT] [-t DIR] SOURCE… DEST`. A move between two mounted storages
/// copies, then removes the source.
pub(super) fn mv(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    const SPEC: Spec = Spec {
        short: "fnvTiubt:",
        long: &[
            ("force", "f", HasArg::No),
            ("no-clobber", "n", HasArg::No),
            ("verbose", "v", HasArg::No),
            ("no-target-directory", "T", HasArg::No),
            ("target-directory", "t", HasArg::Yes),
            ("interactive", "i", HasArg::No),
            ("update", "u", HasArg::No),
        ],
    };
    let Some(parsed) = parse(ctx, args, &SPEC)? else { return Ok(1) };
    let pairs = match plan(ctx, &parsed)? {
        Ok(pairs) => pairs,
        Err(status) => return Ok(status),
    };
    let mut status = 0;
    for (source, destination) in pairs {
        if !move_one(ctx, &source, &destination, &parsed)? {
            status = 1;
        }
    }
    Ok(status)
}

fn move_one(ctx: &mut Context<'_>, source: &str, destination: &str, parsed: &Parsed) -> Result<bool, LimitHit> {
    let source_abs = ctx.path(source);
    let destination_abs = ctx.path(destination);
    let meta = match ctx.lstat(source) {
        Ok(meta) => meta,
        Err(error) => {
            fail(ctx, "cannot stat", source, &error)?;
            return Ok(false);
        }
    };
    let last = base_name(source);
    if last == "." || last == ".." || source_abs == "/" {
        ctx.error(format_args!("cannot move {} to {}: Device or resource busy", quote(source), quote(destination)))?;
        return Ok(false);
    }
    let real_source = canonicalize(ctx, source, Canon::Missing).unwrap_or(source_abs.clone());
    let real_destination = canonicalize(ctx, destination, Canon::Missing).unwrap_or(destination_abs.clone());
    let existing = ctx.storage.lstat(&destination_abs).ok();
    // `mv f dir/` names a directory: rename(2) refuses when it is missing.
    if has_trailing_slash(destination) && existing.is_none() && meta.kind != FileKind::Directory {
        ctx.error(format_args!("cannot move {} to {}: Not a directory", quote(source), quote(destination)))?;
        return Ok(false);
    }
    if existing.is_some() && real_source == real_destination {
        ctx.error(format_args!("{} and {} are the same file", quote(source), quote(destination)))?;
        return Ok(false);
    }
    if meta.kind == FileKind::Directory && real_destination.starts_with(&format!("{real_source}/")) {
        ctx.error(format_args!("cannot move {} to a subdirectory of itself, {}", quote(source), quote(destination)))?;
        return Ok(false);
    }
    if let Some(existing) = existing {
        if parsed.has("n") {
            return Ok(true);
        }
        let existing_is_dir = existing.kind == FileKind::Directory;
        let source_is_dir = meta.kind == FileKind::Directory;
        if existing_is_dir && !source_is_dir {
            ctx.error(format_args!("cannot overwrite directory {} with non-directory", quote(destination)))?;
            return Ok(false);
        }
        if !existing_is_dir && source_is_dir {
            ctx.error(format_args!(
                "cannot overwrite non-directory {} with directory {}",
                quote(destination),
                quote(source)
            ))?;
            return Ok(false);
        }
    }
    let result = match ctx.storage.rename(&source_abs, &destination_abs) {
        Err(StorageError::CrossDevice(_)) => {
            let options = CopyOptions { recursive: true, no_clobber: false, verbose: false, keep_links: true };
            // copy_tree reports its own failures; the source stays then.
            if !copy_tree(ctx, source, &source_abs, destination, &options, &mut Vec::new())? {
                return Ok(false);
            }
            ctx.storage.remove(&source_abs, true)
        }
        other => other,
    };
    match result {
        Ok(()) => {
            if parsed.has("v") {
                ctx.stdout.write_str(&format!("renamed {} -> {}\n", quote(source), quote(destination)))?;
            }
            Ok(true)
        }
        Err(error) => {
            ctx.error(format_args!(
                "cannot move {} to {}: {}",
                quote(source),
                quote(destination),
                error_reason(&error)
            ))?;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::storage;
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(fs: &MemoryStorage, name: &str, args: &[&str]) -> (i32, String, String) {
        run_for_test(fs, name, args, "")
    }

    fn err(status: i32, message: &str) -> (i32, String, String) {
        (status, String::new(), format!("{message}\n"))
    }

    #[test]
    fn cp_copies_files_and_trees() {
        let fs = storage(&[("/d/f", "1\n"), ("/d/s/", ""), ("/g", "2\n")]);
        assert_eq!(run(&fs, "cp", &["d", "x"]), err(1, "cp: -r not specified; omitting directory 'd'"));
        assert_eq!(run(&fs, "cp", &["-r", "d", "x"]).0, 0);
        assert_eq!(run(&fs, "ls", &["x"]).1, "f\ns\n");
        assert_eq!(run(&fs, "cp", &["-r", "d", "x"]).0, 0);
        assert_eq!(run(&fs, "ls", &["x"]).1, "d\nf\ns\n");
        assert_eq!(run(&fs, "cp", &["g", "d"]).0, 0);
        assert_eq!(fs.read("/d/g").unwrap(), b"2\n");
        assert_eq!(run(&fs, "cp", &["g", "d/f/z"]), err(1, "cp: cannot stat 'd/f/z': Not a directory"));
        assert_eq!(
            run(&fs, "cp", &["-r", "d", "d/s"]),
            err(1, "cp: cannot copy a directory, 'd', into itself, 'd/s/d'")
        );
        assert_eq!(run(&fs, "cp", &["g", "g"]), err(1, "cp: 'g' and 'g' are the same file"));
        assert_eq!(run(&fs, "cp", &["g", "x", "d/f"]), err(1, "cp: target 'd/f': Not a directory"));
        assert_eq!(run(&fs, "cp", &["g", "x", "zz"]), err(1, "cp: target 'zz': No such file or directory"));
        assert_eq!(
            run(&fs, "cp", &["-r", "d", "g"]),
            err(1, "cp: cannot overwrite non-directory 'g' with directory 'd'")
        );
        assert_eq!(run(&fs, "cp", &["nope", "x"]), err(1, "cp: cannot stat 'nope': No such file or directory"));
        assert_eq!(run(&fs, "cp", &["-n", "g", "d/f"]).0, 0);
        assert_eq!(fs.read("/d/f").unwrap(), b"1\n");
        assert_eq!(run(&fs, "cp", &["-v", "g", "h"]), (0, "'g' -> 'h'\n".into(), "".into()));
        assert_eq!(run(&fs, "cp", &["-rv", "d/s", "r"]), (0, "'d/s' -> 'r'\n".into(), "".into()));
        assert_eq!(run(&fs, "cp", &[]), err(1, "cp: missing file operand\nTry 'cp --help' for more information."));
        assert_eq!(
            run(&fs, "cp", &["a"]),
            err(1, "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.")
        );
        assert_eq!(run(&fs, "cp", &["-T", "g", "d"]), err(1, "cp: cannot overwrite directory 'd' with non-directory"));
    }

    #[test]
    fn cp_keeps_symlinks_when_recursive() {
        let fs = storage(&[("/d/f", "1")]);
        fs.symlink("f", "/d/l").unwrap();
        assert_eq!(run(&fs, "cp", &["-r", "d", "e"]).0, 0);
        assert_eq!(fs.readlink("/e/l").unwrap(), "f");
        assert_eq!(run(&fs, "cp", &["d/l", "copy"]).0, 0);
        assert_eq!(fs.read("/copy").unwrap(), b"1");
        assert!(fs.readlink("/copy").is_err());
        fs.symlink("..", "/d/up").unwrap();
        let (status, _, stderr) = run(&fs, "cp", &["-rL", "d", "loop"]);
        assert_eq!(status, 1);
        assert!(stderr.contains("directory causes a cycle"), "{stderr}");
    }

    #[test]
    fn mv_renames_and_refuses_like_gnu() {
        let fs = storage(&[("/d/f", "1"), ("/d/s/", ""), ("/g", "2"), ("/h", "3"), ("/e/s", "")]);
        assert_eq!(run(&fs, "mv", &["nope", "z"]), err(1, "mv: cannot stat 'nope': No such file or directory"));
        assert_eq!(run(&fs, "mv", &["d", "d/s"]), err(1, "mv: cannot move 'd' to a subdirectory of itself, 'd/s/d'"));
        assert_eq!(run(&fs, "mv", &["g", "d/s/"]).0, 0);
        assert_eq!(run(&fs, "ls", &["d/s"]).1, "g\n");
        assert_eq!(run(&fs, "mv", &["h", "h"]), err(1, "mv: 'h' and 'h' are the same file"));
        assert_eq!(run(&fs, "mv", &["-v", "h", "i"]), (0, "renamed 'h' -> 'i'\n".into(), "".into()));
        assert_eq!(run(&fs, "mv", &["e/s", "d"]), err(1, "mv: cannot overwrite directory 'd/s' with non-directory"));
        assert_eq!(
            run(&fs, "mv", &["d/s", "e"]),
            err(1, "mv: cannot overwrite non-directory 'e/s' with directory 'd/s'")
        );
        assert_eq!(run(&fs, "mv", &["-n", "i", "d/f"]).0, 0);
        assert_eq!(fs.read("/d/f").unwrap(), b"1");
        assert_eq!(run(&fs, "mv", &["i", "q", "zz"]), err(1, "mv: target 'zz': No such file or directory"));
        assert_eq!(run(&fs, "mv", &["i", "d/f"]).0, 0);
        assert_eq!(fs.read("/d/f").unwrap(), b"3");
        assert_eq!(run(&fs, "mv", &["e/..", "f"]), err(1, "mv: cannot move 'e/..' to 'f': Device or resource busy"));
    }
}
