//! Command substitution: `$(…)` and backquotes, whose output the
//! environment gives ([`ExpandEnv::command_output`]: the interpreter runs it
//! in a subshell, or reads the file of `$(< file)`).

use super::*;

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// `$(…)`: the command's output (run by the environment) without its
    /// trailing newlines.
    pub(super) fn command_substitution(&mut self, command: &str) -> Result<String, Flow> {
        let output = self.command_output(command)?;
        Ok(trim_newlines(output))
    }
}

pub(super) fn unescape_backquoted(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('$') | Some('\\')) {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

pub(super) fn trim_newlines(mut s: String) -> String {
    while s.ends_with('\n') {
        s.pop();
    }
    s
}
