//! `chmod` (GNU coreutils 9.1): numeric and symbolic modes, `-R`, `-v`,
//! `-c`, `-f`, `--reference`. The bits go to the storage
//! ([`Storage::set_mode`](crate::storage::Storage::set_mode)): a
//! `MemoryStorage` keeps them, a `HostDir` sets them on the real file
//! inside its root, an overlay keeps them on files; `ls -l`, `stat`,
//! `test -x` and `find -perm` see them. The umask is bash's default 022.

use crate::shell::command::{error_reason, Context};
use crate::shell::LimitHit;
use crate::storage::{join, FileKind};

use super::super::options::{Arg, HasArg, Parser, Spec};
use super::super::text::common::quote;

const UMASK: u32 = 0o022;
const ALL: u32 = 0o7777;

/// One parsed symbolic change (gnulib's `struct mode_change`).
#[derive(Clone, Copy)]
struct Change {
    op: u8,
    flag: Flag,
    affected: u32,
    value: u32,
    mentioned: u32,
}

#[derive(Clone, Copy, PartialEq)]
enum Flag {
    Ordinary,
    CopyExisting,
    XIfAnyX,
}

/// A mode operand: an octal number or a list of symbolic clauses.
enum Mode {
    Octal(u32, usize),
    Symbolic(Vec<Change>),
}

fn compile(text: &str) -> Option<Mode> {
    if !text.is_empty() && text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let value = u32::from_str_radix(text, 8).ok()?;
        return (value <= ALL).then_some(Mode::Octal(value, text.len()));
    }
    let bytes = text.as_bytes();
    let mut changes = Vec::new();
    let mut p = 0;
    loop {
        let mut affected = 0;
        while p < bytes.len() {
            match bytes[p] {
                b'u' => affected |= 0o4700,
                b'g' => affected |= 0o2070,
                b'o' => affected |= 0o1007,
                b'a' => affected |= ALL,
                _ => break,
            }
            p += 1;
        }
        if p >= bytes.len() || !matches!(bytes[p], b'=' | b'+' | b'-') {
            return None;
        }
        while p < bytes.len() && matches!(bytes[p], b'=' | b'+' | b'-') {
            let op = bytes[p];
            p += 1;
            let (mut value, mut flag) = (0, Flag::CopyExisting);
            match bytes.get(p) {
                Some(b'u') => (value, p) = (0o700, p + 1),
                Some(b'g') => (value, p) = (0o070, p + 1),
                Some(b'o') => (value, p) = (0o007, p + 1),
                _ => {
                    flag = Flag::Ordinary;
                    while let Some(&b) = bytes.get(p) {
                        match b {
                            b'r' => value |= 0o444,
                            b'w' => value |= 0o222,
                            b'x' => value |= 0o111,
                            b'X' => flag = Flag::XIfAnyX,
                            b's' => value |= 0o6000,
                            b't' => value |= 0o1000,
                            _ => break,
                        }
                        p += 1;
                    }
                }
            }
            let mentioned = if affected != 0 { affected & value } else { value };
            changes.push(Change { op, flag, affected, value, mentioned });
        }
        if p == bytes.len() {
            return Some(Mode::Symbolic(changes));
        }
        if bytes[p] != b',' {
            return None;
        }
        p += 1;
    }
}

/// gnulib's `mode_adjust`: the new mode of a file whose mode is `old`.
fn adjust(old: u32, dir: bool, umask: u32, mode: &Mode) -> u32 {
    let changes = match mode {
        Mode::Octal(value, digits) => {
            // Directories keep set-user/group-ID unless five digits say otherwise.
            let keep = if dir && *digits < 5 { old & 0o6000 & !value } else { 0 };
            return value | keep;
        }
        Mode::Symbolic(changes) => changes,
    };
    let mut newmode = old & ALL;
    for change in changes {
        let omit = if dir { 0o6000 & !change.mentioned } else { 0 };
        let mut value = change.value;
        match change.flag {
            Flag::Ordinary => {}
            Flag::CopyExisting => {
                value &= newmode;
                value |= (if value & 0o444 != 0 { 0o444 } else { 0 })
                    | (if value & 0o222 != 0 { 0o222 } else { 0 })
                    | (if value & 0o111 != 0 { 0o111 } else { 0 });
            }
            Flag::XIfAnyX => {
                if newmode & 0o111 != 0 || dir {
                    value |= 0o111;
                }
            }
        }
        let affected = change.affected;
        value &= (if affected != 0 { affected } else { !umask }) & !omit;
        match change.op {
            b'=' => {
                let preserved = (if affected != 0 { !affected } else { 0 }) | omit;
                newmode = (newmode & preserved) | value;
            }
            b'+' => newmode |= value,
            _ => newmode &= !value,
        }
    }
    newmode & ALL
}

/// A symbolic mode as `find -perm` reads it (`u+x`, `g=w,o=r`): the bits
/// it sets from nothing, the umask ignored.
pub(super) fn perm_mode(text: &str) -> Option<u32> {
    compile(text).map(|mode| adjust(0, false, 0, &mode))
}

/// `mkdir -m MODE`: the new directory's mode, from `rwxrwxrwx` with the
/// shell's umask (022) as GNU's `mode_adjust` does; None when invalid.
pub(super) fn mkdir_mode(text: &str) -> Option<u32> {
    compile(text).map(|mode| adjust(0o777, true, 0o022, &mode))
}

/// `rwxr-xr-x`, with `s S t T`.
pub(super) fn symbolic(mode: u32) -> String {
    let mut out = String::with_capacity(9);
    for (shift, special, letter) in [(6, 0o4000, 's'), (3, 0o2000, 's'), (0, 0o1000, 't')] {
        let bits = (mode >> shift) & 7;
        out.push(if bits & 4 != 0 { 'r' } else { '-' });
        out.push(if bits & 2 != 0 { 'w' } else { '-' });
        out.push(match (bits & 1 != 0, mode & special != 0) {
            (true, true) => letter,
            (false, true) => letter.to_ascii_uppercase(),
            (true, false) => 'x',
            (false, false) => '-',
        });
    }
    out
}

struct Opts {
    recursive: bool,
    verbose: bool,
    changes: bool,
    quiet: bool,
    diagnose: bool,
}

/// GNU chmod's options: the mode letters are options too (with an optional
/// argument, the rest of the element), so `chmod -w f` works.
const SPEC: Spec = Spec {
    short: "Rcfvr::w::x::X::s::t::u::g::o::a::,::+::=::0::1::2::3::4::5::6::7::",
    long: &[
        ("changes", "c", HasArg::No),
        ("recursive", "R", HasArg::No),
        ("no-preserve-root", "no-preserve-root", HasArg::No),
        ("preserve-root", "preserve-root", HasArg::No),
        ("quiet", "f", HasArg::No),
        ("reference", "reference", HasArg::Yes),
        ("silent", "f", HasArg::No),
        ("verbose", "v", HasArg::No),
    ],
};

pub(in crate::shell::commands) fn chmod(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut opts = Opts { recursive: false, verbose: false, changes: false, quiet: false, diagnose: false };
    let mut mode_text: Option<String> = None;
    let mut reference: Option<String> = None;
    let mut operands = Vec::new();
    let usage = |ctx: &mut Context<'_>, message: String| -> Result<i32, LimitHit> {
        ctx.error(message)?;
        ctx.stderr.write_str("Try 'chmod --help' for more information.\n")?;
        Ok(1)
    };
    let mut parser = Parser::new(&SPEC, args);
    while let Some(arg) = parser.next() {
        let (key, value) = match arg {
            Ok(Arg::Operand(operand)) => {
                operands.push(operand);
                continue;
            }
            Ok(Arg::Opt(key, value)) => (key, value),
            Err(message) => return usage(ctx, message),
        };
        match key {
            "c" => opts.changes = true,
            "f" => opts.quiet = true,
            "v" => opts.verbose = true,
            "R" => opts.recursive = true,
            "reference" => reference = value,
            "preserve-root" | "no-preserve-root" => {}
            // `-w`, `-x,g+w`: a mode that looks like options, as GNU allows
            // (its letters are options taking the rest of the element): the
            // whole element is the mode, joined to an earlier one by `,`,
            // and umask surprises are then reported.
            _ => {
                let element = &args[parser.element()];
                mode_text = Some(match mode_text {
                    Some(earlier) => format!("{earlier},{element}"),
                    None => element.clone(),
                });
                opts.diagnose = true;
            }
        }
    }
    let mode = match (&reference, mode_text) {
        (Some(file), _) => match ctx.stat(file) {
            Ok(meta) => Mode::Octal(meta.mode & ALL, 5),
            Err(error) => {
                ctx.error(format!("failed to get attributes of {}: {}", quote(file), error_reason(&error)))?;
                return Ok(1);
            }
        },
        (None, Some(text)) => match compile(&text) {
            Some(mode) => mode,
            None => return usage(ctx, format!("invalid mode: {}", quote(&text))),
        },
        (None, None) => {
            if operands.is_empty() {
                return usage(ctx, "missing operand".to_string());
            }
            let text = operands.remove(0);
            match compile(&text) {
                Some(mode) => mode,
                None => return usage(ctx, format!("invalid mode: {}", quote(&text))),
            }
        }
    };
    if operands.is_empty() {
        return usage(
            ctx,
            match args.last() {
                Some(last) if reference.is_none() => format!("missing operand after {}", quote(last)),
                _ => "missing operand".to_string(),
            },
        );
    }
    let mut ok = true;
    for operand in &operands {
        ok &= change(ctx, operand, &mode, &opts, true)?;
    }
    Ok(if ok { 0 } else { 1 })
}

/// Changes one path (and, with `-R`, what is under it). Returns success.
fn change(ctx: &mut Context<'_>, shown: &str, mode: &Mode, opts: &Opts, top: bool) -> Result<bool, LimitHit> {
    (ctx.check)()?;
    let meta = match if top { ctx.stat(shown) } else { ctx.lstat(shown) } {
        Ok(meta) => meta,
        Err(error) => {
            if !opts.quiet {
                ctx.error(format!("cannot access {}: {}", quote(shown), error_reason(&error)))?;
            }
            return Ok(false);
        }
    };
    // Symlinks met while recursing are neither followed nor changed.
    if meta.kind == FileKind::Symlink {
        return Ok(true);
    }
    let dir = meta.kind == FileKind::Directory;
    let old = meta.mode & ALL;
    let new = adjust(old, dir, UMASK, mode);
    let mut ok = true;
    let result = if new == old { Ok(()) } else { ctx.storage.set_mode(&ctx.path(shown), new) };
    match result {
        Err(error) => {
            if !opts.quiet {
                ctx.error(format!("changing permissions of {}: {}", quote(shown), error_reason(&error)))?;
            }
            ok = false;
        }
        Ok(()) => {
            if opts.verbose || (opts.changes && new != old) {
                let line = if new == old {
                    format!("mode of {} retained as {old:04o} ({})\n", quote(shown), symbolic(old))
                } else {
                    format!(
                        "mode of {} changed from {old:04o} ({}) to {new:04o} ({})\n",
                        quote(shown),
                        symbolic(old),
                        symbolic(new)
                    )
                };
                ctx.stdout.write_str(&line)?;
            }
            if opts.diagnose {
                let naive = adjust(old, dir, 0, mode);
                if new & !naive != 0 {
                    if !opts.quiet {
                        ctx.error(format!(
                            "{}: new permissions are {}, not {}",
                            shown,
                            symbolic(new),
                            symbolic(naive)
                        ))?;
                    }
                    ok = false;
                }
            }
        }
    }
    if opts.recursive && dir {
        let entries = match ctx.storage.list(&ctx.path(shown)) {
            Ok(entries) => entries,
            Err(error) => {
                if !opts.quiet {
                    ctx.error(format!("cannot read directory {}: {}", quote(shown), error_reason(&error)))?;
                }
                return Ok(false);
            }
        };
        for entry in entries {
            let child = if shown.ends_with('/') { format!("{shown}{}", entry.name) } else { join(shown, &entry.name) };
            ok &= change(ctx, &child, mode, opts, false)?;
        }
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::{adjust, compile, symbolic};
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn apply(old: u32, dir: bool, text: &str) -> u32 {
        adjust(old, dir, 0o022, &compile(text).unwrap())
    }

    #[test]
    fn modes_follow_gnulib() {
        assert_eq!(apply(0o755, false, "u-x,g=r"), 0o645);
        assert_eq!(apply(0o645, false, "+x"), 0o755);
        assert_eq!(apply(0o755, false, "a=rw,+X"), 0o666);
        assert_eq!(apply(0o700, true, "+t"), 0o1700);
        assert_eq!(apply(0o4646, false, "-w"), 0o4446);
        assert_eq!(apply(0o644, false, "u+s"), 0o4644);
        assert_eq!(apply(0o4644, false, "o=u"), 0o4646);
        assert_eq!(apply(0, false, "+w"), 0o200);
        assert_eq!(apply(0o644, false, "=r"), 0o444);
        assert_eq!(apply(0o2755, true, "755"), 0o2755);
        assert!(compile("888").is_none());
        assert!(compile("xyz").is_none());
        assert_eq!(symbolic(0o4644), "rwSr--r--");
        assert_eq!(symbolic(0o1777), "rwxrwxrwt");
    }

    #[test]
    fn chmod_sets_storage_modes_and_reports_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/f", b"x").unwrap();
        storage.mkdir("/d/e", true).unwrap();
        storage.write("/d/e/g", b"y").unwrap();
        assert_eq!(run_for_test(&storage, "chmod", &["755", "f"], "").0, 0);
        assert_eq!(storage.stat("/f").unwrap().mode, 0o755);
        let (status, out, _) = run_for_test(&storage, "chmod", &["-v", "600", "f"], "");
        assert_eq!((status, out.as_str()), (0, "mode of 'f' changed from 0755 (rwxr-xr-x) to 0600 (rw-------)\n"));
        let (_, out, _) = run_for_test(&storage, "chmod", &["-c", "600", "f"], "");
        assert_eq!(out, "");
        run_for_test(&storage, "chmod", &["-R", "go-rx", "d"], "");
        assert_eq!(storage.stat("/d/e").unwrap().mode, 0o700);
        assert_eq!(storage.stat("/d/e/g").unwrap().mode, 0o600);
        let (status, _, err) = run_for_test(&storage, "chmod", &["xyz", "f"], "");
        assert_eq!(
            (status, err.as_str()),
            (1, "chmod: invalid mode: 'xyz'\nTry 'chmod --help' for more information.\n")
        );
        let (status, _, err) = run_for_test(&storage, "chmod", &["644", "nope"], "");
        assert_eq!((status, err.as_str()), (1, "chmod: cannot access 'nope': No such file or directory\n"));
        let (status, _, err) = run_for_test(&storage, "chmod", &["755"], "");
        assert_eq!(status, 1);
        assert!(err.starts_with("chmod: missing operand after '755'\n"));
        storage.set_mode("/f", 0o4646).unwrap();
        let (status, _, err) = run_for_test(&storage, "chmod", &["-w", "f"], "");
        assert_eq!((status, err.as_str()), (1, "chmod: f: new permissions are r-Sr--rw-, not r-Sr--r--\n"));
    }
}
