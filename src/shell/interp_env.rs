//! How the interpreter gives its parts the narrow interfaces they see it
//! through: [`ExpandEnv`] for word expansion (with command substitution,
//! the one way expansion runs commands), [`RedirectEnv`] for redirections
//! (with process substitution), [`BuiltinEnv`] for the builtins of the
//! shell's state and streams.

use brush_parser::ast;

use super::builtins::BuiltinEnv;
use super::command::Output;
use super::exec::{Interp, Res};
use super::expand::{Caches, Expand, ExpandEnv};
use super::flow::Flow;
use super::io::{Input, RedirectEnv, Streams};
use super::runtime::Runtime;
use super::state::{Position, State};
use super::storage_path;

impl ExpandEnv for Interp<'_> {
    fn state(&self) -> &State {
        &self.st
    }
    fn state_mut(&mut self) -> &mut State {
        &mut self.st
    }
    fn at(&self) -> &Position {
        &self.at
    }
    fn at_mut(&mut self) -> &mut Position {
        &mut self.at
    }
    fn caches(&self) -> &Caches {
        &self.cache
    }
    fn caches_mut(&mut self) -> &mut Caches {
        &mut self.cache
    }
    fn runtime(&self) -> &Runtime<'_> {
        self.rt
    }
    fn err(&mut self, bytes: &[u8]) -> Result<(), Flow> {
        Interp::err(self, bytes)
    }
    fn error(&mut self, message: impl std::fmt::Display) -> Result<(), Flow> {
        Interp::error(self, message)
    }
    fn command_output(&mut self, command: &str) -> Result<String, Flow> {
        Interp::command_output(self, command)
    }
}

impl RedirectEnv for Interp<'_> {
    fn streams(&self) -> &Streams {
        &self.io
    }
    fn streams_mut(&mut self) -> &mut Streams {
        &mut self.io
    }
    fn process_substitution_input(&mut self, list: &ast::CompoundList) -> Result<Input, Flow> {
        Interp::process_substitution_input(self, list)
    }
    fn process_substitution_output(&mut self, list: &ast::CompoundList) -> Result<Output, Flow> {
        Interp::process_substitution_output(self, list)
    }
}

impl BuiltinEnv for Interp<'_> {
    fn out(&mut self, bytes: &[u8]) -> Result<(), Flow> {
        Interp::out(self, bytes)
    }
}

impl Interp<'_> {
    /// Runs `$(…)` in a subshell and returns its output (`$(< file)`: the
    /// file's content). `set -e` is off inside, as in bash.
    fn command_output(&mut self, command: &str) -> Result<String, Flow> {
        let program = match super::parse::parse_program(command, &self.cache.popts) {
            Ok(program) => program,
            Err(message) => {
                self.err(message.as_bytes())?;
                self.subst_status = Some(2);
                return Ok(String::new());
            }
        };
        // `$(< file)`: the file's content.
        if let Some(word) = lone_input_redirect(&program) {
            let name = self.expand_string(word)?;
            let path = storage_path(&self.st.cwd, &name);
            return match self.rt.storage.read(&path) {
                Ok(data) => {
                    self.subst_status = Some(0);
                    Ok(String::from_utf8_lossy(&data).into_owned())
                }
                Err(error) => {
                    self.error(format_args!("{name}: {}", super::command::error_reason(&error)))?;
                    self.subst_status = Some(1);
                    Ok(String::new())
                }
            };
        }
        self.at.substs += 1;
        let captured = self.capture(|s| {
            s.st.options.errexit = false;
            s.run_program(&program)
        });
        self.at.substs -= 1;
        if !self.jobs.running.is_empty() {
            self.clean_up_jobs();
        }
        let (data, status) = captured?;
        self.subst_status = Some(status);
        self.st.last_status = status;
        Ok(String::from_utf8_lossy(&data).into_owned())
    }

    /// Runs `f` in a subshell and returns what it wrote to stdout.
    pub(crate) fn capture(&mut self, f: impl FnOnce(&mut Self) -> Res) -> Result<(Vec<u8>, i32), Flow> {
        let saved = self.io.fd;
        self.io.outs.push(super::command::Output::new(self.rt.limits.max_output_bytes));
        self.io.fd.out = self.io.outs.len() - 1;
        self.at.scopes += 1;
        let line = self.at.line;
        // Inside, `$LINENO` (and an `ERR` trap's) is the line of the command
        // holding the substitution, as in bash for a one-line `$(…)`.
        let saved_line = self.st.trap_line;
        self.st.trap_line = Some(saved_line.unwrap_or(line));
        let result = self.subshell_waiting(f);
        self.st.trap_line = saved_line;
        self.at.line = line;
        self.at.scopes -= 1;
        let data = self.io.outs.pop().map(|mut o| o.take()).unwrap_or_default();
        self.io.fd = saved;
        Ok((data, result?))
    }
}

/// The word of `$(< word)`, when that is the whole substitution.
fn lone_input_redirect(program: &ast::Program) -> Option<&str> {
    let [list] = &program.complete_commands[..] else { return None };
    let [item] = &list.0[..] else { return None };
    if !item.0.additional.is_empty() || item.0.first.bang {
        return None;
    }
    let [ast::Command::Simple(simple)] = &item.0.first.seq[..] else { return None };
    if simple.word_or_name.is_some() || simple.suffix.is_some() {
        return None;
    }
    let [ast::CommandPrefixOrSuffixItem::IoRedirect(ast::IoRedirect::File(
        None | Some(0),
        ast::IoFileRedirectKind::Read,
        ast::IoFileRedirectTarget::Filename(word),
    ))] = &simple.prefix.as_ref()?.0[..]
    else {
        return None;
    };
    Some(&word.value)
}
