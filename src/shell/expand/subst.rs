//! Command substitution: `$(…)` and backquotes, run in a subshell whose
//! output is captured; `$(< file)`.

use super::*;

impl Interp<'_> {
    /// Runs `$(…)` in a subshell and returns its output without the
    /// trailing newlines. `set -e` is off inside, as in bash.
    pub(crate) fn command_substitution(&mut self, command: &str) -> Result<String, Flow> {
        let program = match crate::shell::parse::parse_program(command, &self.cache.popts) {
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
                    Ok(trim_newlines(String::from_utf8_lossy(&data).into_owned()))
                }
                Err(error) => {
                    self.error(format_args!("{name}: {}", crate::shell::command::error_reason(&error)))?;
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
        Ok(trim_newlines(String::from_utf8_lossy(&data).into_owned()))
    }

    /// Runs `f` in a subshell and returns what it wrote to stdout.
    pub(crate) fn capture(
        &mut self,
        f: impl FnOnce(&mut Self) -> crate::shell::exec::Res,
    ) -> Result<(Vec<u8>, i32), Flow> {
        let saved = self.io.fd;
        self.io.outs.push(crate::shell::command::Output::new(self.rt.limits.max_output_bytes));
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

/// The word of `$(< word)`, when that is the whole substitution.
pub(super) fn lone_input_redirect(program: &brush_parser::ast::Program) -> Option<&str> {
    use brush_parser::ast;
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
