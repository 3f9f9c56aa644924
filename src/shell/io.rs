//! Redirections. Streams are buffers: a command's stdout is an [`Output`];
//! `> file` gives it a fresh buffer that is written to the file when the
//! command ends (the file is created or truncated when the redirection is
//! set up, as bash does). `2>&1` makes fd 2 share fd 1's buffer; a command of
//! the table writes its stderr after its stdout in that case (bash would
//! interleave them). `/dev/null`, `/dev/stdin`, `/dev/stdout` and
//! `/dev/stderr` are understood; descriptors 3 to 9 are slots of [`Fds`]
//! that a redirection points at a stream (`exec 3>file`, `3>&1`, `3<file`);
//! a pipeline stage and a background job get them too ([`ThreadFds`]):
//! an output as a view of the same stream, an input as a copy of the rest.
//! `< file` reads the file [`FILE_PIECE`] bytes at a time, as commands do
//! through `Context`, so a large file is never held whole.

use std::sync::{Arc, Mutex};

use brush_parser::ast;

use super::command::{directories_before_slashes, error_reason, has_trailing_slash, Output, FILE_PIECE};
use super::expand::{Expand, ExpandEnv};
use super::flow::{Flow, Res};
use super::pipe::PipeReader;
use super::storage_path;
use super::LimitHit;
use crate::storage::{FileKind, Pieces, Storage};

/// Which streams fds 0, 1 and 2 are (indices into the interpreter's lists),
/// and fds 3 to 9 when a redirection opened them (`exec 3>file`, `3>&1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fds {
    pub(crate) input: usize,
    pub(crate) out: usize,
    pub(crate) err: usize,
    pub(crate) more: [Slot; 7],
}

/// An interpreter's streams and descriptors: the output and input streams
/// (indexed by [`Fds`]), which stream each descriptor is, the files of
/// `exec >file`, the process substitutions of the commands running.
pub(crate) struct Streams {
    /// Output streams; `fd.out`/`fd.err` index into it.
    pub(crate) outs: Vec<Output>,
    /// Input streams; `fd.input` indexes into it.
    pub(crate) ins: Vec<Input>,
    pub(crate) fd: Fds,
    /// Files `exec >file` opened, written when the (sub)shell ends.
    pub(crate) exec_files: Vec<Pending>,
    /// The process substitutions (`<(…)`, `>(…)`) of the commands running.
    pub(crate) proc_fds: Vec<super::procsub::ProcFd>,
    /// Whether stdin is a pipe or a redirection even at `ins[0]` (a pipeline
    /// stage's, a job's that inherited one): a job started here reads it,
    /// where a job of the script's own stdin reads `/dev/null`.
    pub(crate) stdin_piped: bool,
}

impl Streams {
    /// Two fresh output streams capped at `cap`, an empty stdin.
    pub(crate) fn new(cap: usize) -> Self {
        Streams {
            outs: vec![Output::new(cap), Output::new(cap)],
            ins: vec![Input::default()],
            fd: Fds::new(0, 0, 1),
            exec_files: Vec::new(),
            proc_fds: Vec::new(),
            stdin_piped: false,
        }
    }
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
/// for a pipe, the pipe the rest comes from; for a large file, where the
/// rest of it is.
#[derive(Debug, Default)]
pub(crate) struct Input {
    pub(crate) data: Vec<u8>,
    pub(crate) pos: usize,
    /// The pipe the rest comes from, until its end.
    pipe: Option<PipeReader>,
    /// The file the rest comes from, one piece at a time, until its end.
    file: Option<FileRest>,
    /// Whether the bytes came from a pipe (read ahead is lost with the reader).
    piped: bool,
    /// Why the file could not be read to its end (`path: reason`), until
    /// [`take_failure`](Self::take_failure) reports it.
    failed: Option<String>,
}

/// The part of a file an [`Input`] has not read yet: the file opened once,
/// read on in pieces, and its path for the message of a failed read.
#[derive(Clone, Debug)]
struct FileRest {
    pieces: Pieces,
    path: String,
}

impl Input {
    /// An input of known bytes (a file, a here-document).
    pub(crate) fn buffer(data: Vec<u8>) -> Self {
        Input { data, pos: 0, pipe: None, file: None, piped: false, failed: None }
    }

    /// A file of `storage` read from its start, [`FILE_PIECE`] bytes at a
    /// time: the first piece now (so that a missing file fails here), the
    /// rest as it is read.
    pub(crate) fn file(storage: Arc<dyn Storage>, path: String) -> Result<Self, crate::storage::StorageError> {
        let mut pieces = Pieces::open(storage.as_ref(), &path, FILE_PIECE)?;
        let first = pieces.next_piece()?.unwrap_or_default();
        // A file shorter than a piece is all there.
        let file = (first.len() >= FILE_PIECE).then_some(FileRest { pieces, path });
        Ok(Input { data: first, pos: 0, pipe: None, file, piped: false, failed: None })
    }

    /// What a background job or a pipeline stage started with this input
    /// reads: the rest of a pipe (the job takes it over: this one is at its
    /// end afterwards), or a copy of the rest of a file or here-document.
    pub(crate) fn for_job(&mut self) -> Input {
        if self.pipe.is_some() {
            std::mem::take(self)
        } else {
            Input {
                data: self.rest().to_vec(),
                pos: 0,
                pipe: None,
                file: self.file.clone(),
                piped: false,
                failed: None,
            }
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
        Input { data: Vec::new(), pos: 0, pipe: Some(reader), file: None, piped: true, failed: None }
    }

    /// Makes sure unread bytes are at hand, waiting for the pipe's writer
    /// or reading the file's next piece; `false` at the end.
    pub(crate) fn fill(&mut self) -> Result<bool, LimitHit> {
        while self.pos >= self.data.len() {
            if let Some(file) = &mut self.file {
                self.pos = 0;
                match file.pieces.next_piece() {
                    Ok(Some(piece)) => self.data = piece,
                    Ok(None) => {
                        self.file = None;
                        self.data = Vec::new();
                        return Ok(false);
                    }
                    // A file that cannot be read further ends here, and
                    // the failure is kept for the command's status.
                    Err(error) => {
                        self.failed = Some(format!("{}: {}", file.path, error_reason(&error)));
                        self.file = None;
                        self.data = Vec::new();
                        return Ok(false);
                    }
                }
                continue;
            }
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

    /// Why the file this input reads could not be read to its end, once:
    /// the one who read it to that end says so (`path: reason`) and fails.
    pub(crate) fn take_failure(&mut self) -> Option<String> {
        self.failed.take()
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
            // The next piece of a file is a buffer of its own.
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

/// Descriptors 3 to 9 as a shell on another thread gets them (a pipeline
/// stage, a background job): an open output as a view of the same stream
/// (writes keep their order), an open input as a copy of what is unread
/// (bash's processes would share the offset).
#[derive(Default)]
pub(crate) struct ThreadFds(Vec<(i32, ThreadSlot)>);

enum ThreadSlot {
    Out(Arc<Mutex<Output>>),
    In(Input),
}

impl Streams {
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

    /// Descriptors 3 to 9 for a stage or a job starting now.
    pub(crate) fn thread_fds(&mut self) -> ThreadFds {
        let mut slots = Vec::new();
        for fd in 3..=9 {
            match self.fd.slot(fd) {
                Some(Slot::Out(index)) => slots.push((fd, ThreadSlot::Out(self.outs[index].share()))),
                Some(Slot::In(index)) => slots.push((fd, ThreadSlot::In(self.ins[index].for_job()))),
                _ => {}
            }
        }
        ThreadFds(slots)
    }

    /// Opens descriptors 3 to 9 as [`thread_fds`](Self::thread_fds) gave
    /// them, in a stage's or a job's fresh interpreter.
    pub(crate) fn adopt_fds(&mut self, fds: ThreadFds) {
        for (fd, slot) in fds.0 {
            let slot = match slot {
                ThreadSlot::Out(stream) => {
                    self.outs.push(Output::view_of(&stream));
                    Slot::Out(self.outs.len() - 1)
                }
                ThreadSlot::In(input) => {
                    self.ins.push(input);
                    Slot::In(self.ins.len() - 1)
                }
            };
            self.fd.set(fd, slot);
        }
    }

    /// After the stages that shared descriptors 3 to 9 of `fds` have
    /// ended: their outputs are this shell's own again (those a job still
    /// writes to stay shared).
    pub(crate) fn unshare_fds(&mut self, fds: Fds) {
        for slot in fds.more {
            if let Slot::Out(index) = slot {
                if let Some(output) = self.outs.get_mut(index) {
                    let stream = output.share();
                    output.unshare(stream);
                }
            }
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

/// What redirections see of the shell: what expansion sees (the
/// variables and options, the directory, the storage, messages), which
/// expands their words, and the streams and descriptors; process
/// substitution is the one way back into the interpreter.
pub(crate) trait RedirectEnv: ExpandEnv {
    fn streams(&self) -> &Streams;
    fn streams_mut(&mut self) -> &mut Streams;
    /// `< <(cmd)`: starts `cmd`, whose output is the input returned.
    fn process_substitution_input(&mut self, list: &ast::CompoundList) -> Result<Input, Flow>;
    /// `> >(cmd)`: starts `cmd`, whose input is the output returned.
    fn process_substitution_output(&mut self, list: &ast::CompoundList) -> Result<Output, Flow>;
}

/// Redirections over any [`RedirectEnv`].
pub(crate) trait Redirect: RedirectEnv {
    /// Runs `f` with `redirects` applied; restores the streams afterwards
    /// and writes the redirected buffers to their files.
    fn with_redirects<'a>(
        &mut self,
        redirects: impl IntoIterator<Item = &'a ast::IoRedirect>,
        f: impl FnOnce(&mut Self) -> Res,
    ) -> Res {
        let saved = self.streams_mut().fd;
        let base_outs = self.streams_mut().outs.len();
        let base_ins = self.streams_mut().ins.len();
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
                self.at_mut().scopes += 1;
                let r = f(self);
                self.at_mut().scopes -= 1;
                r
            }
        };
        self.streams_mut().fd = saved;
        let flush_status = self.flush_files(files)?;
        self.streams_mut().outs.truncate(base_outs);
        self.streams_mut().ins.truncate(base_ins);
        match result {
            Ok(status) => Ok(flush_status.unwrap_or(status)),
            other => other,
        }
    }

    /// Writes redirected buffers to their files; `Some(1)` if one failed.
    fn flush_files(&mut self, files: Vec<Pending>) -> Result<Option<i32>, Flow> {
        let mut status = None;
        for pending in files {
            let Some(buffer) = self.streams_mut().outs.get_mut(pending.buffer) else { continue };
            let data = buffer.take();
            if data.is_empty() {
                continue;
            }
            if let Err(error) = self.runtime().storage.append(&pending.path, &data) {
                status = Some(1);
                let message = format!("{}: {}", pending.name, error_reason(&error));
                self.error(message)?;
            }
        }
        Ok(status)
    }

    /// Appends what went to the files of `exec >file` so far (after each
    /// simple command, so the script can read them back).
    fn flush_exec_files(&mut self) -> Result<(), Flow> {
        for i in 0..self.streams_mut().exec_files.len() {
            let io = self.streams_mut();
            let pending = &io.exec_files[i];
            let Some(buffer) = io.outs.get_mut(pending.buffer) else { continue };
            if buffer.is_empty() {
                continue;
            }
            let data = buffer.take();
            let path = pending.path.clone();
            if let Err(error) = self.runtime().storage.append(&path, &data) {
                let message = format!("{}: {}", self.streams_mut().exec_files[i].name, error_reason(&error));
                self.error(message)?;
            }
        }
        Ok(())
    }

    /// `exec` without a command: the redirections stay for the rest of the
    /// shell (or subshell). Inside a redirected or piped command they are
    /// refused (bash would apply them to that command's streams).
    fn exec_redirects<'a>(&mut self, redirects: impl IntoIterator<Item = &'a ast::IoRedirect>) -> Res {
        if self.at().scopes > 0 {
            self.error("exec: redirections inside a redirected or piped command are not supported")?;
            return Ok(1);
        }
        let mut files = std::mem::take(&mut self.streams_mut().exec_files);
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
        self.streams_mut().exec_files = files;
        status
    }
}

impl<E: RedirectEnv + ?Sized> Redirect for E {}

/// The steps of a redirection.
trait Apply: RedirectEnv {
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
                        if input_kind =>
                    {
                        // `< <(cmd)`, `3< <(cmd)`: cmd's output is the input, as it comes.
                        let input = self.process_substitution_input(&sub.list)?;
                        self.push_input(fd, input);
                        Ok(true)
                    }
                    ast::IoFileRedirectTarget::ProcessSubstitution(ast::ProcessSubstitutionKind::Write, sub)
                        if !input_kind =>
                    {
                        // `> >(cmd)`, `2> >(cmd)`: the descriptor writes into cmd.
                        let output = self.process_substitution_output(&sub.list)?;
                        let io = self.streams_mut();
                        io.outs.push(output);
                        let target = io.outs.len() - 1;
                        match fd {
                            1 => io.fd.out = target,
                            2 => io.fd.err = target,
                            _ => io.fd.set(fd, Slot::Out(target)),
                        }
                        Ok(true)
                    }
                    ast::IoFileRedirectTarget::ProcessSubstitution(..) => {
                        // `> <(cmd)`, `< >(cmd)`: bash opens the pipe's
                        // other end; nothing is read or written here.
                        self.error("process substitution: wrong direction for this redirection")?;
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
                self.streams_mut().fd.err = self.streams_mut().fd.out;
                Ok(true)
            }
        }
    }

    fn set_input(&mut self, fd: i32, data: Vec<u8>) {
        self.push_input(fd, Input::buffer(data));
    }

    fn push_input(&mut self, fd: i32, input: Input) {
        self.streams_mut().ins.push(input);
        if fd == 0 {
            self.streams_mut().fd.input = self.streams_mut().ins.len() - 1;
        } else {
            let io = self.streams_mut();
            io.fd.set(fd, Slot::In(io.ins.len() - 1));
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
        let path = storage_path(&self.state().cwd, name);
        if let Some(data) = self.streams().proc_fd_input(&path) {
            self.set_input(fd, data);
            return Ok(true);
        }
        let storage = self.runtime().shared_storage();
        let read =
            directories_before_slashes(self.runtime().storage, &self.state().cwd, name).and_then(|()| match storage {
                Some(storage) => Input::file(storage, path),
                // A runtime without a shared storage (no jobs either) reads whole.
                None => self.runtime().storage.read(&path).map(Input::buffer),
            });
        match read {
            Ok(input) => {
                self.push_input(fd, input);
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
            "/dev/stdout" => Some(self.streams_mut().fd.out),
            "/dev/stderr" => Some(self.streams_mut().fd.err),
            "/dev/null" => {
                self.streams_mut().outs.push(Output::null());
                Some(self.streams_mut().outs.len() - 1)
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
                let path = storage_path(&self.state().cwd, name);
                let storage = self.runtime().storage;
                if let Err(error) = directories_before_slashes(storage, &self.state().cwd, name) {
                    self.error(format_args!("{name}: {}", error_reason(&error)))?;
                    return Ok(false);
                }
                match storage.stat(&path) {
                    Ok(meta) if meta.kind == FileKind::Directory => {
                        self.error(format_args!("{name}: Is a directory"))?;
                        return Ok(false);
                    }
                    Ok(_) if self.state().options.noclobber && !append && !clobber => {
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
                let cap = self.runtime().limits.max_output_bytes;
                self.streams_mut().outs.push(Output::new(cap));
                let buffer = self.streams_mut().outs.len() - 1;
                files.push(Pending { buffer, path, name: name.to_string() });
                buffer
            }
        };
        match fd {
            1 => self.streams_mut().fd.out = target,
            2 => self.streams_mut().fd.err = target,
            _ => self.streams_mut().fd.set(fd, Slot::Out(target)),
        }
        Ok(true)
    }

    /// `>&2`, `2>&1`, `<&0`, `>&-`, and `>&file` (same as `&>file`).
    fn duplicate(&mut self, fd: i32, source: &str, input: bool, files: &mut Vec<Pending>) -> Result<bool, Flow> {
        let numbered = source.len() == 1 && source.as_bytes()[0].is_ascii_digit();
        let source_slot =
            if numbered { self.streams_mut().fd.slot(i32::from(source.as_bytes()[0] - b'0')) } else { None };
        if source == "-" && fd != 0 && fd != 1 && fd != 2 {
            // `3>&-`, `3<&-`: closes fd 3.
            self.streams_mut().fd.set(fd, Slot::Closed);
            return Ok(true);
        }
        if input {
            let index = match (source, source_slot) {
                ("0", _) => self.streams_mut().fd.input,
                ("-", _) => return Ok(true),
                (_, Some(Slot::In(index))) => index,
                _ => {
                    self.error(format_args!("{source}: Bad file descriptor"))?;
                    return Ok(false);
                }
            };
            match fd {
                0 => self.streams_mut().fd.input = index,
                _ => self.streams_mut().fd.set(fd, Slot::In(index)),
            }
            return Ok(true);
        }
        if let Some(Slot::Out(index)) = source_slot {
            match fd {
                1 => self.streams_mut().fd.out = index,
                2 => self.streams_mut().fd.err = index,
                _ => self.streams_mut().fd.set(fd, Slot::Out(index)),
            }
            return Ok(true);
        }
        let target = match source {
            "1" => self.streams_mut().fd.out,
            "2" => self.streams_mut().fd.err,
            "-" => {
                let cap = self.runtime().limits.max_output_bytes;
                self.streams_mut().outs.push(Output::new(cap));
                self.streams_mut().outs.len() - 1
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
                self.streams_mut().fd.err = self.streams_mut().fd.out;
                return Ok(true);
            }
        };
        match fd {
            1 => self.streams_mut().fd.out = target,
            2 => self.streams_mut().fd.err = target,
            _ => self.streams_mut().fd.set(fd, Slot::Out(target)),
        }
        Ok(true)
    }
}

impl<E: RedirectEnv + ?Sized> Apply for E {}
