//! `sed` (GNU sed 4.9, C locale) over the storage.
//!
//! Supported: `-n`, `-e`, `-f`, `-E`/`-r`, `-i[SUFFIX]`, `-s`;
//! addresses `N`, `$`, `/re/` and `\%re%` (flags `I`), `first~step`,
//! `addr1,addr2`, `0,/re/`, `addr,+N`, `addr,~N`, `!`; commands
//! `s` (flags `g`, `p`, N, `i`/`I`, `w FILE`; `&`, `\1`–`\9`, `\n`, `\U \L
//! \u \l \E` in the replacement), `p P d D q Q = l a i c y n N h H g G x
//! b t T : { } r w z F #`.
//!
//! Differences from GNU sed (for docs/SHELL.md): regexes are leftmost-first
//! and have no back-references inside the pattern (see `regex_syntax`); the
//! `M`, `e` flags and the `e`, `R`, `W`, `v` commands, `-z` and `--posix`
//! are not supported; error positions (`char N`) may differ from GNU's.
//!
//! The files: `mod.rs` the command line, `-i` and the run over the
//! inputs; `script.rs` the script parsed into addresses and commands;
//! `input.rs` the input lines across files and stdin; `exec.rs` a cycle
//! of the commands over the pattern space, and the output.

mod exec;
mod input;
mod script;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::rc::Rc;

use regex::bytes::{Regex, RegexBuilder};

use super::options::{self, Arg, HasArg, Spec};
use super::regex_syntax::{translate, Dialect};
use crate::shell::command::{CommandFn, Context, Lines, ReadFailed, Reader, Stdin};
use crate::shell::LimitHit;
use crate::storage::Storage;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("sed", sed)];

/// Largest pattern or hold space, so a runaway script fails instead of
/// eating memory.
const MAX_SPACE: usize = 64 << 20;

/// Output is held up to this much before it is written out.
const OUT_BUF: usize = 64 << 10;

/// GNU sed's usage text, printed on stderr for a bad command line.
const USAGE: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n";

use {exec::*, input::*, script::*};

/// The options of GNU sed 4.9 that we take, in its table's order.
const SPEC: Spec = Spec {
    short: "nrsuEe:f:i::",
    long: &[
        ("regexp-extended", "r", HasArg::No),
        ("debug", "debug", HasArg::No),
        ("in-place", "i", HasArg::Optional),
        ("expression", "e", HasArg::Yes),
        ("file", "f", HasArg::Yes),
        ("quiet", "n", HasArg::No),
        ("posix", "posix", HasArg::No),
        ("silent", "n", HasArg::No),
        ("sandbox", "sandbox", HasArg::No),
        ("separate", "s", HasArg::No),
        ("unbuffered", "u", HasArg::No),
        ("follow-symlinks", "follow-symlinks", HasArg::No),
    ],
};

fn sed(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut quiet = false;
    let mut extended = false;
    let mut separate = false;
    let mut in_place: Option<String> = None;
    let mut follow_symlinks = false;
    let mut scripts: Vec<String> = Vec::new();
    let mut script_given = false;
    let mut files = Vec::new();
    for arg in options::Parser::new(&SPEC, args) {
        let (key, value) = match arg {
            Ok(Arg::Operand(file)) => {
                files.push(file);
                continue;
            }
            Ok(Arg::Opt(key, value)) => (key, value),
            Err(message) => {
                ctx.error(message)?;
                ctx.stderr.write_str(USAGE)?;
                return Ok(1);
            }
        };
        match key {
            "n" => quiet = true,
            "E" | "r" => extended = true,
            "s" => separate = true,
            "i" => in_place = Some(value.unwrap_or_default()),
            "e" => {
                scripts.push(value.unwrap_or_default());
                script_given = true;
            }
            "f" => {
                let Some(text) = script_file(ctx, &value.unwrap_or_default())? else { return Ok(4) };
                scripts.push(text);
                script_given = true;
            }
            "follow-symlinks" => follow_symlinks = true,
            // -u, --posix, --debug, --sandbox: no effect here.
            _ => {}
        }
    }
    if !script_given {
        if files.is_empty() {
            ctx.stderr.write_str(USAGE)?;
            return Ok(1);
        }
        scripts.push(files.remove(0));
    }
    // Parse each -e piece on its own first, for GNU's `expression #N` in errors.
    let mut commands = Vec::new();
    {
        let script = scripts.join("\n");
        let mut parser = Parser {
            s: script.as_bytes(),
            i: 0,
            extended,
            commands: Vec::new(),
            blocks: Vec::new(),
            branches: Vec::new(),
            labels: BTreeMap::new(),
        };
        if let Err(error) = parser.parse() {
            let Some(mut at) = error.at else {
                ctx.error(error.message)?;
                return Ok(4);
            };
            // Which -e piece the position falls in, and the position inside it.
            let mut number = 1;
            for piece in &scripts {
                if at <= piece.len() || number == scripts.len() {
                    break;
                }
                at -= piece.len() + 1;
                number += 1;
            }
            ctx.error(format!("-e expression #{number}, char {at}: {}", error.message))?;
            return Ok(1);
        }
        commands.append(&mut parser.commands);
    }
    let ranges =
        commands.iter().map(|c| RangeState { active: matches!(c.a1, Some(Addr::Zero)), end_line: 0 }).collect();
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    let mut loaded = Vec::new();
    if in_place.is_some() && files.iter().all(|f| f == "-") {
        ctx.error("no input files")?;
        return Ok(4);
    }
    for file in &files {
        if file != "-" && ctx.stat(file).is_ok_and(|m| m.kind == crate::storage::FileKind::Directory) {
            // GNU handles the files before it, then stops with status 4.
            if in_place.is_some() {
                ctx.error(format!("couldn't edit {file}: not a regular file"))?;
            } else {
                ctx.error(format!("read error on {file}: Is a directory"))?;
            }
            status = 4;
            break;
        }
        if file == "-" {
            // Stdin is read as it comes, line by line.
            loaded.push((file.clone(), Data::Stdin));
            continue;
        }
        if in_place.is_none() {
            // Every file is opened first (GNU's messages come before its
            // buffered output); a small one is kept, a large one opened
            // again when reached and read a piece at a time.
            match ctx.open(file).map(Reader::into_whole) {
                Ok(Ok(data)) => loaded.push((file.clone(), Data::Bytes(data))),
                // A pipe (`<(cmd)`) cannot be opened again: it stays open.
                Ok(Err(reader)) if reader.is_stream() => {
                    loaded.push((file.clone(), Data::Open(Lines::new(reader, ctx.max_memory))));
                }
                Ok(Err(_)) => loaded.push((file.clone(), Data::Path)),
                Err(error) => {
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("can't read {file}: {reason}"))?;
                    status = 2;
                }
            }
            continue;
        }
        // In place: a small file is edited in memory; a large regular
        // file is read a piece at a time when reached, its result written
        // to a temporary file beside it that then replaces it (as GNU).
        let opened = match ctx.open(file).map(Reader::into_whole) {
            Ok(Ok(data)) => Ok(data),
            Ok(Err(reader))
                if !reader.is_stream()
                    && ctx.storage.lstat(&ctx.path(file)).is_ok_and(|m| m.kind == crate::storage::FileKind::File) =>
            {
                loaded.push((file.clone(), Data::Path));
                continue;
            }
            Ok(Err(_)) => ctx.read(file),
            Err(error) => Err(error),
        };
        match opened {
            Ok(data) => loaded.push((file.clone(), Data::Bytes(data))),
            Err(error) => {
                let reason = crate::shell::command::error_reason(&error);
                ctx.error(format!("can't read {file}: {reason}"))?;
                status = 2;
            }
        }
    }
    let mut exec = Exec {
        commands: &commands,
        ranges,
        quiet,
        line: 0,
        pattern: Vec::new(),
        hold: Vec::new(),
        newline: true,
        substituted: false,
        last_regex: None,
        append: Vec::new(),
        scratch: Vec::new(),
        out: Vec::new(),
        to_stdout: true,
        sink: None,
        sink_error: None,
        owed_newline: false,
        writes: BTreeMap::new(),
        status: 0,
        failed: false,
    };
    for command in exec.commands.iter() {
        let path = match &command.kind {
            Kind::WriteFile(path) => Some(path.clone()),
            Kind::Subst(subst) => subst.write.clone(),
            _ => None,
        };
        if let Some(path) = path {
            exec.writes.insert(path, Vec::new());
        }
    }
    let groups: Vec<Vec<(String, Data)>> =
        if in_place.is_some() || separate { loaded.into_iter().map(|f| vec![f]).collect() } else { vec![loaded] };
    for group in groups {
        let target = group.first().map(|(name, _)| name.clone());
        let streamed = in_place.is_some() && matches!(group.first(), Some((_, Data::Path)));
        if let (true, Some(target)) = (streamed, &target) {
            match temporary_file(ctx, target) {
                Ok(temp) => exec.sink = Some(temp),
                Err(message) => {
                    ctx.error(message)?;
                    return Ok(4);
                }
            }
        }
        let mut input = Input::new(group, ctx);
        if in_place.is_some() || separate {
            exec.line = 0;
        }
        // A limit stops the run: the original stays, the temporary goes.
        let quit = match exec.run(ctx, &mut input, in_place.is_none()) {
            Ok(quit) if input.hit.is_none() => quit,
            result => {
                if let Some(temp) = exec.sink.take() {
                    let _ = ctx.storage.remove(&temp, false);
                }
                return Err(result.err().or(input.hit).unwrap_or(LimitHit::Memory));
            }
        };
        let read_failed = !input.errors.is_empty();
        if read_failed {
            for message in std::mem::take(&mut input.errors) {
                ctx.error(message)?;
            }
            status = 2;
        }
        let backup_name = |suffix: &str, target: &str| {
            if suffix.contains('*') {
                suffix.replace('*', target.rsplit('/').next().unwrap_or(target))
            } else {
                format!("{target}{suffix}")
            }
        };
        if let (Some(temp), Some(suffix), Some(target)) = (exec.sink.take(), &in_place, &target) {
            // The temporary file replaces the original (which becomes the
            // backup, if one is asked), unless something failed on the way.
            let path = ctx.path(target);
            let written = match exec.sink_error.take() {
                Some(error) => Err(error),
                None if read_failed => Ok(false),
                None if suffix.is_empty() => Ok(true),
                None => ctx.storage.rename(&path, &ctx.path(&backup_name(suffix, target))).map(|()| true),
            };
            match written
                .and_then(|keep| if keep { ctx.storage.rename(&temp, &path).map(|()| true) } else { Ok(false) })
            {
                Ok(true) => {}
                Ok(false) => {
                    let _ = ctx.storage.remove(&temp, false);
                }
                Err(error) => {
                    let _ = ctx.storage.remove(&temp, false);
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("couldn't edit {target}: {reason}"))?;
                    status = 4;
                }
            }
        } else if let (Some(suffix), Some(target)) = (&in_place, target) {
            if target != "-" {
                let path = ctx.path(&target);
                let out = std::mem::take(&mut exec.out);
                let backup = if suffix.is_empty() {
                    Ok(())
                } else {
                    let backup_name = backup_name(suffix, &target);
                    let original = match &input.files[0].1 {
                        Data::Bytes(data) => data.as_slice(),
                        _ => &[],
                    };
                    ctx.storage.write(&ctx.path(&backup_name), original)
                };
                // GNU (without --follow-symlinks) replaces a symlink with
                // the edited file, leaving the link's target as it was.
                if !follow_symlinks
                    && ctx.storage.lstat(&path).is_ok_and(|m| m.kind == crate::storage::FileKind::Symlink)
                {
                    let _ = ctx.storage.remove(&path, false);
                }
                if let Err(error) = backup.and_then(|()| ctx.storage.write(&path, &out)) {
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("couldn't open file {target}: {reason}"))?;
                    status = 4;
                }
            }
        }
        if quit {
            break;
        }
    }
    let writes = std::mem::take(&mut exec.writes);
    for (path, data) in writes {
        let result = match path.as_str() {
            "/dev/stdout" | "/dev/stderr" => Ok(()),
            _ => ctx.storage.write(&ctx.path(&path), &data),
        };
        if let Err(error) = result {
            let reason = crate::shell::command::error_reason(&error);
            ctx.error(format!("couldn't open file {path}: {reason}"))?;
            status = 4;
        }
    }
    if exec.failed {
        status = 2;
    }
    Ok(if exec.status != 0 { exec.status } else { status })
}

/// A new empty file beside `target` (GNU's `sedXXXXXX`) with its mode:
/// the path, or GNU's message when it cannot be made.
fn temporary_file(ctx: &mut Context<'_>, target: &str) -> Result<String, String> {
    use std::hash::{BuildHasher, Hasher};
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let dir = match target.rfind('/') {
        Some(0) => "/",
        Some(at) => &target[..at],
        None => ".",
    };
    let mode = ctx.storage.stat(&ctx.path(target)).map(|m| m.mode).ok();
    let mut last = String::new();
    for attempt in 0..100u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(attempt);
        let mut bits = hasher.finish();
        let mut name = String::from("sed");
        for _ in 0..6 {
            name.push(char::from(LETTERS[(bits % LETTERS.len() as u64) as usize]));
            bits /= LETTERS.len() as u64;
        }
        let shown = if dir.ends_with('/') { format!("{dir}{name}") } else { format!("{dir}/{name}") };
        let path = ctx.path(&shown);
        if ctx.storage.lstat(&path).is_ok() {
            continue;
        }
        match ctx.storage.write(&path, b"") {
            Ok(()) => {
                if let Some(mode) = mode {
                    let _ = ctx.storage.set_mode(&path, mode);
                }
                return Ok(path);
            }
            Err(error) => {
                last = format!("couldn't open temporary file {shown}: {}", crate::shell::command::error_reason(&error));
                break;
            }
        }
    }
    Err(last)
}

/// `-f FILE`: the script text (a trailing newline dropped).
fn script_file(ctx: &mut Context<'_>, path: &str) -> Result<Option<String>, LimitHit> {
    match ctx.read(path) {
        Ok(data) => {
            let text = String::from_utf8_lossy(&data).into_owned();
            Ok(Some(text.strip_suffix('\n').map(String::from).unwrap_or(text)))
        }
        Err(error) => {
            let reason = crate::shell::command::error_reason(&error);
            ctx.error(format!("couldn't open file {path}: {reason}"))?;
            Ok(None)
        }
    }
}
