//! Process substitution: `<(cmd)` and `>(cmd)` become `/dev/fd/63`,
//! `/dev/fd/62`… as in bash, and a command that opens that path (through
//! [`Context::open`](super::command::Context::open), the storage, or a
//! redirection) reads what `cmd` writes, or writes to `cmd`; `< <(cmd)`
//! makes `cmd`'s output the command's stdin, and `> >(cmd)` (`2>`, `3>`)
//! makes the descriptor write into `cmd`, which is waited for when the
//! descriptor closes.
//!
//! As in bash, `cmd` runs beside the command, on a thread of its own (a
//! subshell, as a background job's), through a bounded pipe
//! ([`super::pipe`]): `head -n1 <(yes)` returns at once and
//! `wc -l <(seq 1 10000000)` holds a pipe's worth, not the output. Each
//! takes one thread of the run's allowance and shares its clock, counters
//! and memory budget; a limit it hits stops the run, as a job's does.
//!
//! When the command has ended: the read end of a `<(cmd)` closes, so a
//! `cmd` still writing ends as on SIGPIPE, and one still running is
//! stopped (bash would leave it running after the command); the write end
//! of a `>(cmd)` closes, so `cmd` sees the end of its input, and it is
//! waited for (bash does not wait: its output may come after the next
//! command's; here it always comes before). A `< <(cmd)` ends the same way
//! when its stdin goes (the end of the redirected command, or of the
//! shell for `exec 3< <(cmd)`).
//!
//! Where this differs from bash otherwise:
//! - A path reads as a pipe does: once, from its start on (a command that
//!   seeks back gets `Illegal seek`). Its size is 0.
//! - The paths exist only for the command they are given to (and what it
//!   runs: a function, a pipeline in it); `ls /dev/fd` lists nothing.
//! - `cmd`'s stdin is a copy of the rest of the shell's when that is a
//!   file or here-document, and empty when it is a pipe (bash's would share
//!   the pipe with the command).

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use brush_parser::ast;

use super::command::Output;
use super::exec::{Flow, Interp, Position, Runtime, Shared};
use super::io::{Input, Streams};
use super::jobs::JobEnv;
use super::pipe::{Clock, PipeReader, PipeWriter};
use super::state::State;
use super::LimitHit;
use crate::storage::{DirEntry, FileKind, Metadata, Storage, StorageError};

/// SIGPIPE: what a `<(cmd)` still running when its reader has gone gets.
const SIGPIPE: u8 = 13;

/// A substitution's path and its end of the pipe.
#[derive(Clone)]
pub(crate) struct ProcFd {
    path: String,
    end: End,
}

#[derive(Clone)]
enum End {
    /// `<(cmd)`: the read end (its guard stops and joins `cmd`).
    Read(Arc<Mutex<ReadEnd>>),
    /// `>(cmd)`: the write end, then `cmd`'s thread (dropped in this
    /// order: the end of input first, then the wait).
    Write(Arc<Mutex<Option<PipeWriter>>>, Arc<Mutex<Option<ProcThread>>>),
}

/// The read end of a `<(cmd)`, read as a pipe: from where it stands on.
struct ReadEnd {
    /// `None` once closed or at its end.
    reader: Option<PipeReader>,
    /// Bytes read from the pipe and not handed out yet, from `at` on.
    held: Vec<u8>,
    at: usize,
    /// Bytes handed out so far: the offset of the next read.
    pos: u64,
    max_memory: usize,
}

impl ReadEnd {
    /// The next bytes (at most `max`), waiting for the writer; empty at the end.
    fn next(&mut self, max: usize) -> Result<Vec<u8>, StorageError> {
        if self.at >= self.held.len() {
            let Some(reader) = &self.reader else { return Ok(Vec::new()) };
            let used = std::mem::take(&mut self.held);
            self.at = 0;
            match reader.read(used) {
                Ok(Some(data)) => self.held = data,
                Ok(None) => {
                    self.reader = None;
                    return Ok(Vec::new());
                }
                // The run is stopping (time, cancellation, a limit hit
                // elsewhere): the end of input here, the limit at the
                // command's next check, without a message of its own.
                Err(_) => {
                    self.reader = None;
                    return Ok(Vec::new());
                }
            }
        }
        let end = self.at.saturating_add(max).min(self.held.len());
        let piece = self.held[self.at..end].to_vec();
        self.at = end;
        self.pos += piece.len() as u64;
        Ok(piece)
    }

    /// What a read at `offset` of at most `len` bytes gets.
    fn read_range(&mut self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        if offset < self.pos {
            return Err(StorageError::Io { path: path.to_string(), message: "Illegal seek".to_string() });
        }
        while self.pos < offset {
            let skip = usize::try_from(offset - self.pos).unwrap_or(usize::MAX);
            if self.next(skip)?.is_empty() {
                return Ok(Vec::new());
            }
        }
        self.next(len)
    }

    /// All the rest, bounded by the memory budget.
    fn read_rest(&mut self, path: &str) -> Result<Vec<u8>, StorageError> {
        let mut all = Vec::new();
        loop {
            let piece = self.next(usize::MAX)?;
            if piece.is_empty() {
                return Ok(all);
            }
            all.extend_from_slice(&piece);
            if all.len() > self.max_memory {
                return Err(StorageError::TooLarge { path: path.to_string(), limit: self.max_memory as u64 });
            }
        }
    }
}

fn broken_pipe(path: &str) -> StorageError {
    StorageError::Io { path: path.to_string(), message: "Broken pipe".to_string() }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these locks: a poisoned one is consistent.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A substitution's thread. Dropping it stops `cmd` (for a `<(cmd)`,
/// whose reader has gone) or lets it finish (a `>(cmd)`, whose input has
/// ended), and joins it: a run never leaves one behind.
#[derive(Debug)]
pub(crate) struct ProcThread {
    handle: Option<JoinHandle<()>>,
    clock: Arc<Clock>,
    stop: bool,
}

impl Drop for ProcThread {
    fn drop(&mut self) {
        if self.stop {
            self.clock.kill(SIGPIPE);
        }
        if let Some(handle) = self.handle.take() {
            if let Err(panic) = handle.join() {
                if !std::thread::panicking() {
                    std::panic::resume_unwind(panic);
                }
            }
        }
    }
}

/// What a substitution's thread starts from.
struct ProcStart {
    state: State,
    input: Input,
    stdout: Output,
    stderr: Arc<Mutex<Output>>,
    position: Position,
    proc_fds: Vec<ProcFd>,
    deadline: Option<std::time::Instant>,
}

/// A substitution's thread: runs `list` in a subshell of the copied shell.
/// Its status is not seen (as in bash, short of `wait $!`); a limit it hits
/// (other than its pipe closing or being stopped) stops the whole run.
fn run_procsub(env: Arc<JobEnv>, shared: Arc<Shared>, clock: Arc<Clock>, start: ProcStart, list: &ast::CompoundList) {
    let outcome = {
        let rt = Runtime::for_job(&env, shared.clone(), clock.clone(), start.deadline);
        let mut interp = Interp::new(&rt, start.state);
        interp.io.outs = vec![start.stdout, Output::view_of(&start.stderr)];
        interp.io.ins = vec![start.input];
        interp.io.stdin_piped = true;
        interp.resume(start.position);
        interp.io.proc_fds = start.proc_fds;
        interp.subshell(|s| s.run_list(list))
        // The interpreter goes here, and with it the pipe's write end.
    };
    if let Err(Flow::Limit(hit)) = outcome {
        // Being stopped reads as `Cancelled`: any other limit is the run's.
        let quiet = matches!(hit, LimitHit::BrokenPipe | LimitHit::Cancelled);
        if !quiet && !clock.stopping() {
            clock.halt(hit);
        }
    }
    shared.threads.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
}

impl Interp<'_> {
    /// Starts `list` beside the command on `clock` (a child of the run's,
    /// which its pipes wait on too): its stdout is `stdout`, its stdin
    /// `input`. `stop`: whether the command's end stops it.
    fn start_procsub(
        &mut self,
        list: &ast::CompoundList,
        input: Input,
        stdout: Output,
        stop: bool,
        clock: Arc<Clock>,
    ) -> Result<ProcThread, Flow> {
        // Every run has one; without it nothing may outlive the command.
        let Some(env) = self.rt.jobs_env.clone() else { return Err(Flow::Limit(LimitHit::Threads)) };
        self.rt.reserve_threads(1)?;
        let shared = self.rt.shared.clone();
        let start = ProcStart {
            state: self.st.clone(),
            input,
            stdout,
            stderr: self.io.outs[self.io.fd.err].share(),
            position: Position { substs: self.at.substs + 1, ..self.position() },
            proc_fds: self.proc_fds(),
            deadline: self.rt.deadline(),
        };
        let (thread_clock, list) = (clock.clone(), list.clone());
        match super::stack::spawn_job(move || run_procsub(env, shared, thread_clock, start, &list)) {
            Ok(handle) => Ok(ProcThread { handle: Some(handle), clock, stop }),
            Err(_) => {
                self.rt.release_threads(1);
                Err(Flow::Limit(LimitHit::Threads))
            }
        }
    }

    /// What `<(cmd)` reads from the shell's stdin: a copy of the rest of a
    /// file, nothing of a pipe (which stays the command's).
    fn procsub_stdin(&self) -> Input {
        self.io.ins.get(self.io.fd.input).map(Input::copy_unless_pipe).unwrap_or_default()
    }

    /// Starts a substitution beside the command; returns its path.
    pub(crate) fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        sub: &ast::SubshellCommand,
    ) -> Result<String, Flow> {
        let number = 63usize.saturating_sub(self.io.proc_fds.len()).max(10);
        let path = format!("/dev/fd/{number}");
        let end = match kind {
            ast::ProcessSubstitutionKind::Read => {
                let clock = Arc::new(Clock::child(&self.rt.clock));
                let (writer, reader) = super::pipe::pipe(clock.clone());
                let input = self.procsub_stdin();
                let thread = self.start_procsub(&sub.list, input, Output::pipe(writer), true, clock)?;
                let reader = reader.with_guard(Box::new(thread));
                End::Read(Arc::new(Mutex::new(ReadEnd {
                    reader: Some(reader),
                    held: Vec::new(),
                    at: 0,
                    pos: 0,
                    max_memory: self.rt.limits.max_memory_bytes,
                })))
            }
            ast::ProcessSubstitutionKind::Write => {
                let clock = Arc::new(Clock::child(&self.rt.clock));
                let (writer, reader) = super::pipe::pipe(clock.clone());
                let stdout = Output::view_of(&self.io.outs[self.io.fd.out].share());
                let thread = self.start_procsub(&sub.list, Input::pipe(reader), stdout, false, clock)?;
                End::Write(Arc::new(Mutex::new(Some(writer))), Arc::new(Mutex::new(Some(thread))))
            }
        };
        self.io.proc_fds.push(ProcFd { path: path.clone(), end });
        Ok(path)
    }

    /// `< <(cmd)`: `cmd` starts beside the command, and its output is the
    /// stdin returned (whose end stops and joins `cmd`).
    pub(crate) fn process_substitution_input(&mut self, list: &ast::CompoundList) -> Result<Input, Flow> {
        let clock = Arc::new(Clock::child(&self.rt.clock));
        let (writer, reader) = super::pipe::pipe(clock.clone());
        let input = self.procsub_stdin();
        let thread = self.start_procsub(list, input, Output::pipe(writer), true, clock)?;
        Ok(Input::pipe(reader.with_guard(Box::new(thread))))
    }

    /// `> >(cmd)`, `2> >(cmd)`: `cmd` starts beside the command, reading
    /// what the returned stream is given; its stdout is the shell's. The
    /// stream's end is `cmd`'s end of input, and waits for `cmd` (as a
    /// `>(cmd)` path's does).
    pub(crate) fn process_substitution_output(&mut self, list: &ast::CompoundList) -> Result<Output, Flow> {
        let clock = Arc::new(Clock::child(&self.rt.clock));
        let (writer, reader) = super::pipe::pipe(clock.clone());
        let stdout = Output::view_of(&self.io.outs[self.io.fd.out].share());
        let thread = self.start_procsub(list, Input::pipe(reader), stdout, false, clock)?;
        Ok(Output::pipe(writer.with_guard(Box::new(thread))))
    }

    /// The command has ended: the substitutions since `base` close their
    /// ends; a `<(cmd)` still running stops, a `>(cmd)` finishes what it
    /// was given; both are joined.
    pub(crate) fn finish_process_substitutions(&mut self, base: usize) -> Result<(), Flow> {
        let fds = self.io.proc_fds.split_off(base.min(self.io.proc_fds.len()));
        let mut threads = Vec::new();
        for fd in &fds {
            match &fd.end {
                End::Read(end) => {
                    let reader = lock(end).reader.take();
                    drop(reader);
                }
                End::Write(writer, thread) => {
                    drop(lock(writer).take());
                    threads.extend(lock(thread).take());
                }
            }
        }
        drop(threads);
        // A limit a substitution hit, or one that ended its pipe early
        // (time, cancellation), stops the script here.
        self.rt.check().map_err(Flow::Limit)
    }

    /// What a command's storage is while substitutions are open: their
    /// paths, then the run's storage.
    pub(crate) fn proc_fds(&self) -> Vec<ProcFd> {
        self.io.proc_fds.clone()
    }
}

impl Streams {
    /// The rest of substitution `path` for a redirection (`< "$1"`) or
    /// `source`, if it is one (a `>(cmd)`'s reads empty).
    pub(crate) fn proc_fd_input(&self, path: &str) -> Option<Vec<u8>> {
        let fd = self.proc_fds.iter().find(|fd| fd.path == path)?;
        Some(match &fd.end {
            End::Read(end) => lock(end).read_rest(path).unwrap_or_default(),
            End::Write(..) => Vec::new(),
        })
    }
}

/// The run's storage with the substitutions' paths in front of it.
pub(crate) struct FdStorage<'a> {
    pub(crate) inner: &'a dyn Storage,
    pub(crate) fds: Vec<ProcFd>,
}

impl FdStorage<'_> {
    fn find(&self, path: &str) -> Option<&ProcFd> {
        if !path.starts_with("/dev/fd/") {
            return None;
        }
        self.fds.iter().find(|fd| fd.path == path)
    }

    fn write_to(fd: &ProcFd, data: &[u8]) -> Result<(), StorageError> {
        match &fd.end {
            End::Read(_) => Err(StorageError::PermissionDenied(fd.path.clone())),
            End::Write(writer, _) => match &*lock(writer) {
                Some(writer) => match writer.write(data) {
                    Ok(()) => Ok(()),
                    Err(LimitHit::BrokenPipe) => Err(broken_pipe(&fd.path)),
                    // The run is stopping: its next check says why.
                    Err(_) => Ok(()),
                },
                None => Err(broken_pipe(&fd.path)),
            },
        }
    }
}

/// A process substitution's read end opened as a file: reads at offsets
/// go on from where the pipe stands (an offset behind it fails).
struct PipeFile {
    end: Arc<Mutex<ReadEnd>>,
    path: String,
}

impl crate::storage::OpenFile for PipeFile {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        lock(&self.end).read_range(&self.path, offset, len)
    }
    fn size(&self) -> u64 {
        0
    }
}

impl Storage for FdStorage<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        match self.find(path) {
            Some(ProcFd { end: End::Read(end), .. }) => lock(end).read_rest(path),
            Some(_) => Ok(Vec::new()),
            None => self.inner.read(path),
        }
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        match self.find(path) {
            Some(ProcFd { end: End::Read(end), .. }) => lock(end).read_range(path, offset, len),
            Some(_) => Ok(Vec::new()),
            None => self.inner.read_range(path, offset, len),
        }
    }
    fn open_read(&self, path: &str) -> Result<Arc<dyn crate::storage::OpenFile>, StorageError> {
        match self.find(path) {
            Some(ProcFd { end: End::Read(end), .. }) => {
                Ok(Arc::new(PipeFile { end: end.clone(), path: path.to_owned() }))
            }
            Some(_) => Ok(Arc::new(crate::storage::Snapshot(Arc::default()))),
            None => self.inner.open_read(path),
        }
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        match self.find(path) {
            Some(fd) => Self::write_to(fd, data),
            None => self.inner.write(path, data),
        }
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        match self.find(path) {
            Some(fd) => Self::write_to(fd, data),
            None => self.inner.append(path, data),
        }
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        match self.find(path) {
            Some(_) => {
                Ok(Metadata { kind: FileKind::File, size: 0, mode: 0o600, modified: std::time::SystemTime::UNIX_EPOCH })
            }
            None => self.inner.stat(path),
        }
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        match self.find(path) {
            Some(_) => self.stat(path),
            None => self.inner.lstat(path),
        }
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        self.inner.list(path)
    }
    fn list_metadata(&self, path: &str) -> Result<Vec<(DirEntry, Metadata)>, StorageError> {
        self.inner.list_metadata(path)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.inner.mkdir(path, parents)
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.inner.remove(path, recursive)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.inner.rename(from, to)
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.inner.symlink(target, link)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.inner.readlink(path)
    }
    fn file_size_limit(&self, path: &str) -> Option<u64> {
        self.inner.file_size_limit(path)
    }
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        self.inner.set_mode(path, mode)
    }
}
