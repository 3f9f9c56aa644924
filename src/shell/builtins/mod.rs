//! The builtins: the commands that read or change the shell's own state
//! (`cd`, `read`, `export`, `set`…), plus `echo`, `test`/`[` and `[[ ]]`.
//!
//! Two kinds, by what they may touch: most see the shell through
//! [`BuiltinEnv`] (its state, streams and expansion; `declare.rs`,
//! `set.rs`, `read_echo.rs`, `dirs.rs`, `trap.rs`, `getopts.rs`,
//! `type_command.rs`, `test.rs`), and the few that drive the interpreter
//! take `Interp` (`flow.rs`: `exit`, `return`, `break`, `continue`,
//! `eval`, `source`, `command`, `builtin`, `printf` but `-v`; `scripts.rs`:
//! `bash`, a script by path, `exec`; `wait`, `jobs`, `kill` in `jobs.rs`).
//! This file holds the table of both.
//!
//! Differences from bash, on purpose or for now: `trap` runs `EXIT`, `ERR`
//! and `RETURN`; signal and `DEBUG` traps are only kept for `trap -p` (no
//! signal reaches the shell); `type`/`command -v` report the
//! commands of the table as `/usr/bin/NAME`; a script run by path
//! (`./x.sh`) needs no execute bit, as the storage has no `chmod`.

use std::sync::Arc;

use brush_parser::ast::{BinaryPredicate, ExtendedTestExpr, TestExpr, UnaryPredicate};

use super::commands;
use super::exec::Interp;
use super::expand::{Assign, AssignValue, Expand};
use super::flow::{Flow, Res};
use super::io::RedirectEnv;
use super::state::{Value, Var};
use super::storage_path;
use crate::storage::FileKind;

use super::quote::{double_quote, single_quote, single_quote_if_needed};

mod declare;
pub(crate) use declare::function_text;
mod dirs;
mod flow;
mod getopts;
mod read_echo;
mod scripts;
mod set;
mod test;
mod trap;
mod type_command;

pub(crate) use declare::{declaration, is_name, DeclArg};
pub(crate) use scripts::run_script_file;
pub(crate) use test::ExtendedTest;
pub(crate) use type_command::path_matches;
use {declare::*, dirs::*, flow::*, getopts::*, read_echo::*, scripts::*, set::*, test::*, trap::*, type_command::*};

/// What a builtin of the shell's state and streams sees of the shell: what
/// redirections see (the variables, options and directory, the streams,
/// the storage, messages, expansion's entry points), and no way to run a
/// command but a command substitution. `Interp` implements it
/// (`interp_env.rs`); the builtins that drive the interpreter (`flow.rs`,
/// `scripts.rs`, `jobs.rs`'s `wait`, `jobs`, `kill`) take `Interp` itself.
pub(crate) trait BuiltinEnv: RedirectEnv {
    /// Writes to the current stdout.
    fn out(&mut self, bytes: &[u8]) -> Result<(), Flow> {
        let io = self.streams_mut();
        io.outs[io.fd.out].write(bytes).map_err(Flow::Limit)
    }
}

/// A builtin's entry point: the interpreter and argv (`argv[0]` is the name).
pub(crate) type BuiltinFn = fn(&mut Interp<'_>, &[String]) -> Res;

/// The builtin called `name`, if there is one.
pub(crate) fn lookup(name: &str) -> Option<BuiltinFn> {
    Some(match name {
        "echo" => |i, a| echo(i, a),
        "printf" => printf,
        ":" | "true" => |_, _| Ok(0),
        "false" => |_, _| Ok(1),
        "cd" => |i, a| cd(i, a),
        "pwd" => |i, a| pwd(i, a),
        "test" | "[" => |i, a| test(i, a),
        "exit" => exit,
        "return" => return_,
        "break" => |i, a| break_continue(i, a, true),
        "continue" => |i, a| break_continue(i, a, false),
        "set" => |i, a| set(i, a),
        "shift" => |i, a| shift(i, a),
        "unset" => |i, a| unset(i, a),
        "export" | "local" | "declare" | "typeset" | "readonly" => |i, a| declaration_words(i, a),
        "read" => |i, a| read(i, a),
        "mapfile" | "readarray" => |i, a| mapfile(i, a),
        "eval" => eval,
        "source" | "." => source,
        "trap" => |i, a| trap(i, a),
        "let" => let_,
        "type" => |i, a| type_(i, a),
        "command" => command,
        "getopts" => |i, a| getopts(i, a),
        "compgen" => |i, a| compgen(i, a),
        "bash" | "sh" => bash,
        "builtin" => builtin,
        "pushd" => |i, a| pushd(i, a),
        "popd" => |i, a| popd(i, a),
        "dirs" => |i, a| dirs(i, a),
        "exec" => exec,
        "shopt" => |i, a| shopt(i, a),
        "wait" => super::jobs::wait,
        "jobs" => super::jobs::jobs,
        "kill" => super::jobs::kill,
        "hash" => |i, a| hash(i, a),
        "alias" | "unalias" | "ulimit" | "disown" => |_, _| Ok(0),
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

fn usage<E: BuiltinEnv + ?Sized>(interp: &mut E, name: &str, message: impl std::fmt::Display) -> Res {
    interp.error(format_args!("{name}: {message}"))?;
    Ok(2)
}

/// `hash [-r] [NAME]...`: nothing is ever hashed (the commands are the
/// shell's own), so it checks that each NAME is a command, as bash's does:
/// a builtin, function or command of the table, or a path (not looked up);
/// else `hash: NAME: not found`, status 1. Without names it reports the
/// empty table.
fn hash<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut names = &argv[1..];
    while let Some(option) = names.first().filter(|a| a.starts_with('-') && a.len() > 1) {
        names = &names[1..];
        if option == "--" {
            break;
        }
        if option.contains('p') {
            // `-p PATH NAME`: remembers PATH for NAME; nothing to check.
            return Ok(0);
        }
    }
    if argv.len() == 1 {
        interp.out(b"hash: hash table empty\n")?;
        return Ok(0);
    }
    let mut status = 0;
    for name in names {
        let known = name.contains('/')
            || lookup(name).is_some()
            || interp.state().functions.contains_key(name.as_str())
            || commands::lookup(name).is_some();
        if !known {
            interp.error(format_args!("hash: {name}: not found"))?;
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_list_is_complete() {
        for name in BUILTINS {
            assert!(lookup(name).is_some(), "{name}");
        }
    }
}
