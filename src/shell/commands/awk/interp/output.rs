//! Output: awk's buffered stdout, files written with `>`/`>>`, commands
//! printed to with `|`, `close()`, and running a command in the shell.

use super::*;

pub(super) enum OutTarget {
    Stdout,
    Stderr,
    File {
        path: String,
        buf: Vec<u8>,
    },
    /// `print | "cmd"`: what is printed waits here; the command runs in the
    /// shell with it as stdin when closed (`close()` or the end).
    Command {
        buf: Vec<u8>,
    },
}

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    // ---- output ----

    pub(super) fn print_record(&mut self, dest: Option<&(Redirect, Expr)>) -> R<()> {
        self.rebuild_record();
        // To stdout: straight into its buffer.
        if dest.is_none() && self.stdout_buf.len() + self.record.text.len() < STDOUT_BUF {
            self.stdout_buf.extend_from_slice(&self.record.text);
            self.stdout_buf.extend_from_slice(&self.ors);
            if self.stdout_buf.len() >= STDOUT_BUF {
                self.flush_stdout()?;
            }
            return Ok(());
        }
        let mut line = std::mem::take(&mut self.line_buf);
        line.clear();
        line.extend_from_slice(&self.record.text);
        line.extend_from_slice(&self.ors);
        let result = self.write_to(dest, &line);
        self.line_buf = line;
        result
    }

    pub(super) fn write_to(&mut self, dest: Option<&(Redirect, Expr)>, bytes: &[u8]) -> R<()> {
        let Some((mode, target)) = dest else {
            return Ok(self.write_stdout(bytes)?);
        };
        let name = self.eval(target)?;
        let name = self.to_str(&name).to_vec();
        if !self.outputs.contains_key(&name) {
            let target = match &name[..] {
                _ if *mode == Redirect::Pipe => {
                    if self.outputs.len() >= MAX_OPEN_OUTPUTS {
                        return fail(format!(
                            "`{}' makes too many open files (at most {MAX_OPEN_OUTPUTS}; close() some)",
                            String::from_utf8_lossy(&name)
                        ));
                    }
                    // mawk flushes its output before it starts a command.
                    self.flush_everything()?;
                    OutTarget::Command { buf: Vec::new() }
                }
                b"/dev/stdout" | b"-" => OutTarget::Stdout,
                b"/dev/stderr" => OutTarget::Stderr,
                _ => {
                    let user = String::from_utf8_lossy(&name).into_owned();
                    if user.is_empty() {
                        return fail("null file name in print or printf");
                    }
                    if self.outputs.len() >= MAX_OPEN_OUTPUTS {
                        return fail(format!(
                            "`{user}' makes too many open files (at most {MAX_OPEN_OUTPUTS}; close() some)"
                        ));
                    }
                    let path = self.ctx.path(&user);
                    if *mode == Redirect::Truncate {
                        if let Err(e) = self.ctx.storage.write(&path, b"") {
                            return fail(format!("can't redirect to `{user}' ({})", error_reason(&e)));
                        }
                    }
                    OutTarget::File { path, buf: Vec::new() }
                }
            };
            self.outputs.insert(name.clone(), target);
            self.output_order.push(name.clone());
        }
        let flush = match self.outputs.get_mut(&name) {
            Some(OutTarget::Stdout) => return Ok(self.write_stdout(bytes)?),
            Some(OutTarget::Stderr) => return Ok(self.ctx.stderr.write(bytes)?),
            Some(OutTarget::Command { buf }) => {
                if buf.len() + bytes.len() > self.ctx.max_memory / 4 {
                    return Err(Fatal::Limit(LimitHit::Memory));
                }
                buf.extend_from_slice(bytes);
                return Ok(());
            }
            Some(OutTarget::File { buf, .. }) => {
                buf.extend_from_slice(bytes);
                self.buffered += bytes.len();
                buf.len() >= FLUSH_AT
            }
            None => false,
        };
        if flush {
            self.flush_output(&name)?;
        }
        // Many files each holding a little add up: write them all out.
        if self.buffered > FLUSH_ALL_AT.min(self.ctx.max_memory / 4) {
            self.flush_all()?;
        }
        Ok(())
    }

    pub(super) fn flush_output(&mut self, name: &[u8]) -> R<()> {
        if let Some(OutTarget::File { path, buf }) = self.outputs.get_mut(name) {
            if !buf.is_empty() {
                let data = std::mem::take(buf);
                self.buffered = self.buffered.saturating_sub(data.len());
                let path = path.clone();
                if let Err(e) = self.ctx.storage.append(&path, &data) {
                    return fail(format!("write to `{}' failed ({})", String::from_utf8_lossy(name), error_reason(&e)));
                }
            }
        }
        Ok(())
    }

    pub(super) fn flush_all(&mut self) -> R<()> {
        for name in self.output_order.clone() {
            self.flush_output(&name)?;
        }
        Ok(())
    }

    /// `close(name)`: 0 for a file, a command's exit status, -1 when
    /// nothing of that name is open.
    pub(super) fn close(&mut self, name: &[u8]) -> R<f64> {
        let mut result = -1.0;
        if self.outputs.contains_key(name) {
            self.flush_output(name)?;
            let target = self.outputs.remove(name);
            self.output_order.retain(|n| n != name);
            result = 0.0;
            if let Some(OutTarget::Command { buf }) = target {
                self.flush_all()?;
                result = f64::from(self.run_shell(name, &buf, None)?);
            }
        }
        if self.inputs.remove(name).is_some() {
            result = 0.0;
        }
        if let Some(piped) = self.commands.remove(name) {
            result = f64::from(piped.status);
        }
        Ok(result)
    }

    /// Runs the commands still open for output, the last opened first.
    pub(super) fn close_commands(&mut self) -> R<()> {
        let open: Vec<Vec<u8>> = self
            .output_order
            .iter()
            .rev()
            .filter(|n| matches!(self.outputs.get(*n), Some(OutTarget::Command { .. })))
            .cloned()
            .collect();
        for name in open {
            self.close(&name)?;
        }
        Ok(())
    }

    /// Writes to awk's stdout through its buffer.
    pub(super) fn write_stdout(&mut self, bytes: &[u8]) -> Result<(), LimitHit> {
        if self.stdout_buf.is_empty() && bytes.len() >= STDOUT_BUF {
            return self.ctx.stdout.write(bytes);
        }
        self.stdout_buf.extend_from_slice(bytes);
        if self.stdout_buf.len() >= STDOUT_BUF {
            return self.flush_stdout();
        }
        Ok(())
    }

    pub(super) fn flush_stdout(&mut self) -> Result<(), LimitHit> {
        if self.stdout_buf.is_empty() {
            return Ok(());
        }
        let result = self.ctx.stdout.write(&self.stdout_buf);
        self.stdout_buf.clear();
        result
    }

    /// Files and stdout written out: before a command runs, and `fflush()`.
    pub(super) fn flush_everything(&mut self) -> R<()> {
        self.flush_all()?;
        Ok(self.flush_stdout()?)
    }

    /// Runs `cmd` in the shell (`sh -c cmd`, in a copy of the shell with
    /// its exported variables, under the run's limits), with `stdin`, its
    /// stdout into `capture` or awk's stdout; returns its status.
    pub(super) fn run_shell(&mut self, cmd: &[u8], stdin: &[u8], capture: Option<&mut Output>) -> R<i32> {
        let argv = ["sh".to_string(), "-c".to_string(), String::from_utf8_lossy(cmd).into_owned()];
        let env = EnvChange::default();
        let ctx = &mut *self.ctx;
        let status = match capture {
            Some(out) => ctx.runner.run_with_env(&env, &argv, stdin, out, ctx.stderr),
            None => ctx.runner.run_with_env(&env, &argv, stdin, ctx.stdout, ctx.stderr),
        };
        Ok(status?)
    }
}
