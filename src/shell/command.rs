//! What a command (`cat`, `grep`, `awk`…) sees: its arguments, its standard
//! streams (stdin read as it comes, stdout and stderr written as it goes), the storage, the working directory, and a way to
//! run other commands (for `xargs` and `find -exec`). Commands never touch
//! the host: every file goes through [`Storage`].

use std::cell::{Cell, RefCell};
use std::sync::{Arc, Mutex};

use crate::storage::{join, normalize, Metadata, OpenFile, Pieces, Storage, StorageError};

use super::io::Input;
use super::pipe::PipeWriter;
use super::LimitHit;

/// A command's entry point: its arguments (without the command name, which
/// is `ctx.name`) and its context. Returns the exit status (0–255), or the
/// limit that stopped the script.
pub type CommandFn = fn(&mut Context<'_>, &[String]) -> Result<i32, LimitHit>;

/// Bytes a command writes. A stream that is kept (stdout, stderr, a
/// substitution, a redirected file) has the run's output limit as its cap:
/// a write past it keeps what fits and ends the script with
/// [`LimitHit::Output`]. A stream into a pipe keeps nothing: bytes flow to
/// the next stage as it reads them.
#[derive(Debug)]
pub struct Output {
    buf: Vec<u8>,
    cap: usize,
    truncated: bool,
    /// Set on every view of one stream (stdout and stderr under `2>&1`, the
    /// stderr that the stages of a pipeline share): every write goes there,
    /// so the writers keep their order.
    merged: Option<Arc<Mutex<Output>>>,
    /// The pipe to the next stage of a pipeline.
    pipe: Option<PipeWriter>,
    /// `/dev/null`: every write succeeds and nothing is kept.
    discard: bool,
}

impl Output {
    /// An empty stream that holds at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        Output { buf: Vec::new(), cap, truncated: false, merged: None, pipe: None, discard: false }
    }

    /// `/dev/null`: takes every write and keeps nothing, so no output
    /// limit applies to it.
    pub(crate) fn null() -> Self {
        Output { buf: Vec::new(), cap: 0, truncated: false, merged: None, pipe: None, discard: true }
    }

    /// A stream into a pipe.
    pub(crate) fn pipe(writer: PipeWriter) -> Self {
        Output { buf: Vec::new(), cap: 0, truncated: false, merged: None, pipe: Some(writer), discard: false }
    }

    /// A view that writes into `stream`; give one to stdout and one to
    /// stderr when they are the same stream.
    pub fn view_of(stream: &Arc<Mutex<Output>>) -> Self {
        Output { buf: Vec::new(), cap: 0, truncated: false, merged: Some(stream.clone()), pipe: None, discard: false }
    }

    /// Makes this stream shareable: it moves into the returned stream and
    /// this becomes a view of it (a view stays a view of the same stream).
    pub(crate) fn share(&mut self) -> Arc<Mutex<Output>> {
        if let Some(stream) = &self.merged {
            return stream.clone();
        }
        let stream = Arc::new(Mutex::new(std::mem::replace(self, Output::new(0))));
        *self = Output::view_of(&stream);
        stream
    }

    /// Undoes [`share`](Self::share) once every other view has gone.
    pub(crate) fn unshare(&mut self, stream: Arc<Mutex<Output>>) {
        let own = self.merged.as_ref().is_some_and(|mine| Arc::ptr_eq(mine, &stream));
        if !own {
            return;
        }
        // A background job may still hold a view: then this stays one.
        self.merged = None;
        match Arc::try_unwrap(stream) {
            Ok(stream) => *self = stream.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner),
            Err(stream) => self.merged = Some(stream),
        }
    }

    fn lock(stream: &Mutex<Output>) -> std::sync::MutexGuard<'_, Output> {
        stream.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends bytes; past the cap keeps what fits and reports the limit.
    /// Into a pipe, waits while the pipe is full, and reports
    /// [`LimitHit::BrokenPipe`] once nobody reads it.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), LimitHit> {
        if let Some(stream) = &self.merged {
            return Self::lock(stream).write(bytes);
        }
        if let Some(pipe) = &self.pipe {
            return pipe.write(bytes);
        }
        if self.discard {
            return Ok(());
        }
        let room = self.cap.saturating_sub(self.buf.len());
        if bytes.len() <= room {
            self.buf.extend_from_slice(bytes);
            Ok(())
        } else {
            self.buf.extend_from_slice(&bytes[..room]);
            self.truncated = true;
            Err(LimitHit::Output)
        }
    }

    /// Appends a string.
    pub fn write_str(&mut self, text: &str) -> Result<(), LimitHit> {
        self.write(text.as_bytes())
    }

    /// Whether nothing was written (or all was taken). A pipe keeps nothing.
    pub fn is_empty(&self) -> bool {
        match &self.merged {
            Some(stream) => Self::lock(stream).is_empty(),
            None => self.buf.is_empty(),
        }
    }

    /// Takes the bytes out, leaving the stream empty (cap and flag kept).
    pub fn take(&mut self) -> Vec<u8> {
        match &self.merged {
            Some(stream) => Self::lock(stream).take(),
            None => std::mem::take(&mut self.buf),
        }
    }

    /// Whether a write was cut at the cap.
    pub fn truncated(&self) -> bool {
        match &self.merged {
            Some(stream) => Self::lock(stream).truncated(),
            None => self.truncated,
        }
    }

    /// The cap this stream was made with (a pipe and `/dev/null` have none: `usize::MAX`;
    /// what a command builds before writing is bounded by its memory budget).
    pub fn cap(&self) -> usize {
        match &self.merged {
            Some(stream) => Self::lock(stream).cap(),
            None if self.pipe.is_some() || self.discard => usize::MAX,
            None => self.cap,
        }
    }
}

/// A command's standard input: a file's or a here-document's bytes, or a
/// pipe from the previous stage of a pipeline, read as it is written.
///
/// A command reads it in one of three ways: [`read_all`](Stdin::read_all)
/// (the rest at once, for commands that need all of it, like `sort`),
/// [`read_chunk`](Stdin::read_chunk) (what is at hand, for `cat` or `wc`)
/// or [`read_until`](Stdin::read_until) (a line, for `head` or `grep`).
/// What is read is consumed: the next command on the same stdin starts
/// after it. What a command read ahead from a pipe without using is lost
/// with it, as a process's buffer is.
///
/// Reading waits for the writer; when the run must stop (time, cancel, or
/// stdin beyond the memory budget), the read fails with that limit (and
/// `Context::read("-")`, which cannot say so, returns what it has and
/// the command's run ends with the limit once the command returns).
#[derive(Debug, Default)]
pub struct Stdin {
    input: RefCell<Input>,
    max_memory: usize,
    hit: Cell<Option<LimitHit>>,
    used: Cell<bool>,
}

impl Stdin {
    /// A stdin holding `bytes` (for tests and for commands run by hand).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Stdin::new(Input::buffer(bytes.to_vec()), usize::MAX)
    }

    pub(crate) fn new(input: Input, max_memory: usize) -> Self {
        Stdin { input: RefCell::new(input), max_memory, hit: Cell::new(None), used: Cell::new(false) }
    }

    /// The input back, with what was read consumed; what was read ahead of
    /// a pipe and not used is dropped.
    pub(crate) fn into_input(self) -> (Input, Option<LimitHit>) {
        let mut input = self.input.into_inner();
        if self.used.get() {
            input.drop_read_ahead();
        }
        (input, self.hit.get())
    }

    fn note(&self, result: Result<bool, LimitHit>) -> Result<bool, LimitHit> {
        self.used.set(true);
        if let Err(hit) = result {
            self.hit.set(Some(hit));
        }
        result
    }

    /// All the rest of stdin, waiting for the writer to finish. Fails with
    /// [`LimitHit::Memory`] past the run's memory budget.
    pub fn read_all(&self) -> Result<Vec<u8>, LimitHit> {
        let mut all = Vec::new();
        while let Some(chunk) = self.read_chunk()? {
            if all.is_empty() {
                all = chunk;
            } else {
                all.extend_from_slice(&chunk);
            }
            if all.len() > self.max_memory {
                self.hit.set(Some(LimitHit::Memory));
                return Err(LimitHit::Memory);
            }
        }
        Ok(all)
    }

    /// The bytes at hand (waiting for some), consumed; `None` at end of file.
    pub fn read_chunk(&self) -> Result<Option<Vec<u8>>, LimitHit> {
        let mut input = self.input.borrow_mut();
        if !self.note(input.fill())? {
            return Ok(None);
        }
        Ok(Some(input.take_rest()))
    }

    /// At most `max` bytes of what is at hand (waiting for some), consumed;
    /// `None` at end of file.
    pub fn read_up_to(&self, max: usize) -> Result<Option<Vec<u8>>, LimitHit> {
        let mut input = self.input.borrow_mut();
        if !self.note(input.fill())? {
            return Ok(None);
        }
        let rest = input.rest();
        if rest.len() <= max {
            return Ok(Some(input.take_rest()));
        }
        let part = rest[..max].to_vec();
        input.consume(max);
        Ok(Some(part))
    }

    /// Appends to `line` the bytes up to and including the next `delim`
    /// (or up to the end); `false` when stdin was already at its end.
    pub fn read_until(&self, delim: u8, line: &mut Vec<u8>) -> Result<bool, LimitHit> {
        let mut input = self.input.borrow_mut();
        let mut any = false;
        while self.note(input.fill())? {
            any = true;
            let rest = input.rest();
            match memchr::memchr(delim, rest) {
                Some(at) => {
                    line.extend_from_slice(&rest[..=at]);
                    input.consume(at + 1);
                    return Ok(true);
                }
                None => {
                    line.extend_from_slice(rest);
                    let n = rest.len();
                    input.consume(n);
                }
            }
            if line.len() > self.max_memory {
                self.hit.set(Some(LimitHit::Memory));
                return Err(LimitHit::Memory);
            }
        }
        Ok(any)
    }
}

/// How many bytes of a file [`Reader`] asks the storage for at a time.
pub const FILE_PIECE: usize = 1 << 18;

/// Why reading an input in pieces stopped.
#[derive(Debug)]
pub enum ReadFailed {
    /// A limit of the run (stdin past the memory budget, time, cancel).
    Limit(LimitHit),
    /// The storage failed on a later piece of a file.
    Storage(StorageError),
}

impl From<LimitHit> for ReadFailed {
    fn from(hit: LimitHit) -> Self {
        ReadFailed::Limit(hit)
    }
}

/// An input read in pieces: stdin as it comes, or a file opened once
/// ([`Storage::open_read`]) and read through [`Pieces`], [`FILE_PIECE`]
/// bytes at a time, so a command over a large file holds one piece, not
/// the file, and reads one version of it however the path changes.
pub struct Reader<'a> {
    source: Source<'a>,
}

enum Source<'a> {
    Stdin(&'a Stdin),
    File {
        pieces: Pieces,
        first: Option<Vec<u8>>,
        /// A process substitution's path (`/dev/fd/N`): a pipe, whose
        /// reads may be short before its end.
        stream: bool,
    },
}

impl<'a> Reader<'a> {
    /// Opens a file by the path the user wrote, relative to `cwd`, as
    /// [`Context::open`] does (for a command that opens files later, when
    /// it reaches them).
    pub fn file(storage: &'a dyn Storage, cwd: &str, user_path: &str) -> Result<Reader<'a>, StorageError> {
        directories_before_slashes(storage, cwd, user_path)?;
        let path = normalize(&join(cwd, user_path));
        let mut pieces = Pieces::open(storage, &path, FILE_PIECE)?;
        let first = Some(pieces.next_piece()?.unwrap_or_default());
        let stream = path.starts_with("/dev/fd/");
        Ok(Reader { source: Source::File { pieces, first, stream } })
    }

    /// A file's whole content when its first piece was all of it (a small
    /// file: one read, as [`Storage::read`]); otherwise the reader back.
    pub fn into_whole(self) -> Result<Vec<u8>, Self> {
        match self.source {
            Source::File { first: Some(first), stream: false, .. } if first.len() < FILE_PIECE => Ok(first),
            source => Err(Reader { source }),
        }
    }

    /// Whether this reads a pipe (stdin, a process substitution), which
    /// has no size and cannot be read from its end.
    pub fn is_stream(&self) -> bool {
        matches!(self.source, Source::Stdin(_) | Source::File { stream: true, .. })
    }

    /// The open file behind a file's reader (none for stdin), for a
    /// command that reads at offsets of its own (`tail` from the end).
    pub fn open_file(&self) -> Option<&Arc<dyn OpenFile>> {
        match &self.source {
            Source::File { pieces, .. } => Some(pieces.file()),
            Source::Stdin(_) => None,
        }
    }

    /// The next piece (never empty); `None` at the end.
    pub fn next_piece(&mut self) -> Result<Option<Vec<u8>>, ReadFailed> {
        match &mut self.source {
            Source::Stdin(stdin) => Ok(stdin.read_chunk()?),
            Source::File { pieces, first, .. } => match first.take() {
                Some(piece) if piece.is_empty() => Ok(None),
                Some(piece) => Ok(Some(piece)),
                None => pieces.next_piece().map_err(ReadFailed::Storage),
            },
        }
    }
}

/// Lines (or `-z` records) of a [`Reader`], one piece held at a time.
pub struct Lines<'a> {
    reader: Reader<'a>,
    buf: Vec<u8>,
    pos: usize,
    /// How far past `pos` is known to hold no delimiter.
    scanned: usize,
    end: bool,
    max_memory: usize,
    /// Whether the line returned last ended with the delimiter.
    delimited: bool,
}

impl<'a> Lines<'a> {
    /// Lines of `reader`; one longer than `max_memory` fails with
    /// [`LimitHit::Memory`].
    pub fn new(reader: Reader<'a>, max_memory: usize) -> Self {
        Lines { reader, buf: Vec::new(), pos: 0, scanned: 0, end: false, max_memory, delimited: false }
    }

    /// Whether the line returned last ended with the delimiter (only the
    /// last line of an input may not).
    pub fn delimited(&self) -> bool {
        self.delimited
    }

    /// The next line without its `delim` (a last line without one is still
    /// a line); `None` at the end. The slice lives until the next call.
    pub fn next_line(&mut self, delim: u8) -> Result<Option<&[u8]>, ReadFailed> {
        let (start, stop) = loop {
            let from = self.pos + self.scanned;
            if let Some(at) = memchr::memchr(delim, &self.buf[from..]) {
                let start = self.pos;
                self.pos = from + at + 1;
                self.scanned = 0;
                self.delimited = true;
                break (start, from + at);
            }
            if self.end {
                if self.pos < self.buf.len() {
                    let start = self.pos;
                    self.pos = self.buf.len();
                    self.scanned = 0;
                    self.delimited = false;
                    break (start, self.buf.len());
                }
                return Ok(None);
            }
            self.scanned = self.buf.len() - self.pos;
            self.buf.drain(..self.pos);
            self.pos = 0;
            match self.reader.next_piece()? {
                Some(piece) if self.buf.is_empty() => self.buf = piece,
                Some(piece) => self.buf.extend_from_slice(&piece),
                None => self.end = true,
            }
            if self.buf.len() > self.max_memory {
                return Err(ReadFailed::Limit(LimitHit::Memory));
            }
        };
        Ok(Some(&self.buf[start..stop]))
    }
}

/// Runs another command line from inside a command (`xargs`, `find -exec`):
/// `argv` (`argv[0]` is the command name: a builtin, a function or a command),
/// the bytes for its stdin, and the streams it writes to. Returns its status.
pub trait Runner {
    /// Runs `argv` with `stdin`, writing into `stdout` and `stderr`.
    fn run(&mut self, argv: &[String], stdin: &[u8], stdout: &mut Output, stderr: &mut Output)
        -> Result<i32, LimitHit>;

    /// The exported variables with a scalar value, sorted by name (`env`,
    /// `printenv`). A runner without a shell has none.
    fn exported(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Runs `argv` as [`run`](Runner::run) does, in an environment changed
    /// first as `env` asks; only exported variables reach the command, as
    /// through `exec`. A runner without a shell refuses a change (status 125).
    fn run_with_env(
        &mut self,
        env: &EnvChange,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<i32, LimitHit> {
        if env.clear || !env.unset.is_empty() || !env.set.is_empty() {
            stderr.write_str("env: cannot change the environment here\n")?;
            return Ok(125);
        }
        self.run(argv, stdin, stdout, stderr)
    }

    /// Runs `argv` as [`run`](Runner::run) does, but stops it once `limit`
    /// has passed (`timeout`): `Ok(None)` when that cut it short. The run's
    /// own limits still apply and win when they come first. A runner that
    /// cannot narrow the clock runs the command under the run's limits.
    fn run_with_timeout(
        &mut self,
        limit: std::time::Duration,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<Option<i32>, LimitHit> {
        let _ = limit;
        self.run(argv, stdin, stdout, stderr).map(Some)
    }

    /// The run's network (`curl`, `wget`): `None` when the shell has no
    /// network policy, or for a runner without a shell.
    #[cfg(feature = "network")]
    fn network(&self) -> Option<Network> {
        None
    }
}

/// What a command may use of the network: the run's session (policy and
/// request count) and when the run must end, which no request outlives.
#[cfg(feature = "network")]
pub struct Network {
    /// The run's session.
    pub session: Arc<crate::net::Session>,
    /// The run's end (its time limit, or a `timeout` around the command).
    pub deadline: Option<std::time::Instant>,
}

/// How `env` changes the environment of the command it runs: `-i`, then
/// `-u NAME`s, then `NAME=value`s.
#[derive(Debug, Default)]
pub struct EnvChange {
    /// `-i`: start from an empty environment.
    pub clear: bool,
    /// `-u NAME`: variables removed.
    pub unset: Vec<String>,
    /// `NAME=value`: variables set and exported.
    pub set: Vec<(String, String)>,
}

/// A command's view of the shell for one invocation.
pub struct Context<'a> {
    /// The name the command was called by (for messages: `cat: x: …`).
    pub name: &'a str,
    /// Where every file lives.
    pub storage: &'a dyn Storage,
    /// The working directory, an absolute normalised virtual path.
    pub cwd: &'a str,
    /// Standard input: a file, a here-document, or a pipe read as it is written.
    pub stdin: &'a Stdin,
    /// Standard output.
    pub stdout: &'a mut Output,
    /// Standard error.
    pub stderr: &'a mut Output,
    /// Looks up a shell variable (for commands that read `HOME` and the like).
    pub var: &'a dyn Fn(&str) -> Option<String>,
    /// Runs other commands (`xargs`, `find -exec`).
    pub runner: &'a mut dyn Runner,
    /// Called in long loops: an error means the script must stop (the wall
    /// clock ran out or the caller cancelled).
    pub check: &'a dyn Fn() -> Result<(), LimitHit>,
    /// The run's memory budget: the most bytes a command may keep in its
    /// own structures (awk's arrays), refused with [`LimitHit::Memory`].
    pub max_memory: usize,
}

impl<'a> Context<'a> {
    /// The absolute virtual path of a path as the user wrote it.
    pub fn path(&self, user_path: &str) -> String {
        normalize(&join(self.cwd, user_path))
    }

    /// Writes `name: message` and a newline to stderr.
    pub fn error(&mut self, message: impl std::fmt::Display) -> Result<(), LimitHit> {
        let line = format!("{}: {}\n", self.name, message);
        self.stderr.write_str(&line)
    }

    /// Writes `name: user_path: reason` for a storage error, as GNU tools
    /// do: the path as the user wrote it, not the absolute one.
    pub fn storage_error(&mut self, user_path: &str, error: &StorageError) -> Result<(), LimitHit> {
        let line = format!("{}: {}: {}\n", self.name, user_path, error_reason(error));
        self.stderr.write_str(&line)
    }

    /// Reads a file by the path the user wrote; `-` and `/dev/stdin` are stdin.
    pub fn read(&self, user_path: &str) -> Result<Vec<u8>, StorageError> {
        if user_path == "-" || user_path == "/dev/stdin" {
            // A limit is kept by the stdin and ends the command's run.
            return Ok(self.stdin.read_all().unwrap_or_default());
        }
        directories_before_slashes(self.storage, self.cwd, user_path)?;
        self.storage.read(&self.path(user_path))
    }

    /// Opens an input by the path the user wrote (`-` and `/dev/stdin` are stdin) to be read
    /// in pieces. A file's first piece is read here, so a file that cannot
    /// be read fails here with `read`'s error.
    pub fn open(&self, user_path: &str) -> Result<Reader<'a>, StorageError> {
        if user_path == "-" || user_path == "/dev/stdin" {
            return Ok(Reader { source: Source::Stdin(self.stdin) });
        }
        Reader::file(self.storage, self.cwd, user_path)
    }

    /// The metadata of a path as the user wrote it, following symlinks.
    /// `/dev/stdin` is a file (the command's stdin, of unknown size).
    pub fn stat(&self, user_path: &str) -> Result<Metadata, StorageError> {
        if user_path == "/dev/stdin" {
            return Ok(Metadata {
                kind: crate::storage::FileKind::File,
                size: 0,
                mode: 0o600,
                modified: std::time::SystemTime::now(),
            });
        }
        directories_before_slashes(self.storage, self.cwd, user_path)?;
        self.storage.stat(&self.path(user_path))
    }

    /// The metadata of a path as the user wrote it, not following a final
    /// symlink unless a trailing slash asks for it (`l/` names the directory
    /// `l` points to, as the kernel reads it).
    pub fn lstat(&self, user_path: &str) -> Result<Metadata, StorageError> {
        if has_trailing_slash(user_path) || user_path == "/dev/stdin" {
            return self.stat(user_path);
        }
        directories_before_slashes(self.storage, self.cwd, user_path)?;
        self.storage.lstat(&self.path(user_path))
    }
}

/// The kernel's rule that normalising a path forgets: in `f/`, `f/.` and
/// `f/../g`, `f` must be a directory (`cat f/`: Not a directory). Checks
/// each component the user wrote before a `/`, following symlinks, when the
/// path has a trailing slash, `.` or `..` (others keep all their components
/// through normalising, and the storage checks those). A component that does
/// not exist is left to the operation itself, whose error depends on it.
pub fn directories_before_slashes(storage: &dyn Storage, cwd: &str, user_path: &str) -> Result<(), StorageError> {
    // A leading `./` names the working directory, a directory: `find .`'s
    // paths (`./a/b.h`) need no check, and cost no `stat` per component.
    let mut rest = user_path;
    while let Some(after) = rest.strip_prefix("./") {
        rest = after.trim_start_matches('/');
    }
    let hidden = has_trailing_slash(user_path) || rest.split('/').any(|part| part == "." || part == "..");
    if !hidden {
        return Ok(());
    }
    for (at, _) in user_path.match_indices('/') {
        let prefix = &user_path[..at];
        if prefix.is_empty() || prefix.ends_with('/') {
            continue;
        }
        let path = normalize(&join(cwd, prefix));
        match storage.stat(&path) {
            Ok(meta) if meta.kind != crate::storage::FileKind::Directory => {
                return Err(StorageError::NotADirectory(path));
            }
            Ok(_) | Err(StorageError::NotFound(_)) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Whether the user wrote the path with a trailing slash (not `/` itself):
/// it then names a directory, and creating a file there fails.
pub fn has_trailing_slash(user_path: &str) -> bool {
    user_path.ends_with('/') && user_path.bytes().any(|b| b != b'/')
}

/// The reason part of a storage error, without its path:
/// `No such file or directory`.
pub fn error_reason(error: &StorageError) -> String {
    let full = error.to_string();
    let prefix_len = error.path().len() + 2;
    if full.len() >= prefix_len && full.starts_with(error.path()) {
        full[prefix_len..].to_string()
    } else {
        full
    }
}

/// Runs one command the way a test wants it: by name, with arguments and
/// stdin, over `storage` with the working directory at `/`; other commands
/// it runs (xargs, find -exec) come from the same table, plus `echo`, `true`
/// and `false`, which the interpreter provides. Returns (status, stdout, stderr).
#[cfg(test)]
pub(crate) fn run_for_test(storage: &dyn Storage, name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    struct TableRunner<'s> {
        storage: &'s dyn Storage,
    }
    impl Runner for TableRunner<'_> {
        fn run(
            &mut self,
            argv: &[String],
            stdin: &[u8],
            stdout: &mut Output,
            stderr: &mut Output,
        ) -> Result<i32, LimitHit> {
            // The interpreter's builtins that xargs and find -exec tests need.
            match argv[0].as_str() {
                "echo" => {
                    stdout.write_str(&format!("{}\n", argv[1..].join(" ")))?;
                    return Ok(0);
                }
                "true" => return Ok(0),
                "false" => return Ok(1),
                _ => {}
            }
            let Some(function) = super::commands::lookup(&argv[0]) else {
                stderr.write_str(&format!("{}: command not found\n", argv[0]))?;
                return Ok(127);
            };
            let mut inner = TableRunner { storage: self.storage };
            let mut ctx = Context {
                name: &argv[0],
                storage: self.storage,
                cwd: "/",
                stdin: &Stdin::from_bytes(stdin),
                stdout,
                stderr,
                var: &|_| None,
                runner: &mut inner,
                check: &|| Ok(()),
                max_memory: usize::MAX,
            };
            function(&mut ctx, &argv[1..])
        }
    }
    let mut stdout = Output::new(1 << 24);
    let mut stderr = Output::new(1 << 24);
    let argv: Vec<String> = std::iter::once(name).chain(args.iter().copied()).map(String::from).collect();
    let status = TableRunner { storage }
        .run(&argv, stdin.as_bytes(), &mut stdout, &mut stderr)
        .unwrap_or_else(|hit| hit.exit_code());
    (status, String::from_utf8_lossy(&stdout.take()).into_owned(), String::from_utf8_lossy(&stderr.take()).into_owned())
}
