//! Redirections. Streams are buffers: a command's stdout is an [`Output`];
//! `> file` gives it a fresh buffer that is written to the file when the
//! command ends (the file is created or truncated when the redirection is
//! set up, as bash does). `2>&1` makes fd 2 share fd 1's buffer; a command of
//! the table writes its stderr after its stdout in that case (bash would
//! interleave them). `/dev/null`, `/dev/stdin`, `/dev/stdout` and
//! `/dev/stderr` are understood; descriptors 3 to 9 are slots of [`Fds`]
//! that a redirection points at a stream (`exec 3>file`, `3>&1`, `3<file`),
//! closed in a pipeline stage other than the last and in a background job.

use brush_parser::ast;

use super::command::{directories_before_slashes, error_reason, has_trailing_slash, Output};
use super::exec::{Flow, Interp, Res};
use super::pipe::PipeReader;
use super::storage_path;
use super::LimitHit;
use crate::storage::FileKind;

/// Which streams fds 0, 1 and 2 are (indices into the interpreter's lists),
/// and fds 3 to 9 when a redirection opened them (`exec 3>file`, `3>&1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fds {
    pub(crate) input: usize,
    pub(crate) out: usize,
    pub(crate) err: usize,
    pub(crate) more: [Slot; 7],
}

/// What one of fds 3 to 9 is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Slot {
    #[default]
    Closed,
    /// An output stream (an index into `outs`).
    Out(usize),
    /// An input stream (an index into `ins`).
    In(usize),
}

impl Fds {
    /// fd 0, 1 and 2 at these streams, 3 to 9 closed.
    pub(crate) fn new(input: usize, out: usize, err: usize) -> Self {
        Fds { input, out, err, more: [Slot::Closed; 7] }
    }

    /// fd 3 to 9's slot.
    pub(crate) fn slot(&self, fd: i32) -> Option<Slot> {
        usize::try_from(fd - 3).ok().and_then(|i| self.more.get(i)).copied()
    }

    fn set(&mut self, fd: i32, slot: Slot) {
        if let Some(place) = usize::try_from(fd - 3).ok().and_then(|i| self.more.get_mut(i)) {
            *place = slot;
        }
    }
}

/// An input stream: the bytes at hand and how far they are consumed, and
/// for a pipe, the pipe the rest comes from.
#[derive(Debug, Default)]
pub(crate) struct Input {
    pub(crate) data: Vec<u8>,
    pub(crate) pos: usize,
    /// The pipe the rest comes from, until its end.
    pipe: Option<PipeReader>,
    /// Whether the bytes came from a pipe (read ahead is lost with the reader).
    piped: bool,
}

impl Input {
    /// An input of known bytes (a file, a here-document).
    pub(crate) fn buffer(data: Vec<u8>) -> Self {
        Input { data, pos: 0, pipe: None, piped: false }
    }

    /// What a background job started with this stdin reads: the rest of a
    /// pipe (the job takes it over: this one is at its end afterwards), or a
    /// copy of the rest of a file or here-document.
    pub(crate) fn for_job(&mut self) -> Input {
        if self.pipe.is_some() {
            std::mem::take(self)
        } else {
            Input::buffer(self.rest().to_vec())
        }
    }

    /// A copy of the rest of a file or here-document; nothing of a pipe
    /// (what a process substitution's `cmd` reads: the pipe stays here).
    pub(crate) fn copy_unless_pipe(&self) -> Input {
        if self.piped {
            Input::default()
        } else {
            Input::buffer(self.rest().to_vec())
        }
    }

    /// The read end of a pipe.
    pub(crate) fn pipe(reader: PipeReader) -> Self {
        Input { data: Vec::new(), pos: 0, pipe: Some(reader), piped: true }
    }

    /// Makes sure unread bytes are at hand, waiting for the pipe's writer;
    /// `false` at the end.
    pub(crate) fn fill(&mut self) -> Result<bool, LimitHit> {
        while self.pos >= self.data.len() {
            let Some(pipe) = &self.pipe else { return Ok(false) };
            let used = std::mem::take(&mut self.data);
            self.pos = 0;
            match pipe.read(used)? {
                Some(data) => self.data = data,
                None => {
                    self.pipe = None;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// The unread bytes at hand.
    pub(crate) fn rest(&self) -> &[u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }

    /// Marks `n` bytes of [`rest`](Self::rest) read.
    pub(crate) fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.data.len());
    }

    /// Takes the unread bytes at hand (all of them consumed).
    pub(crate) fn take_rest(&mut self) -> Vec<u8> {
        let data = if self.pos == 0 {
            std::mem::take(&mut self.data)
        } else {
            let rest = self.data[self.pos..].to_vec();
            self.data.clear();
            rest
        };
        self.pos = 0;
        if !self.piped {
            // A file's bytes are all there: nothing more comes.
            self.data = Vec::new();
        }
        data
    }

    /// The next byte, waiting for the pipe's writer; `None` at the end.
    pub(crate) fn next_byte(&mut self) -> Result<Option<u8>, LimitHit> {
        if !self.fill()? {
            return Ok(None);
        }
        let b = self.data[self.pos];
        self.pos += 1;
        Ok(Some(b))
    }

    /// The next byte without consuming it.
    pub(crate) fn peek_byte(&mut self) -> Result<Option<u8>, LimitHit> {
        if !self.fill()? {
            return Ok(None);
        }
        Ok(Some(self.data[self.pos]))
    }

    /// After a command of the table read from a pipe: what it read ahead
    /// and did not use is gone with it.
    pub(crate) fn drop_read_ahead(&mut self) {
        if self.piped {
            self.pos = self.data.len();
        }
    }
}

/// A file an output buffer goes to when the command ends.
#[derive(Debug)]
pub(crate) struct Pending {
    buffer: usize,
    path: String,
    name: String,
}

impl Interp<'_> {
    /// Runs `f` with `redirects` applied; restores the streams afterwards
    /// and writes the redirected buffers to their files.
    pub(crate) fn with_redirects<'a>(
        &mut self,
        redirects: impl IntoIterator<Item = &'a ast::IoRedirect>,
        f: impl FnOnce(&mut Self) -> Res,
    ) -> Res {
        let saved = self.fd;
        let base_outs = self.outs.len();
        let base_ins = self.ins.len();
        let mut files: Vec<Pending> = Vec::new();
        let mut result = None;
        for redirect in redirects {
            match self.apply_redirect(redirect, &mut files) {
                Ok(true) => {}
                Ok(false) => {
                    result = Some(Ok(1));
                    break;
                }
                Err(flow) => {
                    result = Some(Err(flow));
                    break;
                }
            }
        }
        let result = match result {
            Some(r) => r,
            None => {
                self.scopes += 1;
                let r = f(self);
                self.scopes -= 1;
                r
            }
        };
        self.fd = saved;
        let flush_status = self.flush_files(files)?;
        self.outs.truncate(base_outs);
        self.ins.truncate(base_ins);
        match result {
            Ok(status) => Ok(flush_status.unwrap_or(status)),
            other => other,
        }
    }

    /// Writes redirected buffers to their files; `Some(1)` if one failed.
    pub(crate) fn flush_files(&mut self, files: Vec<Pending>) -> Result<Option<i32>, Flow> {
        let mut status = None;
        for pending in files {
            let Some(buffer) = self.outs.get_mut(pending.buffer) else { continue };
            let data = buffer.take();
            if data.is_empty() {
                continue;
            }
            if let Err(error) = self.rt.storage.append(&pending.path, &data) {
                status = Some(1);
                let message = format!("{}: {}", pending.name, error_reason(&error));
                self.error(message)?;
            }
        }
        Ok(status)
    }

    /// Appends what went to the files of `exec >file` so far (after each
    /// simple command, so the script can read them back).
    pub(crate) fn flush_exec_files(&mut self) -> Result<(), Flow> {
        for i in 0..self.exec_files.len() {
            let pending = &self.exec_files[i];
            let Some(buffer) = self.outs.get_mut(pending.buffer) else { continue };
            if buffer.is_empty() {
                continue;
            }
            let data = buffer.take();
            let path = pending.path.clone();
            if let Err(error) = self.rt.storage.append(&path, &data) {
                let message = format!("{}: {}", self.exec_files[i].name, error_reason(&error));
                self.error(message)?;
            }
        }
        Ok(())
    }

    /// `exec` without a command: the redirections stay for the rest of the
    /// shell (or subshell). Inside a redirected or piped command they are
    /// refused (bash would apply them to that command's streams).
    pub(crate) fn exec_redirects<'a>(&mut self, redirects: impl IntoIterator<Item = &'a ast::IoRedirect>) -> Res {
        if self.scopes > 0 {
            self.error("exec: redirections inside a redirected or piped command are not supported")?;
            return Ok(1);
        }
        let mut files = std::mem::take(&mut self.exec_files);
        let mut status = Ok(0);
        for redirect in redirects {
            match self.apply_redirect(redirect, &mut files) {
                Ok(true) => {}
                Ok(false) => {
                    status = Ok(1);
                    break;
                }
                Err(flow) => {
                    status = Err(flow);
                    break;
                }
            }
        }
        self.exec_files = files;
        status
    }

    /// Applies one redirection; `Ok(false)` after an error message (the
    /// command then does not run and its status is 1).
    fn apply_redirect(&mut self, redirect: &ast::IoRedirect, files: &mut Vec<Pending>) -> Result<bool, Flow> {
        match redirect {
            ast::IoRedirect::File(fd, kind, target) => {
                let input_kind = matches!(
                    kind,
                    ast::IoFileRedirectKind::Read
                        | ast::IoFileRedirectKind::ReadAndWrite
                        | ast::IoFileRedirectKind::DuplicateInput
                );
                let fd = fd.unwrap_or(if input_kind { 0 } else { 1 });
                match target {
                    ast::IoFileRedirectTarget::Filename(word) => {
                        let name = self.expand_string(&word.value)?;
                        match kind {
                            ast::IoFileRedirectKind::Read | ast::IoFileRedirectKind::ReadAndWrite => {
                                self.open_input(fd, &name)
                            }
                            ast::IoFileRedirectKind::Write => self.open_output(fd, &name, false, false, files),
                            ast::IoFileRedirectKind::Clobber => self.open_output(fd, &name, false, true, files),
                            ast::IoFileRedirectKind::Append => self.open_output(fd, &name, true, false, files),
                            ast::IoFileRedirectKind::DuplicateInput | ast::IoFileRedirectKind::DuplicateOutput => {
                                self.duplicate(fd, &name, input_kind, files)
                            }
                        }
                    }
                    ast::IoFileRedirectTarget::Fd(source) => self.duplicate(fd, &source.to_string(), input_kind, files),
                    ast::IoFileRedirectTarget::Duplicate(word) => {
                        let source = self.expand_string(&word.value)?;
                        self.duplicate(fd, &source, input_kind, files)
                    }
                    ast::IoFileRedirectTarget::ProcessSubstitution(ast::ProcessSubstitutionKind::Read, sub)
                        if fd == 0 =>
                    {
                        // `< <(cmd)`: cmd's output is the input, as it comes.
                        let input = self.process_substitution_input(&sub.list)?;
                        self.ins.push(input);
                        self.fd.input = self.ins.len() - 1;
                        Ok(true)
                    }
                    ast::IoFileRedirectTarget::ProcessSubstitution(..) => {
                        self.error("process substitution is only supported as `< <(command)'")?;
                        Ok(false)
                    }
                }
            }
            ast::IoRedirect::HereDocument(fd, doc) => {
                let body =
                    if doc.requires_expansion { self.expand_heredoc(&doc.doc.value)? } else { doc.doc.value.clone() };
                self.set_input(fd.unwrap_or(0), body.into_bytes());
                Ok(true)
            }
            ast::IoRedirect::HereString(fd, word) => {
                let mut body = self.expand_string(&word.value)?;
                body.push('\n');
                self.set_input(fd.unwrap_or(0), body.into_bytes());
                Ok(true)
            }
            ast::IoRedirect::OutputAndError(word, append) => {
                let name = self.expand_string(&word.value)?;
                if !self.open_output(1, &name, *append, false, files)? {
                    return Ok(false);
                }
                self.fd.err = self.fd.out;
                Ok(true)
            }
        }
    }

    fn set_input(&mut self, fd: i32, data: Vec<u8>) {
        self.ins.push(Input::buffer(data));
        if fd == 0 {
            self.fd.input = self.ins.len() - 1;
        } else {
            self.fd.set(fd, Slot::In(self.ins.len() - 1));
        }
    }

    fn open_input(&mut self, fd: i32, name: &str) -> Result<bool, Flow> {
        match name {
            "/dev/stdin" => return Ok(true),
            "/dev/null" => {
                self.set_input(fd, Vec::new());
                return Ok(true);
            }
            _ => {}
        }
        let path = storage_path(&self.st.cwd, name);
        if let Some(data) = self.proc_fd_input(&path) {
            self.set_input(fd, data);
            return Ok(true);
        }
        let read =
            directories_before_slashes(self.rt.storage, &self.st.cwd, name).and_then(|()| self.rt.storage.read(&path));
        match read {
            Ok(data) => {
                self.set_input(fd, data);
                Ok(true)
            }
            Err(error) => {
                self.error(format_args!("{name}: {}", error_reason(&error)))?;
                Ok(false)
            }
        }
    }

    /// Points `fd` at a new buffer for the file `name`, creating or
    /// truncating the file now.
    fn open_output(
        &mut self,
        fd: i32,
        name: &str,
        append: bool,
        clobber: bool,
        files: &mut Vec<Pending>,
    ) -> Result<bool, Flow> {
        let target = match name {
            "/dev/stdout" => Some(self.fd.out),
            "/dev/stderr" => Some(self.fd.err),
            "/dev/null" => {
                self.outs.push(Output::null());
                Some(self.outs.len() - 1)
            }
            _ => None,
        };
        let target = match target {
            Some(target) => target,
            None => {
                if name.is_empty() {
                    self.error(": No such file or directory")?;
                    return Ok(false);
                }
                // The kernel refuses to create `x/` whatever `x` is.
                if has_trailing_slash(name) {
                    self.error(format_args!("{name}: Is a directory"))?;
                    return Ok(false);
                }
                let path = storage_path(&self.st.cwd, name);
                let storage = self.rt.storage;
                if let Err(error) = directories_before_slashes(storage, &self.st.cwd, name) {
                    self.error(format_args!("{name}: {}", error_reason(&error)))?;
                    return Ok(false);
                }
                match storage.stat(&path) {
                    Ok(meta) if meta.kind == FileKind::Directory => {
                        self.error(format_args!("{name}: Is a directory"))?;
                        return Ok(false);
                    }
                    Ok(_) if self.st.options.noclobber && !append && !clobber => {
                        self.error(format_args!("{name}: cannot overwrite existing file"))?;
                        return Ok(false);
                    }
                    _ => {}
                }
                let created = if append { storage.append(&path, b"") } else { storage.write(&path, b"") };
                if let Err(error) = created {
                    self.error(format_args!("{name}: {}", error_reason(&error)))?;
                    return Ok(false);
                }
                self.outs.push(Output::new(self.rt.limits.max_output_bytes));
                let buffer = self.outs.len() - 1;
                files.push(Pending { buffer, path, name: name.to_string() });
                buffer
            }
        };
        match fd {
            1 => self.fd.out = target,
            2 => self.fd.err = target,
            _ => self.fd.set(fd, Slot::Out(target)),
        }
        Ok(true)
    }

    /// `>&2`, `2>&1`, `<&0`, `>&-`, and `>&file` (same as `&>file`).
    fn duplicate(&mut self, fd: i32, source: &str, input: bool, files: &mut Vec<Pending>) -> Result<bool, Flow> {
        let numbered = source.len() == 1 && source.as_bytes()[0].is_ascii_digit();
        let source_slot = if numbered { self.fd.slot(i32::from(source.as_bytes()[0] - b'0')) } else { None };
        if source == "-" && fd != 0 && fd != 1 && fd != 2 {
            // `3>&-`, `3<&-`: closes fd 3.
            self.fd.set(fd, Slot::Closed);
            return Ok(true);
        }
        if input {
            let index = match (source, source_slot) {
                ("0", _) => self.fd.input,
                ("-", _) => return Ok(true),
                (_, Some(Slot::In(index))) => index,
                _ => {
                    self.error(format_args!("{source}: Bad file descriptor"))?;
                    return Ok(false);
                }
            };
            match fd {
                0 => self.fd.input = index,
                _ => self.fd.set(fd, Slot::In(index)),
            }
            return Ok(true);
        }
        if let Some(Slot::Out(index)) = source_slot {
            match fd {
                1 => self.fd.out = index,
                2 => self.fd.err = index,
                _ => self.fd.set(fd, Slot::Out(index)),
            }
            return Ok(true);
        }
        let target = match source {
            "1" => self.fd.out,
            "2" => self.fd.err,
            "-" => {
                self.outs.push(Output::new(self.rt.limits.max_output_bytes));
                self.outs.len() - 1
            }
            _ if source.bytes().all(|b| b.is_ascii_digit()) => {
                self.error(format_args!("{source}: Bad file descriptor"))?;
                return Ok(false);
            }
            _ => {
                if fd != 1 {
                    self.error(format_args!("{source}: ambiguous redirect"))?;
                    return Ok(false);
                }
                if !self.open_output(1, source, false, false, files)? {
                    return Ok(false);
                }
                self.fd.err = self.fd.out;
                return Ok(true);
            }
        };
        match fd {
            1 => self.fd.out = target,
            2 => self.fd.err = target,
            _ => self.fd.set(fd, Slot::Out(target)),
        }
        Ok(true)
    }

    /// The input stream fd `n` reads (`read -u n`), if it is open for reading.
    pub(crate) fn input_fd(&self, n: i32) -> Option<usize> {
        match n {
            0 => Some(self.fd.input),
            _ => match self.fd.slot(n) {
                Some(Slot::In(index)) => Some(index),
                _ => None,
            },
        }
    }
}
