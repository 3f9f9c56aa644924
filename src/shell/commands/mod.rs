//! The commands a script can run, all in-process over the storage. Each
//! group file lists its commands in `COMMANDS`; [`lookup`] searches them.
//! Builtins that change the shell's own state (`cd`, `export`, `read`…)
//! live in the interpreter, not here.

use super::command::CommandFn;

mod archive;
mod awk;
mod diff;
mod dump;
mod files;
mod grep;
mod hash;
mod jq;
mod patch;
mod regex_syntax;

pub(crate) use regex_syntax::ere_to_regex;
mod sed;
mod text;
mod utils;

pub(crate) use text::printf_format;

/// Every group's commands, in lookup order.
const GROUPS: [&[(&str, CommandFn)]; 12] = [
    files::COMMANDS,
    text::COMMANDS,
    grep::COMMANDS,
    sed::COMMANDS,
    awk::COMMANDS,
    jq::COMMANDS,
    utils::COMMANDS,
    diff::COMMANDS,
    hash::COMMANDS,
    dump::COMMANDS,
    archive::COMMANDS,
    patch::COMMANDS,
];

/// The command called `name`, if the shell has it.
pub fn lookup(name: &str) -> Option<CommandFn> {
    GROUPS.into_iter().flatten().find(|(command, _)| *command == name).map(|(_, function)| *function)
}

/// Every command name, sorted (for `type`, `command -v` and the docs).
pub fn names() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = GROUPS.into_iter().flatten().map(|(command, _)| *command).collect();
    all.sort_unstable();
    all
}
