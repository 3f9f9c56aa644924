//! The builtins: the commands that read or change the shell's own state
//! (`cd`, `read`, `export`, `set`…), plus `echo`, `test`/`[` and `[[ ]]`.
//!
//! Differences from bash, on purpose or for now: `trap` runs `EXIT`, `ERR`
//! and `RETURN`; signal and `DEBUG` traps are only kept for `trap -p` (no
//! signal reaches the shell); `type`/`command -v` report the
//! commands of the table as `/usr/bin/NAME`; a script run by path
//! (`./x.sh`) needs no execute bit, as the storage has no `chmod`.

use std::sync::Arc;

use brush_parser::ast::{BinaryPredicate, ExtendedTestExpr, TestExpr, UnaryPredicate};

use super::commands;
use super::exec::{Assign, AssignValue, DeclArg, Flow, Interp, Res};
use super::state::{State, Value, Var};
use super::storage_path;
use crate::storage::FileKind;

/// A builtin's entry point: the interpreter and argv (`argv[0]` is the name).
pub(crate) type BuiltinFn = fn(&mut Interp<'_>, &[String]) -> Res;

/// The builtin called `name`, if there is one.
pub(crate) fn lookup(name: &str) -> Option<BuiltinFn> {
    Some(match name {
        "echo" => echo,
        "printf" => printf,
        ":" | "true" => |_, _| Ok(0),
        "false" => |_, _| Ok(1),
        "cd" => cd,
        "pwd" => pwd,
        "test" | "[" => test,
        "exit" => exit,
        "return" => return_,
        "break" => |i, a| break_continue(i, a, true),
        "continue" => |i, a| break_continue(i, a, false),
        "set" => set,
        "shift" => shift,
        "unset" => unset,
        "export" | "local" | "declare" | "typeset" | "readonly" => declaration_words,
        "read" => read,
        "mapfile" | "readarray" => mapfile,
        "eval" => eval,
        "source" | "." => source,
        "trap" => trap,
        "let" => let_,
        "type" => type_,
        "command" => command,
        "getopts" => getopts,
        "compgen" => compgen,
        "bash" | "sh" => bash,
        "builtin" => builtin,
        "pushd" => pushd,
        "popd" => popd,
        "dirs" => dirs,
        "exec" => exec,
        "shopt" => shopt,
        "wait" => super::jobs::wait,
        "jobs" => super::jobs::jobs,
        "kill" => super::jobs::kill,
        "hash" | "alias" | "unalias" | "ulimit" | "disown" => |_, _| Ok(0),
        "umask" => |i, a| {
            if a.len() == 1 {
                i.out(b"0022\n")?;
            }
            Ok(0)
        },
        _ => return None,
    })
}

/// Every builtin's name (for `compgen -c`).
const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bash",
    "break",
    "builtin",
    "cd",
    "command",
    "compgen",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "getopts",
    "hash",
    "jobs",
    "kill",
    "let",
    "local",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "sh",
    "shift",
    "shopt",
    "source",
    "test",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// The reserved words (for `type` and `compgen -c`).
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
    "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// Whether `name` takes assignments as arguments (`declare x=1`).
pub(crate) fn is_declaration(name: &str) -> bool {
    matches!(name, "export" | "local" | "declare" | "typeset" | "readonly")
}

fn usage(interp: &mut Interp<'_>, name: &str, message: impl std::fmt::Display) -> Res {
    interp.error(format_args!("{name}: {message}"))?;
    Ok(2)
}

// ----- echo, cd, pwd -----

fn echo(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut newline = true;
    let mut escapes = false;
    let mut args = &argv[1..];
    while let Some(first) = args.first() {
        let flags = first.strip_prefix('-').filter(|f| !f.is_empty() && f.bytes().all(|b| b"neE".contains(&b)));
        let Some(flags) = flags else { break };
        for flag in flags.bytes() {
            match flag {
                b'n' => newline = false,
                b'e' => escapes = true,
                _ => escapes = false,
            }
        }
        args = &args[1..];
    }
    if !escapes && args.len() == 1 && args[0].len() < 256 {
        // The hot path: one short argument, no escapes, one write.
        let mut line = [0u8; 257];
        let bytes = args[0].as_bytes();
        line[..bytes.len()].copy_from_slice(bytes);
        let mut len = bytes.len();
        if newline {
            line[len] = b'\n';
            len += 1;
        }
        interp.out(&line[..len])?;
        return Ok(0);
    }
    let mut text = String::new();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        if escapes {
            if let Some(cut) = find_backslash_c(arg) {
                text.push_str(&super::expand::ansi_c(&echo_escapes(&arg[..cut])));
                interp.out(text.as_bytes())?;
                return Ok(0);
            }
            text.push_str(&super::expand::ansi_c(&echo_escapes(arg)));
        } else {
            text.push_str(arg);
        }
    }
    if newline {
        text.push('\n');
    }
    interp.out(text.as_bytes())?;
    Ok(0)
}

/// echo's escapes in `$'…'` form: `\0nnn` is octal, `\nnn` stays as written.
fn echo_escapes(arg: &str) -> String {
    let mut out = String::with_capacity(arg.len());
    let mut chars = arg.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => {
                let mut value = 0u32;
                for _ in 0..3 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push_str(&format!("\\x{:02x}", value & 0xff));
            }
            Some(d @ '1'..='7') => {
                out.push_str("\\\\");
                out.push(d);
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push_str("\\\\"),
        }
    }
    out
}

fn find_backslash_c(arg: &str) -> Option<usize> {
    let bytes = arg.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            if bytes[i + 1] == b'c' {
                return Some(i);
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

/// `builtin NAME [ARG]...`: runs the builtin NAME, skipping functions.
fn builtin(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let Some(name) = argv.get(1) else { return Ok(0) };
    match lookup(name).filter(|_| BUILTINS.contains(&name.as_str()) && !matches!(name.as_str(), "bash" | "sh")) {
        Some(function) => function(interp, &argv[1..]),
        None => {
            interp.error(format_args!("builtin: {name}: not a shell builtin"))?;
            Ok(1)
        }
    }
}

/// Changes the working directory for `pushd`/`popd` (`who` names the
/// builtin in messages). Returns the status.
fn change_dir(interp: &mut Interp<'_>, who: &str, target: &str) -> Result<i32, Flow> {
    let path = storage_path(&interp.st.cwd, target);
    match interp.rt.storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {}
        Ok(_) => {
            interp.error(format_args!("{who}: {target}: Not a directory"))?;
            return Ok(1);
        }
        Err(error) => {
            interp.error(format_args!("{who}: {target}: {}", super::command::error_reason(&error)))?;
            return Ok(1);
        }
    }
    let path = crate::storage::normalize(&path);
    let old = interp.st.cwd.to_string();
    interp.st.set_scalar("OLDPWD", old);
    interp.st.set_scalar("PWD", path.clone());
    interp.st.cwd = path.into();
    Ok(0)
}

/// The stack as `dirs` prints it: the working directory first, `$HOME` as `~`.
fn dir_stack_words(interp: &Interp<'_>) -> Vec<String> {
    let home = interp.st.get("HOME").unwrap_or("").to_string();
    std::iter::once(interp.st.cwd.to_string())
        .chain(interp.st.dir_stack.iter().cloned())
        .map(|dir| match dir.strip_prefix(home.as_str()) {
            Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => format!("~{rest}"),
            _ => dir,
        })
        .collect()
}

/// `dirs [-c] [-p] [-v] [-l]`.
fn dirs(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let (mut clear, mut lines, mut numbered, mut long) = (false, false, false, false);
    for arg in &argv[1..] {
        match arg.as_str() {
            "-c" => clear = true,
            "-p" => lines = true,
            "-v" => numbered = true,
            "-l" => long = true,
            other => {
                interp.error(format_args!("dirs: {other}: invalid option"))?;
                interp.error("dirs: usage: dirs [-clpv] [+N] [-N]")?;
                return Ok(2);
            }
        }
    }
    if clear {
        interp.st.dir_stack.clear();
        return Ok(0);
    }
    let words = if long {
        std::iter::once(interp.st.cwd.to_string()).chain(interp.st.dir_stack.iter().cloned()).collect()
    } else {
        dir_stack_words(interp)
    };
    let text = if numbered {
        words.iter().enumerate().map(|(i, w)| format!("{i:2}  {w}\n")).collect::<String>()
    } else if lines {
        words.iter().map(|w| format!("{w}\n")).collect::<String>()
    } else {
        format!("{}\n", words.join(" "))
    };
    interp.out(text.as_bytes())?;
    Ok(0)
}

/// `pushd [-n] [DIR]`: pushes the working directory and goes to DIR (or
/// swaps the top two), then prints the stack.
fn pushd(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let quiet = argv[1..].iter().any(|a| a == "-n");
    let args: Vec<&String> = argv[1..].iter().filter(|a| *a != "-n" && *a != "--").collect();
    if args.len() > 1 {
        interp.error("pushd: too many arguments")?;
        return Ok(1);
    }
    let old = interp.st.cwd.to_string();
    match args.first() {
        None => {
            let Some(top) = interp.st.dir_stack.first().cloned() else {
                interp.error("pushd: no other directory")?;
                return Ok(1);
            };
            let status = change_dir(interp, "pushd", &top)?;
            if status != 0 {
                return Ok(status);
            }
            interp.st.dir_stack[0] = old;
        }
        Some(dir) => {
            let status = change_dir(interp, "pushd", dir)?;
            if status != 0 {
                return Ok(status);
            }
            interp.st.dir_stack.insert(0, old);
        }
    }
    if !quiet {
        dirs(interp, &["dirs".to_string()])?;
    }
    Ok(0)
}

/// `popd [-n]`: goes back to the directory on top of the stack.
fn popd(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let quiet = argv[1..].iter().any(|a| a == "-n");
    let Some(top) = interp.st.dir_stack.first().cloned() else {
        interp.error("popd: directory stack empty")?;
        return Ok(1);
    };
    let status = change_dir(interp, "popd", &top)?;
    if status != 0 {
        return Ok(status);
    }
    interp.st.dir_stack.remove(0);
    if !quiet {
        dirs(interp, &["dirs".to_string()])?;
    }
    Ok(0)
}

fn cd(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let args: Vec<&String> = argv[1..].iter().filter(|a| !matches!(a.as_str(), "-L" | "-P" | "--")).collect();
    if args.len() > 1 {
        return usage(interp, "cd", "too many arguments").map(|_| 1);
    }
    let mut print = false;
    let target = match args.first().map(|s| s.as_str()) {
        None => match interp.st.get("HOME") {
            Some(home) => home.to_string(),
            None => {
                interp.error("cd: HOME not set")?;
                return Ok(1);
            }
        },
        Some("-") => match interp.st.get("OLDPWD") {
            Some(old) => {
                print = true;
                old.to_string()
            }
            None => {
                interp.error("cd: OLDPWD not set")?;
                return Ok(1);
            }
        },
        Some(dir) => dir.to_string(),
    };
    if target.is_empty() {
        return Ok(0);
    }
    let path = storage_path(&interp.st.cwd, &target);
    match interp.rt.storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {}
        Ok(_) => {
            interp.error(format_args!("cd: {target}: Not a directory"))?;
            return Ok(1);
        }
        Err(error) => {
            interp.error(format_args!("cd: {target}: {}", super::command::error_reason(&error)))?;
            return Ok(1);
        }
    }
    let old = interp.st.cwd.to_string();
    interp.st.set_scalar("OLDPWD", old);
    interp.st.set_scalar("PWD", path.clone());
    if print {
        interp.out(format!("{path}\n").as_bytes())?;
    }
    interp.st.cwd = path.into();
    Ok(0)
}

fn pwd(interp: &mut Interp<'_>, _argv: &[String]) -> Res {
    let line = format!("{}\n", interp.st.cwd);
    interp.out(line.as_bytes())?;
    Ok(0)
}

// ----- exit, return, break, continue -----

fn status_arg(interp: &mut Interp<'_>, name: &str, arg: Option<&String>) -> Result<Option<i32>, Flow> {
    match arg {
        None => Ok(Some(interp.st.last_status)),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(n) => Ok(Some((n & 0xff) as i32)),
            Err(_) => {
                interp.error(format_args!("{name}: {text}: numeric argument required"))?;
                Ok(None)
            }
        },
    }
}

fn exit(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    match status_arg(interp, "exit", argv.get(1))? {
        Some(status) => Err(Flow::Exit(status)),
        None => Err(Flow::Exit(2)),
    }
}

fn return_(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if interp.depth == 0 && interp.sourcing == 0 {
        interp.error("return: can only `return' from a function or sourced script")?;
        return Ok(2);
    }
    match status_arg(interp, "return", argv.get(1))? {
        Some(status) => Err(Flow::Return(status)),
        None => Err(Flow::Return(2)),
    }
}

fn break_continue(interp: &mut Interp<'_>, argv: &[String], is_break: bool) -> Res {
    let name = if is_break { "break" } else { "continue" };
    let n = match argv.get(1) {
        None => 1,
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n >= 1 => n.min(i64::from(u32::MAX)) as u32,
            Ok(_) => {
                interp.error(format_args!("{name}: {text}: loop count out of range"))?;
                return Ok(1);
            }
            Err(_) => {
                interp.error(format_args!("{name}: {text}: numeric argument required"))?;
                return Ok(1);
            }
        },
    };
    if interp.loops == 0 {
        interp.error(format_args!("{name}: only meaningful in a `for', `while', or `until' loop"))?;
        return Ok(0);
    }
    let n = n.min(interp.loops);
    Err(if is_break { Flow::Break(n) } else { Flow::Continue(n) })
}

// ----- set, shift, unset -----

fn set_option(interp: &mut Interp<'_>, name: &str, on: bool) -> bool {
    let options = &mut interp.st.options;
    match name {
        "e" | "errexit" => options.errexit = on,
        "u" | "nounset" => options.nounset = on,
        "x" | "xtrace" => options.xtrace = on,
        "f" | "noglob" => options.noglob = on,
        "C" | "noclobber" => options.noclobber = on,
        "pipefail" => options.pipefail = on,
        "E" | "errtrace" => options.errtrace = on,
        "T" | "functrace" => options.functrace = on,
        // Accepted and ignored.
        "h"
        | "B"
        | "H"
        | "v"
        | "verbose"
        | "hashall"
        | "braceexpand"
        | "histexpand"
        | "monitor"
        | "m"
        | "posix"
        | "emacs"
        | "vi"
        | "notify"
        | "b"
        | "a"
        | "allexport"
        | "k"
        | "t"
        | "P"
        | "physical"
        | "interactive-comments"
        | "ignoreeof"
        | "history" => {}
        _ => return false,
    }
    true
}

fn set(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() == 1 {
        let mut names: Vec<&String> = interp.st.vars.keys().collect();
        names.sort();
        let mut text = String::new();
        for name in names {
            if let Some(var) = interp.st.vars.get(name) {
                text.push_str(&declare_line(name, var, false));
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(0);
    }
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if arg == "--" {
            i += 1;
            interp.st.positional = Arc::new(argv[i..].to_vec());
            return Ok(0);
        }
        let (on, flags) = match arg.as_bytes().first() {
            Some(b'-') => (true, &arg[1..]),
            Some(b'+') => (false, &arg[1..]),
            _ => break,
        };
        if flags.is_empty() {
            // `set -` ends the options.
            i += 1;
            break;
        }
        for flag in flags.chars() {
            if flag == 'o' {
                i += 1;
                match argv.get(i) {
                    Some(name) => {
                        if !set_option(interp, name, on) {
                            interp.error(format_args!("set: {name}: invalid option name"))?;
                            return Ok(2);
                        }
                    }
                    None => {
                        let o = interp.st.options;
                        let mut text = String::new();
                        for (name, value) in [
                            ("errexit", o.errexit),
                            ("errtrace", o.errtrace),
                            ("functrace", o.functrace),
                            ("noclobber", o.noclobber),
                            ("noglob", o.noglob),
                            ("nounset", o.nounset),
                            ("pipefail", o.pipefail),
                            ("xtrace", o.xtrace),
                        ] {
                            text.push_str(&format!("{name:<15}\t{}\n", if value { "on" } else { "off" }));
                        }
                        interp.out(text.as_bytes())?;
                        return Ok(0);
                    }
                }
            } else if !set_option(interp, &flag.to_string(), on) {
                interp.error(format_args!("set: {}{flag}: invalid option", if on { '-' } else { '+' }))?;
                return Ok(2);
            }
        }
        i += 1;
    }
    if i < argv.len() {
        interp.st.positional = Arc::new(argv[i..].to_vec());
    }
    Ok(0)
}

fn shift(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let n = match argv.get(1) {
        None => 1,
        Some(text) => match text.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                interp.error(format_args!("shift: {text}: numeric argument required"))?;
                return Ok(1);
            }
        },
    };
    if n > interp.st.positional.len() {
        return Ok(1);
    }
    Arc::make_mut(&mut interp.st.positional).drain(..n);
    Ok(0)
}

fn unset(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut functions = false;
    let mut unset_ref = false;
    let mut status = 0;
    for arg in &argv[1..] {
        match arg.as_str() {
            "-f" => functions = true,
            "-v" => functions = false,
            "-n" => unset_ref = true,
            name => {
                // `unset ref` unsets what a nameref names; `unset -n ref` the reference.
                let target =
                    if unset_ref || functions { name.to_string() } else { interp.st.resolved(name).into_owned() };
                let name = target.as_str();
                if functions {
                    if interp.st.functions.contains_key(name) {
                        Arc::make_mut(&mut interp.st.functions).remove(name);
                    }
                    continue;
                }
                if let Some((base, index)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) {
                    unset_element(interp, base, index)?;
                    continue;
                }
                if interp.st.vars.get(name).is_some_and(|v| v.readonly) {
                    interp.error(format_args!("unset: {name}: cannot unset: readonly variable"))?;
                    status = 1;
                    continue;
                }
                if interp.st.vars.contains_key(name) {
                    interp.st.unset(name);
                } else if interp.st.functions.contains_key(name) {
                    Arc::make_mut(&mut interp.st.functions).remove(name);
                }
            }
        }
    }
    Ok(status)
}

fn unset_element(interp: &mut Interp<'_>, name: &str, index: &str) -> Result<(), Flow> {
    if index == "@" || index == "*" {
        interp.st.unset(name);
        return Ok(());
    }
    match interp.st.vars.get(name).map(|v| &v.value) {
        Some(Value::Assoc(_)) => {
            let key = interp.expand_string(index)?;
            if let Some(Value::Assoc(map)) = interp.st.vars_mut().get_mut(name).map(|v| &mut v.value) {
                map.shift_remove(&key);
            }
        }
        Some(Value::Indexed(_)) | Some(Value::Str(_)) => {
            let i = interp.arith_expand(index)?;
            let Some(i) = interp.resolve_index(name, i) else { return Ok(()) };
            let var = interp.st.vars_mut().get_mut(name);
            match var.map(|v| &mut v.value) {
                Some(Value::Indexed(map)) => {
                    map.remove(&i);
                }
                Some(Value::Str(_)) if i == 0 => interp.st.unset(name),
                _ => {}
            }
        }
        None => {}
    }
    Ok(())
}

// ----- declare, local, export, readonly -----

fn declaration_words(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let args: Vec<DeclArg> = argv[1..].iter().map(|arg| DeclArg::Word(arg.clone())).collect();
    declaration(interp, &argv[0], &args)
}

/// A word that reads `name=value`, `name+=value` or `name[i]=value` after
/// expansion (`declare "$n=1"`) is an assignment.
fn word_assignment(word: &str) -> Option<Assign> {
    let (lhs, value) = word.split_once('=')?;
    let (lhs, append) = match lhs.strip_suffix('+') {
        Some(lhs) => (lhs, true),
        None => (lhs, false),
    };
    let (name, index) = match lhs.strip_suffix(']').and_then(|l| l.split_once('[')) {
        Some((name, index)) => (name, Some(index.to_string())),
        None => (lhs, None),
    };
    is_name(name).then(|| Assign {
        name: name.to_string(),
        index,
        value: AssignValue::Scalar(value.to_string()),
        append,
    })
}

/// Whether `s` is a valid variable name.
pub(crate) fn is_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `declare`, `typeset`, `local`, `export`, `readonly` with their arguments.
pub(crate) fn declaration(interp: &mut Interp<'_>, name: &str, args: &[DeclArg]) -> Res {
    let mut array = false;
    let mut assoc = false;
    let mut integer = None;
    let mut export = (name == "export").then_some(true);
    let mut readonly = name == "readonly";
    let mut print = false;
    let mut functions = false;
    let mut global = false;
    let mut case: Option<u8> = None;
    let mut nameref: Option<bool> = None;
    let mut status = 0;
    let converted: Vec<DeclArg> = args
        .iter()
        .map(|arg| match arg {
            DeclArg::Word(w) if !w.starts_with(['-', '+']) => {
                word_assignment(w).map_or_else(|| arg.clone(), DeclArg::Assign)
            }
            other => other.clone(),
        })
        .collect();
    let mut items: Vec<&DeclArg> = Vec::new();
    for arg in &converted {
        match arg {
            DeclArg::Word(word)
                if (word.starts_with('-') || word.starts_with('+')) && word.len() > 1 && items.is_empty() =>
            {
                let on = word.starts_with('-');
                for flag in word[1..].chars() {
                    match flag {
                        'a' => array = on,
                        'A' => assoc = on,
                        'i' => integer = Some(on),
                        'x' => export = Some(on),
                        'r' => readonly = on,
                        'p' => print = true,
                        'f' | 'F' => functions = true,
                        'g' => global = true,
                        'u' => case = Some(if on { 1 } else { 0 }),
                        'l' => case = Some(if on { 2 } else { 0 }),
                        'n' => nameref = Some(on),
                        't' => {}
                        _ => {
                            interp.error(format_args!("{name}: {word}: invalid option"))?;
                            return Ok(2);
                        }
                    }
                }
            }
            other => items.push(other),
        }
    }
    let in_function = !interp.st.locals.is_empty();
    if name == "local" && !in_function {
        interp.error("local: can only be used in a function")?;
        return Ok(1);
    }
    let local = (name == "local" || (matches!(name, "declare" | "typeset") && in_function)) && !global;
    if functions {
        let mut text = String::new();
        for item in &items {
            if let DeclArg::Word(f) = item {
                if interp.st.functions.contains_key(f.as_str()) {
                    text.push_str(&format!("declare -f {f}\n"));
                } else {
                    status = 1;
                }
            }
        }
        if items.is_empty() {
            let mut names: Vec<&String> = interp.st.functions.keys().collect();
            names.sort();
            for f in names {
                text.push_str(&format!("declare -f {f}\n"));
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    if print || (items.is_empty() && name != "local") {
        let mut text = String::new();
        if items.is_empty() {
            let mut names: Vec<&String> = interp.st.vars.keys().collect();
            names.sort();
            for n in names {
                let Some(var) = interp.st.vars.get(n) else { continue };
                let wanted = match name {
                    "export" => var.exported,
                    "readonly" => var.readonly,
                    _ => {
                        (!array || matches!(var.value, Value::Indexed(_)))
                            && (!assoc || matches!(var.value, Value::Assoc(_)))
                            && (export != Some(true) || var.exported)
                    }
                };
                if wanted {
                    text.push_str(&declare_line(n, var, true));
                }
            }
        } else {
            for item in &items {
                let n = match item {
                    DeclArg::Word(w) => w.as_str(),
                    DeclArg::Assign(a) => a.name.as_str(),
                };
                match interp.st.vars.get(n) {
                    Some(var) => text.push_str(&declare_line(n, var, true)),
                    None => {
                        interp.error(format_args!("declare: {n}: not found"))?;
                        status = 1;
                    }
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    for item in items {
        let (var_name, assign) = match item {
            DeclArg::Word(w) => (w.as_str(), None),
            DeclArg::Assign(a) => (a.name.as_str(), Some(a)),
        };
        if !is_name(var_name) {
            interp.error(format_args!("{name}: `{var_name}': not a valid identifier"))?;
            status = 1;
            continue;
        }
        if local {
            interp.st.make_local(var_name);
            if assign.is_none() && !interp.st.locals.is_empty() {
                // `local x` hides the outer value: x is unset until assigned.
                if !array && !assoc {
                    interp.st.unset(var_name);
                }
            }
        }
        if interp.st.vars.get(var_name).is_some_and(|v| v.readonly) && assign.is_some() {
            interp.error(format_args!("{var_name}: readonly variable"))?;
            status = 1;
            continue;
        }
        if let Some(on) = nameref {
            match declare_nameref(interp, name, var_name, assign, on)? {
                0 => set_flags(interp, var_name, export, readonly),
                s => status = s,
            }
            continue;
        }
        // Without -n, a nameref's attributes and value go to the variable
        // it names (a local is the function's own new variable).
        let resolved = if local { var_name.to_string() } else { interp.st.resolved(var_name).into_owned() };
        let var_name = resolved.as_str();
        if array || assoc {
            let wanted_assoc = assoc;
            let current = interp.st.vars.get(var_name).map(|v| &v.value);
            let convert = match current {
                None => true,
                Some(Value::Assoc(_)) => !wanted_assoc,
                Some(Value::Indexed(_)) => wanted_assoc,
                Some(Value::Str(_)) => true,
            };
            if convert {
                let value = if wanted_assoc {
                    Value::Assoc(indexmap::IndexMap::new())
                } else {
                    let mut map = std::collections::BTreeMap::new();
                    if let Some(Value::Str(s)) = current {
                        map.insert(0, s.clone());
                    }
                    Value::Indexed(map)
                };
                interp.set_value(var_name, value);
            }
        }
        if let Some(on) = integer {
            if let Some(var) = interp.st.vars_mut().get_mut(var_name) {
                var.integer = on;
            } else if on {
                interp.st.vars_mut().insert(var_name.to_string(), Var { integer: true, ..Var::string(String::new()) });
                interp.st.unset(var_name);
                // bash keeps the attribute on an unset variable; we create it empty.
                interp.st.vars_mut().insert(var_name.to_string(), Var { integer: true, ..Var::string(String::new()) });
            }
        }
        if let Some(case) = case {
            match interp.st.vars_mut().get_mut(var_name) {
                Some(var) => var.case = case,
                None if case != 0 => {
                    interp.st.vars_mut().insert(var_name.to_string(), Var { case, ..Var::string(String::new()) });
                }
                None => {}
            }
        }
        if let Some(assign) = assign {
            if let Err(message) = interp.assign(assign, false) {
                interp.error(message)?;
                status = 1;
                continue;
            }
        }
        set_flags(interp, var_name, export, readonly);
    }
    Ok(status)
}

/// `declare -x`/`-r` on a variable that exists.
fn set_flags(interp: &mut Interp<'_>, var_name: &str, export: Option<bool>, readonly: bool) {
    if let Some(var) = interp.st.vars_mut().get_mut(var_name) {
        if let Some(on) = export {
            var.exported = on;
        }
        if readonly {
            var.readonly = true;
        }
    }
}

/// `declare -n ref[=target]` (and `+n`): makes `ref` a nameref, with bash's
/// checks on the target's name. The status.
fn declare_nameref(
    interp: &mut Interp<'_>,
    builtin: &str,
    var_name: &str,
    assign: Option<&Assign>,
    on: bool,
) -> Result<i32, Flow> {
    if !on {
        if let Some(var) = interp.st.vars_mut().get_mut(var_name) {
            var.nameref = false;
        }
        if let Some(assign) = assign {
            if let Err(message) = interp.assign(assign, false) {
                interp.error(message)?;
                return Ok(1);
            }
        }
        return Ok(0);
    }
    let target = match assign.map(|a| (&a.index, &a.value)) {
        None => None,
        Some((None, AssignValue::Scalar(value))) => Some(value.clone()),
        Some(_) => {
            interp.error(format_args!("{builtin}: {var_name}: reference variable cannot be an array"))?;
            return Ok(1);
        }
    };
    if let Some(target) = &target {
        let base = target.strip_suffix(']').and_then(|t| t.split_once('[')).map_or(target.as_str(), |(b, _)| b);
        if !is_name(base) {
            interp.error(format_args!("{builtin}: `{target}': invalid variable name for name reference"))?;
            return Ok(1);
        }
        if target == var_name {
            interp.error(format_args!("{builtin}: {var_name}: nameref variable self references not allowed"))?;
            return Ok(1);
        }
    }
    if matches!(interp.st.vars.get(var_name).map(|v| &v.value), Some(Value::Indexed(_) | Value::Assoc(_))) {
        interp.error(format_args!("{builtin}: {var_name}: reference variable cannot be an array"))?;
        return Ok(1);
    }
    let vars = interp.st.vars_mut();
    match vars.get_mut(var_name) {
        Some(var) => {
            var.nameref = true;
            if let Some(target) = target {
                var.value = Value::Str(target);
            }
        }
        None => {
            vars.insert(var_name.to_string(), Var { nameref: true, ..Var::string(target.unwrap_or_default()) });
        }
    }
    Ok(0)
}

/// `declare -p` style line for a variable (`set` style when `declare` is false).
fn declare_line(name: &str, var: &Var, declare: bool) -> String {
    let value = match &var.value {
        Value::Str(s) => double_quote(s),
        Value::Indexed(map) => {
            let items: Vec<String> = map.iter().map(|(k, v)| format!("[{k}]={}", double_quote(v))).collect();
            format!("({})", items.join(" "))
        }
        Value::Assoc(map) => {
            let items: Vec<String> = map.iter().map(|(k, v)| format!("[{k}]={} ", double_quote(v))).collect();
            format!("({})", items.concat())
        }
    };
    if !declare {
        let value = match &var.value {
            Value::Str(s) => single_quote_if_needed(s),
            _ => value,
        };
        return format!("{name}={value}\n");
    }
    format!("declare {} {name}={value}\n", attribute_string(var))
}

fn attribute_string(var: &Var) -> String {
    let mut flags = String::from("-");
    match var.value {
        Value::Indexed(_) => flags.push('a'),
        Value::Assoc(_) => flags.push('A'),
        Value::Str(_) => {}
    }
    if var.integer {
        flags.push('i');
    }
    if var.nameref {
        flags.push('n');
    }
    if var.readonly {
        flags.push('r');
    }
    if var.exported {
        flags.push('x');
    }
    if flags.len() == 1 {
        flags.push('-');
    }
    flags
}

/// `${v@a}`: the attribute letters.
pub(crate) fn attribute_flags(state: &State, name: &str) -> String {
    match state.var(name) {
        Some(var) => attribute_string(var).trim_start_matches('-').to_string(),
        None => String::new(),
    }
}

fn double_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `'text'`, with embedded quotes as `'\''` (`${v@Q}`).
pub(crate) fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn single_quote_if_needed(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-./:,=+@%^".contains(&b)) {
        s.to_string()
    } else {
        single_quote(s)
    }
}

/// An argument as `set -x` shows it.
pub(crate) fn quote_for_trace(s: &str) -> String {
    single_quote_if_needed(s)
}

// ----- read, mapfile -----

fn read(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut raw = false;
    let mut array: Option<String> = None;
    let mut delim = Some(b'\n');
    let mut count: Option<usize> = None;
    let mut unit: Option<String> = None;
    let mut names: Vec<String> = Vec::new();
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if names.is_empty() && arg.starts_with('-') && arg.len() > 1 {
            for (pos, flag) in arg[1..].char_indices() {
                let takes_value = matches!(flag, 'a' | 'd' | 'p' | 'n' | 'N' | 't' | 'u' | 'i');
                let value = if takes_value {
                    let rest = &arg[1 + pos + 1..];
                    if rest.is_empty() {
                        i += 1;
                        argv.get(i).cloned()
                    } else {
                        Some(rest.to_string())
                    }
                } else {
                    None
                };
                match flag {
                    'r' => raw = true,
                    's' | 'e' => {}
                    'a' => array = value,
                    'd' => delim = value.and_then(|v| v.bytes().next()).or(None),
                    'n' | 'N' => count = value.and_then(|v| v.parse().ok()),
                    'u' => unit = value,
                    'p' | 't' | 'i' => {}
                    _ => return usage(interp, "read", format_args!("-{flag}: invalid option")),
                }
                if takes_value {
                    break;
                }
            }
        } else {
            names.push(arg.clone());
        }
        i += 1;
    }
    // Read up to the delimiter (or `count` characters), backslash escapes
    // honoured unless -r.
    // Byte by byte from a pipe, as bash reads one: the rest stays for the
    // next reader. `read -u N`: fd N (0, or 3 to 9 opened for reading).
    let input_index = match unit {
        None => interp.fd.input,
        Some(unit) => match unit.parse::<i32>().ok().and_then(|n| interp.input_fd(n)) {
            Some(index) => index,
            None => {
                interp.error(format_args!("read: {unit}: invalid file descriptor: Bad file descriptor"))?;
                return Ok(1);
            }
        },
    };
    let input = &mut interp.ins[input_index];
    let mut line: Vec<u8> = Vec::new();
    let mut escaped: Vec<bool> = Vec::new();
    let mut found_delim = false;
    while count.is_none_or(|c| line.len() < c) {
        let Some(b) = input.next_byte()? else { break };
        if Some(b) == delim {
            found_delim = true;
            break;
        }
        if b == b'\\' && !raw {
            match input.peek_byte()? {
                Some(b'\n') => {
                    input.next_byte()?;
                }
                Some(next) => {
                    input.next_byte()?;
                    line.push(next);
                    escaped.push(true);
                }
                None => {}
            }
        } else {
            line.push(b);
            escaped.push(false);
        }
        if line.len() > interp.rt.limits.max_memory_bytes {
            return Err(Flow::Limit(super::LimitHit::Memory));
        }
    }
    if count.is_some_and(|c| line.len() >= c) {
        found_delim = true;
    }
    let status = i32::from(!found_delim);
    let text = String::from_utf8_lossy(&line).into_owned();
    let ifs = interp.st.get("IFS").map_or_else(|| " \t\n".to_string(), str::to_string);
    if let Some(array) = array {
        let fields = split_read(&text, &escaped, &ifs, usize::MAX);
        let map = fields.into_iter().enumerate().map(|(i, f)| (i as i64, f)).collect();
        interp.set_value(&array, Value::Indexed(map));
        return Ok(status);
    }
    if names.is_empty() {
        // REPLY keeps the line whole (no IFS trimming).
        if let Err(message) = interp.set_var("REPLY", text) {
            interp.error(message)?;
            return Ok(1);
        }
        return Ok(status);
    }
    let fields = split_read(&text, &escaped, &ifs, names.len());
    for (k, name) in names.iter().enumerate() {
        let value = fields.get(k).cloned().unwrap_or_default();
        if !is_name(name) {
            interp.error(format_args!("read: `{name}': not a valid identifier"))?;
            return Ok(1);
        }
        if let Err(message) = interp.set_var(name, value) {
            interp.error(message)?;
            return Ok(1);
        }
    }
    Ok(status)
}

/// Splits a line read by `read` into at most `n` fields; the last one keeps
/// the rest of the line (trailing IFS whitespace removed).
fn split_read(text: &str, escaped: &[bool], ifs: &str, n: usize) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Map char positions to the escape flags (which are per byte).
    let is_sep = |idx: usize, c: char| ifs.contains(c) && !escaped.get(idx).copied().unwrap_or(false);
    let is_ws = |c: char| matches!(c, ' ' | '\t' | '\n') && ifs.contains(c);
    let mut fields = Vec::new();
    let mut i = 0;
    // Leading IFS whitespace.
    while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
        i += 1;
    }
    while i < chars.len() {
        if fields.len() + 1 == n {
            // The rest of the line, trailing IFS whitespace removed.
            let mut end = chars.len();
            while end > i && is_ws(chars[end - 1].1) && is_sep(chars[end - 1].0, chars[end - 1].1) {
                end -= 1;
            }
            let start_byte = chars[i].0;
            let end_byte = if end < chars.len() { chars[end].0 } else { text.len() };
            fields.push(text[start_byte..end_byte].to_string());
            return fields;
        }
        let mut field = String::new();
        while i < chars.len() && !is_sep(chars[i].0, chars[i].1) {
            field.push(chars[i].1);
            i += 1;
        }
        fields.push(field);
        // Skip the separator: whitespace, at most one non-whitespace
        // delimiter, whitespace.
        while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
            i += 1;
        }
        if i < chars.len() && is_sep(chars[i].0, chars[i].1) && !is_ws(chars[i].1) {
            i += 1;
            while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
                i += 1;
            }
        }
    }
    fields
}

fn mapfile(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut strip = false;
    let mut delim = b'\n';
    let mut max: Option<usize> = None;
    let mut skip = 0usize;
    let mut name = "MAPFILE".to_string();
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "-t" => strip = true,
            "-d" => {
                i += 1;
                delim = argv.get(i).and_then(|d| d.bytes().next()).unwrap_or(0);
            }
            "-n" => {
                i += 1;
                max = argv.get(i).and_then(|v| v.parse().ok()).filter(|&v| v > 0);
            }
            "-s" => {
                i += 1;
                skip = argv.get(i).and_then(|v| v.parse().ok()).unwrap_or(0);
            }
            "-u" | "-C" | "-c" | "-O" => i += 1,
            other => name = other.to_string(),
        }
        i += 1;
    }
    let input = &mut interp.ins[interp.fd.input];
    let mut items = std::collections::BTreeMap::new();
    let mut index = 0i64;
    let mut seen = 0usize;
    let mut bytes = 0usize;
    while input.fill()? {
        if max.is_some_and(|m| index as usize >= m) {
            break;
        }
        let mut item = Vec::new();
        loop {
            let rest = input.rest();
            match memchr::memchr(delim, rest) {
                Some(at) => {
                    item.extend_from_slice(&rest[..=at]);
                    input.consume(at + 1);
                    break;
                }
                None => {
                    item.extend_from_slice(rest);
                    let n = rest.len();
                    input.consume(n);
                    if !input.fill()? {
                        break;
                    }
                }
            }
        }
        bytes += item.len();
        if bytes > interp.rt.limits.max_memory_bytes {
            return Err(Flow::Limit(super::LimitHit::Memory));
        }
        if strip && item.last() == Some(&delim) {
            item.pop();
        }
        seen += 1;
        if seen <= skip {
            continue;
        }
        items.insert(index, String::from_utf8_lossy(&item).into_owned());
        index += 1;
    }
    interp.set_value(&name, Value::Indexed(items));
    Ok(0)
}

// ----- printf -v -----

/// `printf -v NAME FORMAT [ARGUMENT]...` stores the output in a variable (a
/// plain name: `printf -v 'a[1]'` is refused); any other `printf` runs the
/// command of the table.
fn printf(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.get(1).map(String::as_str) != Some("-v") {
        return match commands::lookup("printf") {
            Some(command) => interp.run_table(command, argv),
            None => Ok(127),
        };
    }
    let Some(name) = argv.get(2) else {
        interp.error("printf: -v: option requires an argument")?;
        interp.err(b"printf: usage: printf [-v var] format [arguments]\n")?;
        return Ok(2);
    };
    // `-v name` or `-v 'name[index]'` (an element of an indexed or
    // associative array, as bash allows).
    let target = match name.strip_suffix(']').and_then(|head| head.split_once('[')) {
        Some((base, index)) if is_name(base) && !index.is_empty() => (base, Some(index.to_string())),
        _ if is_name(name) => (name.as_str(), None),
        _ => {
            interp.error(format_args!("printf: `{name}': not a valid identifier"))?;
            return Ok(2);
        }
    };
    let rest = match argv.get(3).map(String::as_str) {
        Some("--") => &argv[4..],
        _ => &argv[3..],
    };
    let Some((format, args)) = rest.split_first() else {
        interp.err(b"printf: usage: printf [-v var] format [arguments]\n")?;
        return Ok(2);
    };
    let formatted = commands::printf_format(
        format.as_bytes(),
        args,
        &|| interp.rt.check(),
        interp.rt.limits.max_output_bytes.saturating_mul(4),
    )?;
    for message in &formatted.errors {
        interp.error(format_args!("printf: {message}"))?;
    }
    let value = AssignValue::Scalar(String::from_utf8_lossy(&formatted.output).into_owned());
    let assign = Assign { name: target.0.to_string(), index: target.1, value, append: false };
    if let Err(message) = interp.assign(&assign, false) {
        interp.error(message)?;
        return Ok(1);
    }
    Ok(formatted.status)
}

// ----- eval, source, trap, let -----

fn eval(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let script = argv[1..].join(" ");
    if script.trim().is_empty() {
        return Ok(0);
    }
    nested(interp, |i| i.eval_string(&script))
}

/// Runs `f` one level deeper (function depth also bounds `eval` and `source`).
fn nested(interp: &mut Interp<'_>, f: impl FnOnce(&mut Interp<'_>) -> Res) -> Res {
    if interp.depth >= interp.rt.limits.max_function_depth {
        return Err(Flow::Limit(super::LimitHit::FunctionDepth));
    }
    interp.rt.check_stack()?;
    interp.depth += 1;
    let result = f(interp);
    interp.depth -= 1;
    result
}

fn source(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let Some(file) = argv.get(1) else {
        interp.error(format_args!("{}: filename argument required", argv[0]))?;
        return Ok(2);
    };
    let path = storage_path(&interp.st.cwd, file);
    // `source <(cmd)`: a process substitution's path.
    let data = match interp.proc_fd_input(&path).map_or_else(|| interp.rt.storage.read(&path), Ok) {
        Ok(data) => data,
        Err(error) => {
            interp.error(format_args!("{file}: {}", super::command::error_reason(&error)))?;
            return Ok(1);
        }
    };
    let script = String::from_utf8_lossy(&data).into_owned();
    let saved_positional = if argv.len() > 2 {
        Some(std::mem::replace(&mut interp.st.positional, Arc::new(argv[2..].to_vec())))
    } else {
        None
    };
    interp.sourcing += 1;
    let result = nested(interp, |i| i.eval_string(&script));
    interp.sourcing -= 1;
    if let Some(saved) = saved_positional {
        interp.st.positional = saved;
    }
    let result = match result {
        Err(Flow::Return(status)) => Ok(status),
        other => other,
    };
    // `trap … RETURN` runs when a sourced file finishes, as after a function.
    if let (Ok(status), Some((_, action))) = (&result, interp.st.traps.get(&super::state::RETURN_TRAP).cloned()) {
        if !interp.st.in_trap {
            interp.run_trap_action(&action, *status)?;
        }
    }
    result
}

fn trap(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let args = &argv[1..];
    if args.is_empty() || args[0] == "-p" {
        let names = if args.is_empty() { &[][..] } else { &args[1..] };
        let mut text = String::new();
        let mut status = 0;
        let line = |name: &str, action: &str| format!("trap -- {} {name}\n", single_quote(action));
        if names.is_empty() {
            if let Some(action) = interp.st.exit_trap.clone() {
                text.push_str(&line("EXIT", &action));
            }
            for (name, action) in interp.st.traps.values() {
                text.push_str(&line(name, action));
            }
        }
        for name in names {
            match super::state::trap_number(name) {
                Some((0, _)) => {
                    if let Some(action) = interp.st.exit_trap.clone() {
                        text.push_str(&line("EXIT", &action));
                    }
                }
                Some((n, _)) => {
                    if let Some((name, action)) = interp.st.traps.get(&n) {
                        text.push_str(&line(name, action));
                    }
                }
                None => {
                    interp.error(format_args!("trap: {name}: invalid signal specification"))?;
                    status = 1;
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    if args[0] == "-l" {
        return Ok(0);
    }
    let args = if args[0] == "--" { &args[1..] } else { args };
    // `trap N…` with a number first resets those signals, as `trap - N…`.
    let reset_all = args.len() == 1 || args[0].parse::<u32>().is_ok();
    let (action, signals) = if reset_all || args[0] == "-" {
        (None, if reset_all { args } else { &args[1..] })
    } else {
        (Some(args[0].clone()), &args[1..])
    };
    let mut status = 0;
    for signal in signals {
        match super::state::trap_number(signal) {
            Some((0, _)) => {
                interp.st.exit_trap = action.clone().filter(|a| !a.is_empty()).map(Arc::from);
            }
            Some((n, name)) => match &action {
                Some(action) => {
                    interp.st.traps.insert(n, (name, Arc::from(action.as_str())));
                }
                None => {
                    interp.st.traps.remove(&n);
                }
            },
            None => {
                interp.error(format_args!("trap: {signal}: invalid signal specification"))?;
                status = 1;
            }
        }
    }
    Ok(status)
}

fn let_(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() < 2 {
        interp.error("let: expression expected")?;
        return Ok(1);
    }
    let mut last = 0;
    for expr in &argv[1..] {
        match interp.arith_value(expr) {
            Ok(v) => last = v,
            Err(error) => {
                let message = Interp::arith_message(expr, &error);
                interp.error(format_args!("let: {message}"))?;
                return Ok(1);
            }
        }
    }
    Ok(i32::from(last == 0))
}

// ----- type, command -----

enum Kind {
    Function,
    Builtin,
    Keyword,
    File,
}

fn kind_of(interp: &Interp<'_>, name: &str, functions: bool) -> Option<Kind> {
    if KEYWORDS.contains(&name) {
        Some(Kind::Keyword)
    } else if functions && interp.st.functions.contains_key(name) {
        Some(Kind::Function)
    } else if lookup(name).is_some() {
        Some(Kind::Builtin)
    } else if commands::lookup(name).is_some() {
        Some(Kind::File)
    } else {
        None
    }
}

fn type_(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut terse = false;
    let mut path_only = false;
    let mut status = 0;
    let mut text = String::new();
    for arg in &argv[1..] {
        match arg.as_str() {
            "-t" => terse = true,
            "-p" | "-P" => path_only = true,
            "-a" | "-f" => {}
            name => match kind_of(interp, name, true) {
                Some(kind) => {
                    let line = match (kind, terse, path_only) {
                        (Kind::File, _, true) => format!("/usr/bin/{name}\n"),
                        (_, _, true) => String::new(),
                        (Kind::Function, true, _) => "function\n".to_string(),
                        (Kind::Builtin, true, _) => "builtin\n".to_string(),
                        (Kind::Keyword, true, _) => "keyword\n".to_string(),
                        (Kind::File, true, _) => "file\n".to_string(),
                        (Kind::Function, false, _) => format!("{name} is a function\n"),
                        (Kind::Builtin, false, _) => format!("{name} is a shell builtin\n"),
                        (Kind::Keyword, false, _) => format!("{name} is a shell keyword\n"),
                        (Kind::File, false, _) => format!("{name} is /usr/bin/{name}\n"),
                    };
                    text.push_str(&line);
                }
                None => {
                    status = 1;
                    if !terse && !path_only {
                        interp.out(text.as_bytes())?;
                        text.clear();
                        interp.error(format_args!("type: {name}: not found"))?;
                    }
                }
            },
        }
    }
    interp.out(text.as_bytes())?;
    Ok(status)
}

fn command(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut i = 1;
    let mut verbose = None;
    while let Some(arg) = argv.get(i) {
        match arg.as_str() {
            "-v" => verbose = Some(false),
            "-V" => verbose = Some(true),
            "-p" => {}
            "--" => {
                i += 1;
                break;
            }
            _ => break,
        }
        i += 1;
    }
    let rest = &argv[i.min(argv.len())..];
    if let Some(long) = verbose {
        let mut status = 0;
        for name in rest {
            let line = match kind_of(interp, name, true) {
                Some(Kind::File) => {
                    if long {
                        format!("{name} is /usr/bin/{name}\n")
                    } else {
                        format!("/usr/bin/{name}\n")
                    }
                }
                Some(Kind::Function) if long => format!("{name} is a function\n"),
                Some(Kind::Builtin) if long => format!("{name} is a shell builtin\n"),
                Some(Kind::Keyword) if long => format!("{name} is a shell keyword\n"),
                Some(_) => format!("{name}\n"),
                None => {
                    status = 1;
                    if long {
                        interp.error(format_args!("command: {name}: not found"))?;
                    }
                    continue;
                }
            };
            interp.out(line.as_bytes())?;
        }
        return Ok(status);
    }
    if rest.is_empty() {
        return Ok(0);
    }
    // `command name`: skip functions.
    let name = rest[0].as_str();
    if let Some(builtin) = lookup(name) {
        return builtin(interp, rest);
    }
    let saved = interp.st.functions.clone();
    if saved.contains_key(name) {
        let mut without = (*saved).clone();
        without.remove(name);
        interp.st.functions = Arc::new(without);
        let result = interp.dispatch(rest, None);
        interp.st.functions = saved;
        return result;
    }
    interp.dispatch(rest, None)
}

/// `compgen -c [prefix]` (commands: builtins, functions, the table),
/// `compgen -v` (variables), `compgen -A function`.
fn compgen(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut kind = None;
    let mut prefix = "";
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "-c" => kind = Some("command"),
            "-v" => kind = Some("variable"),
            "-A" => {
                i += 1;
                kind = argv.get(i).map(String::as_str).map(|k| if k == "function" { "function" } else { "other" });
            }
            word => prefix = word,
        }
        i += 1;
    }
    let mut names: Vec<String> = match kind {
        Some("command") => {
            let mut all: Vec<String> = commands::names().into_iter().map(String::from).collect();
            all.extend(BUILTINS.iter().map(|b| b.to_string()));
            all.extend(KEYWORDS.iter().map(|k| k.to_string()));
            all.extend(interp.st.functions.keys().cloned());
            all
        }
        Some("variable") => interp.st.vars.keys().cloned().collect(),
        Some("function") => interp.st.functions.keys().cloned().collect(),
        _ => {
            interp.error("compgen: only -c, -v and -A function are supported")?;
            return Ok(2);
        }
    };
    names.retain(|n| n.starts_with(prefix));
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Ok(1);
    }
    let mut text = names.join("\n");
    text.push('\n');
    interp.out(text.as_bytes())?;
    Ok(0)
}

/// `shopt -s/-u/-q/-p name…`: `nullglob`, `dotglob`, `lastpipe`,
/// `extglob`, `globstar`, `failglob`, `nocaseglob` and `nocasematch` work;
/// bash's other options are accepted and ignored (shown as off), an unknown
/// name is an error (status 1). `extglob` changes the parser from the next
/// line on, as in bash.
fn shopt(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut mode = None;
    let mut quiet = false;
    let mut print = false;
    let mut status = 0;
    let mut names = Vec::new();
    for arg in &argv[1..] {
        match arg.as_str() {
            "-s" => mode = Some(true),
            "-u" => mode = Some(false),
            "-q" => quiet = true,
            "-p" => print = true,
            "-o" => {}
            name => names.push(name),
        }
    }
    let mut text = String::new();
    for name in names {
        let options = &mut interp.st.options;
        let slot = match name {
            "nullglob" => Some(&mut options.nullglob),
            "dotglob" => Some(&mut options.dotglob),
            "lastpipe" => Some(&mut options.lastpipe),
            "extglob" => Some(&mut options.extglob),
            "globstar" => Some(&mut options.globstar),
            "failglob" => Some(&mut options.failglob),
            "nocaseglob" => Some(&mut options.nocaseglob),
            "nocasematch" => Some(&mut options.nocasematch),
            _ => None,
        };
        let on = match (slot, mode) {
            (Some(slot), Some(on)) => {
                *slot = on;
                continue;
            }
            (Some(slot), None) => *slot,
            (None, _) if !BASH_SHOPT_NAMES.contains(&name) => {
                interp.error(format_args!("shopt: {name}: invalid shell option name"))?;
                status = 1;
                continue;
            }
            (None, Some(_)) => continue,
            (None, None) => BASH_SHOPT_ON.contains(&name),
        };
        if !on {
            status = 1;
        }
        if print {
            text.push_str(&format!("shopt {} {name}\n", if on { "-s" } else { "-u" }));
        } else if !quiet {
            text.push_str(&format!("{name:<15}\t{}\n", if on { "on" } else { "off" }));
        }
    }
    interp.popts.enable_extended_globbing = interp.st.options.extglob;
    interp.out(text.as_bytes())?;
    Ok(status)
}

/// The options on in a fresh `bash -c` (and here: what they govern is
/// bash's default behaviour or does not apply).
const BASH_SHOPT_ON: &[&str] = &[
    "checkwinsize",
    "cmdhist",
    "complete_fullquote",
    "extquote",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "hostcomplete",
    "interactive_comments",
    "patsub_replacement",
    "progcomp",
    "promptvars",
    "sourcepath",
];

/// The names bash 5.2's `shopt` knows.
const BASH_SHOPT_NAMES: &[&str] = &[
    "autocd",
    "assoc_expand_once",
    "cdable_vars",
    "cdspell",
    "checkhash",
    "checkjobs",
    "checkwinsize",
    "cmdhist",
    "compat31",
    "compat32",
    "compat40",
    "compat41",
    "compat42",
    "compat43",
    "compat44",
    "complete_fullquote",
    "direxpand",
    "dirspell",
    "dotglob",
    "execfail",
    "expand_aliases",
    "extdebug",
    "extglob",
    "extquote",
    "failglob",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "globstar",
    "gnu_errfmt",
    "histappend",
    "histreedit",
    "histverify",
    "hostcomplete",
    "huponexit",
    "inherit_errexit",
    "interactive_comments",
    "lastpipe",
    "lithist",
    "localvar_inherit",
    "localvar_unset",
    "login_shell",
    "mailwarn",
    "no_empty_cmd_completion",
    "nocaseglob",
    "nocasematch",
    "noexpand_translation",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "progcomp_alias",
    "promptvars",
    "restricted_shell",
    "shift_verbose",
    "sourcepath",
    "varredir_close",
    "xpg_echo",
];

// ----- getopts -----

fn getopts(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() < 3 {
        interp.error("getopts: usage: getopts optstring name [arg ...]")?;
        return Ok(2);
    }
    let spec = argv[1].as_str();
    let name = argv[2].clone();
    let args: Vec<String> = if argv.len() > 3 { argv[3..].to_vec() } else { interp.st.positional.to_vec() };
    let silent = spec.starts_with(':');
    let spec = spec.trim_start_matches(':');
    let optind: usize = interp.st.get("OPTIND").and_then(|v| v.parse().ok()).filter(|&v| v >= 1).unwrap_or(1);
    let mut sub: usize = interp.st.get("_AIKIDO_OPTPOS").and_then(|v| v.parse().ok()).unwrap_or(0);
    let set = |interp: &mut Interp<'_>, n: &str, v: String| interp.set_var(n, v).map_err(|_| ());
    let Some(arg) = args.get(optind - 1) else {
        let _ = set(interp, &name, "?".to_string());
        return Ok(1);
    };
    if sub == 0 {
        if arg == "--" {
            let _ = set(interp, "OPTIND", (optind + 1).to_string());
            let _ = set(interp, &name, "?".to_string());
            return Ok(1);
        }
        if !arg.starts_with('-') || arg.len() < 2 {
            let _ = set(interp, &name, "?".to_string());
            return Ok(1);
        }
        sub = 1;
    }
    let chars: Vec<char> = arg.chars().collect();
    let opt = chars.get(sub).copied().unwrap_or('?');
    let mut next_optind = optind;
    let mut next_sub = sub + 1;
    if next_sub >= chars.len() {
        next_optind += 1;
        next_sub = 0;
    }
    let position = spec.find(opt).filter(|_| opt != ':');
    let status = match position {
        None => {
            if silent {
                let _ = set(interp, "OPTARG", opt.to_string());
            } else {
                interp.unset_quiet("OPTARG");
                interp.error(format_args!("illegal option -- {opt}"))?;
            }
            let _ = set(interp, &name, "?".to_string());
            0
        }
        Some(p) => {
            let takes = spec[p + opt.len_utf8()..].starts_with(':');
            if takes {
                let value = if next_sub != 0 {
                    let v: String = chars[next_sub..].iter().collect();
                    next_optind += 1;
                    next_sub = 0;
                    Some(v)
                } else {
                    let v = args.get(next_optind - 1).cloned();
                    if v.is_some() {
                        next_optind += 1;
                    }
                    v
                };
                match value {
                    Some(v) => {
                        let _ = set(interp, "OPTARG", v);
                        let _ = set(interp, &name, opt.to_string());
                    }
                    None => {
                        if silent {
                            let _ = set(interp, "OPTARG", opt.to_string());
                            let _ = set(interp, &name, ":".to_string());
                        } else {
                            interp.error(format_args!("option requires an argument -- {opt}"))?;
                            let _ = set(interp, &name, "?".to_string());
                        }
                    }
                }
            } else {
                let _ = set(interp, &name, opt.to_string());
            }
            0
        }
    };
    let _ = set(interp, "OPTIND", next_optind.to_string());
    let _ = set(interp, "_AIKIDO_OPTPOS", next_sub.to_string());
    Ok(status)
}

impl Interp<'_> {
    fn unset_quiet(&mut self, name: &str) {
        self.st.unset(name);
    }
}

// ----- bash, sh, exec, script files -----

fn bash(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut options = Vec::new();
    let mut command: Option<String> = None;
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if arg == "-c" {
            i += 1;
            match argv.get(i) {
                Some(c) => command = Some(c.clone()),
                None => return usage(interp, &argv[0], "-c: option requires an argument"),
            }
            i += 1;
            break;
        } else if arg == "-o" {
            i += 1;
            if let Some(o) = argv.get(i) {
                options.push((o.clone(), true));
            }
        } else if arg == "--" {
            i += 1;
            break;
        } else if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty() && !f.starts_with('-')) {
            for flag in flags.chars() {
                if flag == 'c' {
                    i += 1;
                    match argv.get(i) {
                        Some(c) => command = Some(c.clone()),
                        None => return usage(interp, &argv[0], "-c: option requires an argument"),
                    }
                } else {
                    options.push((flag.to_string(), true));
                }
            }
            if command.is_some() {
                i += 1;
                break;
            }
        } else if arg.starts_with("--") {
            // --norc, --noprofile…: accepted.
        } else {
            break;
        }
        i += 1;
    }
    let rest = &argv[i.min(argv.len())..];
    let mut arg0 = None;
    let from_file = command.is_none();
    let (script, positional) = match command {
        Some(c) => {
            arg0 = rest.first().cloned();
            (c, rest.get(1..).map(<[String]>::to_vec).unwrap_or_default())
        }
        None => match rest.first() {
            Some(file) => {
                arg0 = Some(file.clone());
                let path = storage_path(&interp.st.cwd, file);
                match interp.rt.storage.read(&path) {
                    Ok(data) => (String::from_utf8_lossy(&data).into_owned(), rest[1..].to_vec()),
                    Err(error) => {
                        let message = format!("{}: {file}: {}\n", argv[0], super::command::error_reason(&error));
                        interp.err(message.as_bytes())?;
                        return Ok(127);
                    }
                }
            }
            None => {
                let input = &mut interp.ins[interp.fd.input];
                let mut data = Vec::new();
                while input.fill()? {
                    data.extend_from_slice(&input.take_rest());
                    if data.len() > interp.rt.limits.max_memory_bytes {
                        return Err(Flow::Limit(super::LimitHit::Memory));
                    }
                }
                (String::from_utf8_lossy(&data).into_owned(), Vec::new())
            }
        },
    };
    if options.iter().any(|(o, _)| o == "n" || o == "noexec") {
        let file = if from_file { arg0.as_deref() } else { None };
        return syntax_check(interp, &script, file);
    }
    run_in_subshell(interp, &script, arg0, positional, &options)
}

/// `bash -n`: parses the script and runs nothing; a syntax error is
/// reported as bash does (`FILE: line N: …` for a file) with status 2.
fn syntax_check(interp: &mut Interp<'_>, script: &str, file: Option<&str>) -> Res {
    match super::parse::parse_program(script, &interp.popts) {
        Ok(_) => Ok(0),
        Err(message) => {
            let message = match file {
                Some(file) => message.replace("bash: -c: ", &format!("{file}: ")),
                None => message,
            };
            interp.err(message.as_bytes())?;
            Ok(2)
        }
    }
}

fn run_in_subshell(
    interp: &mut Interp<'_>,
    script: &str,
    arg0: Option<String>,
    positional: Vec<String>,
    options: &[(String, bool)],
) -> Res {
    nested(interp, |interp| {
        interp.subshell(|s| {
            if let Some(arg0) = arg0 {
                s.st.arg0 = Arc::from(arg0);
            }
            s.st.positional = Arc::new(positional);
            s.st.exit_trap = None;
            for (name, on) in options {
                set_option(s, name, *on);
            }
            let saved_cond = std::mem::replace(&mut s.cond, 0);
            let saved_loops = std::mem::replace(&mut s.loops, 0);
            let result = s.eval_string(script);
            s.cond = saved_cond;
            s.loops = saved_loops;
            result
        })
    })
}

/// `./script.sh args`: runs a file of the storage in a subshell.
pub(crate) fn run_script_file(interp: &mut Interp<'_>, name: &str, args: &[String]) -> Res {
    let path = storage_path(&interp.st.cwd, name);
    match interp.rt.storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {
            interp.error(format_args!("{name}: Is a directory"))?;
            return Ok(126);
        }
        Ok(_) => {}
        Err(_) => {
            interp.error(format_args!("{name}: No such file or directory"))?;
            return Ok(127);
        }
    }
    let data = match interp.rt.storage.read(&path) {
        Ok(data) => data,
        Err(error) => {
            interp.error(format_args!("{name}: {}", super::command::error_reason(&error)))?;
            return Ok(126);
        }
    };
    let script = String::from_utf8_lossy(&data).into_owned();
    run_in_subshell(interp, &script, Some(name.to_string()), args.to_vec(), &[])
}

fn exec(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() < 2 {
        return Ok(0);
    }
    let status = interp.dispatch(&argv[1..], None)?;
    Err(Flow::Exit(status))
}

// ----- test, [ and [[ ]] -----

fn test(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let name = argv[0].as_str();
    let mut args = &argv[1..];
    if name == "[" {
        if args.last().map(String::as_str) != Some("]") {
            interp.error("[: missing `]'")?;
            return Ok(2);
        }
        args = &args[..args.len() - 1];
    }
    if args.len() > 512 {
        interp.error(format_args!("{name}: too many arguments"))?;
        return Ok(2);
    }
    let expr = match brush_parser::test_command::parse(args) {
        Ok(expr) => expr,
        Err(_) => {
            let message = match args.len() {
                1 | 2 => format!("{}: unary operator expected", args[0]),
                3 => format!("{}: binary operator expected", args[1]),
                _ => "too many arguments".to_string(),
            };
            interp.error(format_args!("{name}: {message}"))?;
            return Ok(2);
        }
    };
    match eval_test(interp, &expr) {
        Ok(true) => Ok(0),
        Ok(false) => Ok(1),
        Err(message) => {
            interp.error(format_args!("{name}: {message}"))?;
            Ok(2)
        }
    }
}

fn eval_test(interp: &mut Interp<'_>, expr: &TestExpr) -> Result<bool, String> {
    if super::stack::too_deep() {
        return Err("expression nested too deeply".to_string());
    }
    Ok(match expr {
        TestExpr::False => false,
        TestExpr::Literal(s) => !s.is_empty(),
        TestExpr::And(a, b) => eval_test(interp, a)? && eval_test(interp, b)?,
        TestExpr::Or(a, b) => eval_test(interp, a)? || eval_test(interp, b)?,
        TestExpr::Not(a) => !eval_test(interp, a)?,
        TestExpr::Parenthesized(a) => eval_test(interp, a)?,
        TestExpr::UnaryTest(predicate, operand) => unary(interp, predicate, operand),
        TestExpr::BinaryTest(predicate, left, right) => match predicate {
            BinaryPredicate::StringExactlyMatchesPattern | BinaryPredicate::StringExactlyMatchesString => left == right,
            BinaryPredicate::StringDoesNotExactlyMatchPattern | BinaryPredicate::StringDoesNotExactlyMatchString => {
                left != right
            }
            _ => binary_common(interp, predicate, left, right, false)?,
        },
    })
}

/// A file or string test shared by `test` and `[[ ]]`.
fn unary(interp: &mut Interp<'_>, predicate: &UnaryPredicate, operand: &str) -> bool {
    let storage = interp.rt.storage;
    let path = || storage_path(&interp.st.cwd, operand);
    let stat = || if operand.is_empty() { None } else { storage.stat(&path()).ok() };
    match predicate {
        UnaryPredicate::StringHasZeroLength => operand.is_empty(),
        UnaryPredicate::StringHasNonZeroLength => !operand.is_empty(),
        UnaryPredicate::FileExists => stat().is_some(),
        UnaryPredicate::FileExistsAndIsDir => stat().is_some_and(|m| m.kind == FileKind::Directory),
        UnaryPredicate::FileExistsAndIsRegularFile => stat().is_some_and(|m| m.kind == FileKind::File),
        UnaryPredicate::FileExistsAndIsSymlink => {
            !operand.is_empty() && storage.lstat(&path()).is_ok_and(|m| m.kind == FileKind::Symlink)
        }
        // A directory is never empty on disk (bash sees its 4096-byte size).
        UnaryPredicate::FileExistsAndIsNotZeroLength => {
            stat().is_some_and(|m| m.size > 0 || m.kind == crate::storage::FileKind::Directory)
        }
        UnaryPredicate::FileExistsAndIsReadable => stat().is_some_and(|m| m.mode & 0o444 != 0),
        UnaryPredicate::FileExistsAndIsWritable => stat().is_some_and(|m| m.mode & 0o222 != 0),
        UnaryPredicate::FileExistsAndIsExecutable => {
            stat().is_some_and(|m| m.kind == FileKind::Directory || m.mode & 0o111 != 0)
        }
        UnaryPredicate::FileExistsAndOwnedByEffectiveUserId | UnaryPredicate::FileExistsAndOwnedByEffectiveGroupId => {
            stat().is_some()
        }
        UnaryPredicate::ShellOptionEnabled => {
            let o = interp.st.options;
            match operand {
                "errexit" => o.errexit,
                "errtrace" => o.errtrace,
                "functrace" => o.functrace,
                "nounset" => o.nounset,
                "pipefail" => o.pipefail,
                "xtrace" => o.xtrace,
                "noglob" => o.noglob,
                "noclobber" => o.noclobber,
                _ => false,
            }
        }
        UnaryPredicate::ShellVariableIsSetAndAssigned => var_is_set(interp, operand),
        UnaryPredicate::ShellVariableIsSetAndNameRef => {
            interp.st.vars.get(operand).is_some_and(|v| v.nameref && v.value.scalar().is_some_and(|t| !t.is_empty()))
        }
        _ => false,
    }
}

fn var_is_set(interp: &mut Interp<'_>, operand: &str) -> bool {
    let resolved = interp.st.resolved(operand).into_owned();
    let operand = resolved.as_str();
    if let Some((name, index)) = operand.strip_suffix(']').and_then(|n| n.split_once('[')) {
        let i = match interp.st.var(name).map(|v| &v.value) {
            Some(Value::Indexed(_)) => interp.arith_value(index).unwrap_or(-1),
            _ => 0,
        };
        let i = interp.resolve_index(name, i);
        return match interp.st.var(name).map(|v| &v.value) {
            Some(Value::Assoc(map)) => map.contains_key(index),
            Some(Value::Indexed(map)) => i.is_some_and(|i| map.contains_key(&i)),
            Some(Value::Str(_)) => index == "0",
            None => false,
        };
    }
    match interp.st.vars.get(operand).filter(|v| !v.nameref) {
        Some(var) => var.value.scalar().is_some() || !matches!(var.value, Value::Str(_)),
        None => false,
    }
}

fn parse_integer(s: &str) -> Result<i64, String> {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{s}: integer expression expected"));
    }
    t.parse::<i64>().map_err(|_| format!("{s}: integer expression expected"))
}

/// Comparisons shared by `test` and `[[ ]]` (`arith`: operands of `-eq`…
/// are arithmetic expressions, as in `[[ ]]`).
fn binary_common(
    interp: &mut Interp<'_>,
    predicate: &BinaryPredicate,
    left: &str,
    right: &str,
    arith: bool,
) -> Result<bool, String> {
    let int = |interp: &mut Interp<'_>, s: &str| -> Result<i64, String> {
        if arith {
            interp.arith_value(s).map_err(|e| Interp::arith_message(s, &e))
        } else {
            parse_integer(s)
        }
    };
    Ok(match predicate {
        BinaryPredicate::ArithmeticEqualTo => int(interp, left)? == int(interp, right)?,
        BinaryPredicate::ArithmeticNotEqualTo => int(interp, left)? != int(interp, right)?,
        BinaryPredicate::ArithmeticLessThan => int(interp, left)? < int(interp, right)?,
        BinaryPredicate::ArithmeticLessThanOrEqualTo => int(interp, left)? <= int(interp, right)?,
        BinaryPredicate::ArithmeticGreaterThan => int(interp, left)? > int(interp, right)?,
        BinaryPredicate::ArithmeticGreaterThanOrEqualTo => int(interp, left)? >= int(interp, right)?,
        BinaryPredicate::LeftSortsBeforeRight => left.as_bytes() < right.as_bytes(),
        BinaryPredicate::LeftSortsAfterRight => left.as_bytes() > right.as_bytes(),
        BinaryPredicate::StringExactlyMatchesString | BinaryPredicate::StringExactlyMatchesPattern => left == right,
        BinaryPredicate::StringDoesNotExactlyMatchString | BinaryPredicate::StringDoesNotExactlyMatchPattern => {
            left != right
        }
        BinaryPredicate::StringContainsSubstring => left.contains(right),
        BinaryPredicate::FilesReferToSameDeviceAndInodeNumbers => {
            let storage = interp.rt.storage;
            let a = storage_path(&interp.st.cwd, left);
            let b = storage_path(&interp.st.cwd, right);
            storage.stat(&a).is_ok() && storage.stat(&b).is_ok() && a == b
        }
        BinaryPredicate::LeftFileIsNewerOrExistsWhenRightDoesNot
        | BinaryPredicate::LeftFileIsOlderOrDoesNotExistWhenRightDoes => {
            let storage = interp.rt.storage;
            let a = storage.stat(&storage_path(&interp.st.cwd, left)).ok().map(|m| m.modified);
            let b = storage.stat(&storage_path(&interp.st.cwd, right)).ok().map(|m| m.modified);
            let newer = matches!(predicate, BinaryPredicate::LeftFileIsNewerOrExistsWhenRightDoesNot);
            match (a, b) {
                (Some(a), Some(b)) => {
                    if newer {
                        a > b
                    } else {
                        a < b
                    }
                }
                (Some(_), None) => newer,
                (None, Some(_)) => !newer,
                (None, None) => false,
            }
        }
        BinaryPredicate::StringMatchesRegex => false,
    })
}

impl Interp<'_> {
    /// `[[ expr ]]`: 0 true, 1 false, 2 error (a bad regex or number).
    pub(crate) fn run_extended_test(&mut self, expr: &ExtendedTestExpr) -> Res {
        match self.eval_extended(expr)? {
            Ok(true) => Ok(0),
            Ok(false) => Ok(1),
            Err(message) => {
                if !message.is_empty() {
                    self.error(message)?;
                }
                Ok(2)
            }
        }
    }

    fn eval_extended(&mut self, expr: &ExtendedTestExpr) -> Result<Result<bool, String>, Flow> {
        self.rt.check_stack()?;
        Ok(Ok(match expr {
            ExtendedTestExpr::And(a, b) => match self.eval_extended(a)? {
                Ok(true) => return self.eval_extended(b),
                other => return Ok(other),
            },
            ExtendedTestExpr::Or(a, b) => match self.eval_extended(a)? {
                Ok(false) => return self.eval_extended(b),
                other => return Ok(other),
            },
            ExtendedTestExpr::Not(a) => match self.eval_extended(a)? {
                Ok(v) => !v,
                Err(e) => return Ok(Err(e)),
            },
            ExtendedTestExpr::Parenthesized(a) => return self.eval_extended(a),
            ExtendedTestExpr::UnaryTest(predicate, word) => {
                let operand = self.expand_string(&word.value)?;
                unary(self, predicate, &operand)
            }
            ExtendedTestExpr::BinaryTest(predicate, left, right) => {
                let l = self.expand_string(&left.value)?;
                match predicate {
                    BinaryPredicate::StringExactlyMatchesPattern | BinaryPredicate::StringExactlyMatchesString => {
                        let pattern = self.expand_pattern(&right.value)?;
                        self.pattern_matches(&pattern, &l, true)?
                    }
                    BinaryPredicate::StringDoesNotExactlyMatchPattern
                    | BinaryPredicate::StringDoesNotExactlyMatchString => {
                        let pattern = self.expand_pattern(&right.value)?;
                        !self.pattern_matches(&pattern, &l, true)?
                    }
                    BinaryPredicate::StringMatchesRegex => {
                        let regex = self.expand_regex(&right.value)?;
                        return Ok(self.regex_match(&l, &regex));
                    }
                    _ => {
                        let r = self.expand_string(&right.value)?;
                        match binary_common(self, predicate, &l, &r, true) {
                            Ok(v) => v,
                            Err(e) => return Ok(Err(e)),
                        }
                    }
                }
            }
        }))
    }

    /// `text =~ regex`: sets `BASH_REMATCH`.
    fn regex_match(&mut self, text: &str, regex: &str) -> Result<bool, String> {
        // `nocasematch` applies to `=~` too; the cache keeps the two apart.
        let nocase = self.st.options.nocasematch;
        let key = if nocase { format!("\0i{regex}") } else { regex.to_string() };
        let compiled = match self.regexes.get(&key) {
            Some(r) => r.clone(),
            None => {
                // POSIX ERE, as regcomp(3) reads it in the C locale.
                let Ok(translated) = super::commands::ere_to_regex(regex) else { return Err(String::new()) };
                let Ok(r) =
                    regex::bytes::RegexBuilder::new(&translated).unicode(false).case_insensitive(nocase).build()
                else {
                    return Err(String::new());
                };
                let r = std::rc::Rc::new(r);
                if self.regexes.len() < 256 {
                    self.regexes.insert(key, r.clone());
                }
                r
            }
        };
        let mut map = std::collections::BTreeMap::new();
        let matched = match compiled.captures(text.as_bytes()) {
            Some(caps) => {
                for (i, group) in caps.iter().enumerate() {
                    let value = group.map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned()).unwrap_or_default();
                    map.insert(i as i64, value);
                }
                true
            }
            None => false,
        };
        self.set_value("BASH_REMATCH", Value::Indexed(map));
        Ok(matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_splitting() {
        let none = [false; 64];
        assert_eq!(split_read("  a  b  c  ", &none, " \t\n", 2), ["a", "b  c"]);
        assert_eq!(split_read("a,b,c", &none, ",", 2), ["a", "b,c"]);
        assert_eq!(split_read("a,,c", &none, ",", 5), ["a", "", "c"]);
        assert_eq!(split_read("  x  ", &none, " \t\n", 1), ["x"]);
    }

    #[test]
    fn builtin_list_is_complete() {
        for name in BUILTINS {
            assert!(lookup(name).is_some(), "{name}");
        }
    }

    #[test]
    fn quoting() {
        assert_eq!(single_quote("a'b"), "'a'\\''b'");
        assert_eq!(quote_for_trace("a b"), "'a b'");
        assert_eq!(quote_for_trace("ab"), "ab");
        assert!(is_name("_a1"));
        assert!(!is_name("1a"));
    }
}
