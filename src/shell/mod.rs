//! A virtual bash for agents: the model writes ordinary shell, and every
//! file the script touches is a file of a [`Storage`], so overlays, dry
//! runs, mounts and path policy keep working. Nothing runs on the host.
//!
//! The grammar is brush-parser's; the interpreter, the expansions and every
//! command are ours, written against [`Storage`] (see `docs/SHELL.md`).

mod arith;
mod arith_syntax;
mod builtins;
pub mod command;
mod commands;
mod exec;
mod expand;
mod flow;
mod interp_env;
mod io;
mod jobs;
mod parse;
mod pattern;
mod pipe;
mod procsub;
mod quote;
mod runtime;
pub mod snapshot;
mod stack;
mod state;
pub mod tool;

pub use snapshot::SnapshotError;
pub use tool::{register_shell_tool, register_shell_tool_with_store, SessionKeeper};

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::storage::{join, Storage, StorageError};
use crate::CancelToken;
use io::Redirect as _;

/// Bounds on one [`Shell::run`]. Each, when reached, ends the script with a
/// named error ([`LimitHit`]) and an exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Simple commands run (builtins, functions and commands alike).
    pub max_commands: u64,
    /// Iterations of all loops together.
    pub max_loop_iterations: u64,
    /// Nested function calls (and `source`/`eval` levels).
    pub max_function_depth: u32,
    /// Bytes in any one stream (stdout, stderr, a pipe, a substitution).
    pub max_output_bytes: usize,
    /// Wall-clock time.
    pub max_duration: Duration,
    /// Bytes the session's variables may hold together, and the largest
    /// value an expansion or a command (awk) may build: checked before a
    /// value is built where its size is known, and at the end of each run,
    /// so a session never grows past it from call to call.
    pub max_memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_commands: 100_000,
            max_loop_iterations: 100_000,
            max_function_depth: 100,
            max_output_bytes: 1 << 20,
            max_duration: Duration::from_secs(10),
            max_memory_bytes: 256 << 20,
        }
    }
}

/// The limit that stopped a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    /// [`Limits::max_commands`].
    Commands,
    /// [`Limits::max_loop_iterations`].
    LoopIterations,
    /// [`Limits::max_function_depth`].
    FunctionDepth,
    /// [`Limits::max_output_bytes`]: the output was truncated.
    Output,
    /// [`Limits::max_duration`].
    WallTime,
    /// The caller's cancellation token fired.
    Cancelled,
    /// [`Limits::max_memory_bytes`]: a value, or the session's variables,
    /// would have grown past it.
    Memory,
    /// Too many pipeline stages at once ([`MAX_THREADS`]): each stage but
    /// the last runs on a thread of its own.
    Threads,
    /// A write into a pipe whose reader has gone (bash's SIGPIPE): it ends
    /// the stage that wrote, whose status is 141; it never ends a run.
    BrokenPipe,
}

/// How many threads one run may use at once for pipeline stages.
pub const MAX_THREADS: usize = 256;

impl LimitHit {
    /// The exit code a script stopped by this limit ends with.
    pub fn exit_code(self) -> i32 {
        match self {
            LimitHit::WallTime => 124,
            LimitHit::Cancelled => 130,
            LimitHit::BrokenPipe => 141,
            _ => 125,
        }
    }

    /// The message written to stderr when this limit stops a script.
    pub fn message(self) -> &'static str {
        match self {
            LimitHit::Commands => "aikido-shell: command limit reached",
            LimitHit::LoopIterations => "aikido-shell: loop iteration limit reached",
            LimitHit::FunctionDepth => "aikido-shell: function depth limit reached",
            LimitHit::Output => "aikido-shell: output limit reached, output truncated",
            LimitHit::WallTime => "aikido-shell: time limit reached",
            LimitHit::Cancelled => "aikido-shell: cancelled",
            LimitHit::Memory => "aikido-shell: memory limit reached",
            LimitHit::Threads => "aikido-shell: thread limit reached (pipeline stages)",
            LimitHit::BrokenPipe => "aikido-shell: broken pipe",
        }
    }
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// What one [`Shell::run`] produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunResult {
    /// Everything the script wrote to standard output.
    pub stdout: Vec<u8>,
    /// Everything the script wrote to standard error.
    pub stderr: Vec<u8>,
    /// The exit status, as `$?` would show it.
    pub exit_code: i32,
    /// Whether stdout or stderr was cut at the output limit.
    pub truncated: bool,
    /// The limit that ended the script, if one did.
    pub limit: Option<LimitHit>,
    /// Every path the script created, changed or removed, sorted, once each.
    pub write_set: Vec<String>,
}

/// How a shell starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellOptions {
    /// The working directory a fresh shell starts in (`/` by default).
    pub cwd: String,
    /// Variables a fresh shell starts with, exported.
    pub env: Vec<(String, String)>,
    /// Bounds on each run.
    pub limits: Limits,
    /// The `bash` tool only: the most bytes of a result the model reads
    /// (default [`tool::DEFAULT_MAX_RESULT_BYTES`]). A longer result keeps
    /// its head and its tail around a marked middle, and is saved whole as
    /// a file of the storage that the marker names (see [`tool`]).
    pub max_result_bytes: usize,
    /// What `curl` and `wget` may reach (see [`crate::net::NetworkPolicy`]);
    /// `None`, the default: no network at all.
    #[cfg(feature = "network")]
    pub network: Option<Arc<crate::net::NetworkPolicy>>,
    /// The `bash` tool only: how many shells it keeps, how much memory
    /// they may hold together, and how long an idle one is kept.
    pub sessions: tool::SessionLimits,
}

impl Default for ShellOptions {
    fn default() -> Self {
        ShellOptions {
            cwd: "/".to_string(),
            env: vec![("HOME".to_string(), "/".to_string()), ("PATH".to_string(), "/usr/bin:/bin".to_string())],
            limits: Limits::default(),
            max_result_bytes: tool::DEFAULT_MAX_RESULT_BYTES,
            #[cfg(feature = "network")]
            network: None,
            sessions: tool::SessionLimits::default(),
        }
    }
}

/// One shell session: its working directory, variables, functions and
/// options persist from one [`run`](Shell::run) to the next.
///
/// A run's `exit` ends that run only; the session goes on. An `EXIT` trap
/// runs at the end of the run that set it (also after `exit` and `set -e`),
/// then is cleared; it does not run after a limit stopped the script.
pub struct Shell {
    storage: Arc<dyn Storage>,
    options: ShellOptions,
    /// `None` only while a run holds it.
    state: Option<state::State>,
}

impl Shell {
    /// A fresh session over `storage`.
    pub fn new(storage: Arc<dyn Storage>, options: ShellOptions) -> Self {
        let state = state::State::new(&options.cwd, &options.env);
        Shell { storage, options, state: Some(state) }
    }

    /// Runs a script as `bash -c` would, in this session's state.
    /// `cancel`, when it fires, stops the script with [`LimitHit::Cancelled`].
    ///
    /// The script runs where the stack is known (see `docs/RELIABILITY.md`):
    /// on this thread when it has 4 MiB of stack left, else on a thread of
    /// the run's own, so a small-stack caller is as safe as any.
    pub fn run(&mut self, script: &str, cancel: Option<&CancelToken>) -> RunResult {
        match stack::run(|| self.run_here(script, cancel)) {
            Ok(result) => result,
            Err(error) => RunResult {
                stderr: format!("aikido-shell: cannot start the script's thread: {error}\n").into_bytes(),
                exit_code: 126,
                ..RunResult::default()
            },
        }
    }

    fn run_here(&mut self, script: &str, cancel: Option<&CancelToken>) -> RunResult {
        let recorder = Arc::new(Recorder { inner: self.storage.clone(), writes: Mutex::new(Vec::new()) });
        let limits = &self.options.limits;
        let mut runtime = exec::Runtime::new(&*recorder, limits, cancel);
        runtime.jobs_env = Some(Arc::new(jobs::JobEnv {
            storage: recorder.clone(),
            limits: limits.clone(),
            #[cfg(feature = "network")]
            network: self.options.network.as_ref().map(|policy| Arc::new(crate::net::Session::new(policy.clone()))),
        }));
        let state = match self.state.take() {
            Some(state) => state,
            None => state::State::new(&self.options.cwd, &self.options.env),
        };
        let mut interp = exec::Interp::new(&runtime, state);
        let mut limit = runtime.check().err();
        let mut exit_code = 0;
        if limit.is_none() {
            // `bash -c` reads and runs one complete command at a time, so
            // the commands before a syntax error run before it is reported,
            // and `shopt -s extglob` changes how the next lines parse.
            let mut steps = parse::Steps::new(script);
            let outcome = loop {
                let used = interp.cache.popts.enable_extended_globbing;
                let step = steps.next(&interp.cache.popts);
                let warnings = steps.take_warnings();
                if !warnings.is_empty() {
                    if let Err(flow) = interp.err(warnings.as_bytes()) {
                        break Err(flow);
                    }
                }
                match step {
                    None => break Ok(interp.st.last_status),
                    Some(parse::Step::All(program)) => break interp.run_script(&program),
                    Some(parse::Step::Error(message)) => {
                        let status = parse::error_status(&message, interp.st.last_status);
                        break interp.err(message.as_bytes()).map(|()| status);
                    }
                    Some(parse::Step::Prefix(program, message)) => {
                        if let Err(flow) = interp.run_script(&program) {
                            break Err(flow);
                        }
                        if interp.cache.popts.enable_extended_globbing == used {
                            let status = parse::error_status(&message, interp.st.last_status);
                            break interp.err(message.as_bytes()).map(|()| status);
                        }
                    }
                }
            };
            let outcome = match outcome {
                Ok(code) | Err(exec::Flow::Exit(code) | exec::Flow::Abort(code)) => Ok(code),
                Err(exec::Flow::Return(code)) => Ok(code),
                Err(exec::Flow::Break(_)) | Err(exec::Flow::Continue(_)) => Ok(interp.st.last_status),
                Err(exec::Flow::Limit(hit)) => Err(hit),
            };
            match outcome {
                Ok(code) => {
                    exit_code = code;
                    // The EXIT trap (never after a limit: the script is being stopped).
                    if let Some(trap) = interp.st.exit_trap.take() {
                        interp.st.last_status = code;
                        match interp.eval_string(&trap) {
                            Ok(_) => {}
                            Err(exec::Flow::Exit(code)) => exit_code = code,
                            Err(exec::Flow::Limit(hit)) => limit = Some(hit),
                            Err(_) => {}
                        }
                    }
                }
                Err(hit) => limit = Some(hit),
            }
        }
        // Jobs still running stop now, with what they wrote so far kept.
        if let Some(hit) = interp.end_jobs() {
            limit = limit.or(Some(hit));
        }
        // Files `exec >file` opened are written now.
        let files = std::mem::take(&mut interp.io.exec_files);
        interp.io.fd = io::Fds::new(0, 0, 1);
        if let Err(exec::Flow::Limit(hit)) = interp.flush_files(files) {
            limit = limit.or(Some(hit));
        }
        let mut stdout = std::mem::replace(&mut interp.io.outs[0], command::Output::new(0));
        let mut stderr = std::mem::replace(&mut interp.io.outs[1], command::Output::new(0));
        let truncated = stdout.truncated() || stderr.truncated() || limit == Some(LimitHit::Output);
        let mut state = interp.st;
        state.locals.clear();
        let mut stderr_bytes = stderr.take();
        // What the session keeps for the next call is bounded too: past the
        // budget its variables are cleared (its directory is kept).
        if state.bytes() > limits.max_memory_bytes {
            limit = limit.or(Some(LimitHit::Memory));
            let cwd = state.cwd.clone();
            state = state::State::new(&cwd, &self.options.env);
            stderr_bytes.extend_from_slice(b"aikido-shell: the session's variables were cleared\n");
        }
        if let Some(hit) = limit {
            exit_code = hit.exit_code();
            stderr_bytes.extend_from_slice(hit.message().as_bytes());
            stderr_bytes.push(b'\n');
        }
        state.last_status = exit_code;
        self.state = Some(state);
        let mut write_set = std::mem::take(&mut *recorder.writes.lock().unwrap_or_else(|e| e.into_inner()));
        write_set.sort_unstable();
        write_set.dedup();
        RunResult { stdout: stdout.take(), stderr: stderr_bytes, exit_code, truncated, limit, write_set }
    }

    /// About how many bytes the session keeps between runs (its
    /// variables, as [`Limits::max_memory_bytes`] counts them).
    pub fn memory_bytes(&self) -> usize {
        self.state.as_ref().map_or(0, state::State::bytes)
    }

    /// Forgets the session's state: back to how [`Shell::new`] made it.
    pub fn reset(&mut self) {
        self.state = Some(state::State::new(&self.options.cwd, &self.options.env));
    }
}

/// The absolute virtual path of `name` as written, against `cwd`.
pub(crate) fn storage_path(cwd: &str, name: &str) -> String {
    join(cwd, name)
}

/// The run's storage: notes every path written, appended, created,
/// removed, renamed or linked (for [`RunResult::write_set`]), and serves
/// `/dev/null` in front of the program's storage, as every machine has it:
/// it reads empty, takes any write and keeps nothing, and cannot be
/// removed, renamed or changed (`cat /dev/null > f`, `diff /dev/null f`,
/// `cp /dev/null f`, `tee /dev/null`). `/dev` lists it beside whatever the
/// storage itself holds there.
struct Recorder {
    inner: Arc<dyn Storage>,
    writes: Mutex<Vec<String>>,
}

/// Whether `path` names `/dev/null` (checked cheaply before normalising).
fn is_dev_null(path: &str) -> bool {
    path.ends_with("null") && crate::storage::normalize(path) == "/dev/null"
}

fn is_dev(path: &str) -> bool {
    path.starts_with("/dev") && crate::storage::normalize(path) == "/dev"
}

fn dev_null_metadata() -> crate::storage::Metadata {
    crate::storage::Metadata {
        kind: crate::storage::FileKind::File,
        size: 0,
        mode: 0o666,
        modified: std::time::SystemTime::UNIX_EPOCH,
    }
}

fn dev_metadata() -> crate::storage::Metadata {
    crate::storage::Metadata { kind: crate::storage::FileKind::Directory, ..dev_null_metadata() }
}

impl Recorder {
    fn note<T>(&self, result: Result<T, StorageError>, paths: &[&str]) -> Result<T, StorageError> {
        if result.is_ok() {
            let mut writes = self.writes.lock().unwrap_or_else(|e| e.into_inner());
            writes.extend(paths.iter().map(|p| crate::storage::normalize(p)));
        }
        result
    }

    /// `/dev` as the storage has it, or made up around `/dev/null`.
    fn dev_stat(
        &self,
        result: Result<crate::storage::Metadata, StorageError>,
    ) -> Result<crate::storage::Metadata, StorageError> {
        match result {
            Err(StorageError::NotFound(_)) => Ok(dev_metadata()),
            other => other,
        }
    }

    /// Refuses to change `/dev/null` itself, as the kernel does for a user.
    fn untouchable(paths: &[&str]) -> Result<(), StorageError> {
        match paths.iter().find(|path| is_dev_null(path)) {
            Some(path) => Err(StorageError::PermissionDenied((*path).to_string())),
            None => Ok(()),
        }
    }
}

impl Storage for Recorder {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        if is_dev_null(path) {
            return Ok(Vec::new());
        }
        self.inner.read(path)
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        if is_dev_null(path) {
            return Ok(Vec::new());
        }
        self.inner.read_range(path, offset, len)
    }
    fn open_read(&self, path: &str) -> Result<Arc<dyn crate::storage::OpenFile>, StorageError> {
        if is_dev_null(path) {
            return Ok(Arc::new(crate::storage::Snapshot(Arc::default())));
        }
        self.inner.open_read(path)
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        if is_dev_null(path) {
            return Ok(());
        }
        self.note(self.inner.write(path, data), &[path])
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        if is_dev_null(path) {
            return Ok(());
        }
        self.note(self.inner.append(path, data), &[path])
    }
    fn stat(&self, path: &str) -> Result<crate::storage::Metadata, StorageError> {
        if is_dev_null(path) {
            return Ok(dev_null_metadata());
        }
        if is_dev(path) {
            return self.dev_stat(self.inner.stat(path));
        }
        self.inner.stat(path)
    }
    fn lstat(&self, path: &str) -> Result<crate::storage::Metadata, StorageError> {
        if is_dev_null(path) {
            return Ok(dev_null_metadata());
        }
        if is_dev(path) {
            return self.dev_stat(self.inner.lstat(path));
        }
        self.inner.lstat(path)
    }
    fn list(&self, path: &str) -> Result<Vec<crate::storage::DirEntry>, StorageError> {
        if !is_dev(path) {
            return self.inner.list(path);
        }
        let mut entries = match self.inner.list(path) {
            Ok(entries) => entries,
            Err(StorageError::NotFound(_)) => Vec::new(),
            Err(error) => return Err(error),
        };
        if let Err(at) = entries.binary_search_by(|entry| entry.name.as_str().cmp("null")) {
            entries.insert(
                at,
                crate::storage::DirEntry { name: "null".to_string(), kind: crate::storage::FileKind::File },
            );
        }
        Ok(entries)
    }
    fn list_metadata(
        &self,
        path: &str,
    ) -> Result<Vec<(crate::storage::DirEntry, crate::storage::Metadata)>, StorageError> {
        if !is_dev(path) {
            return self.inner.list_metadata(path);
        }
        let mut entries = Vec::new();
        for entry in self.list(path)? {
            let meta = self.lstat(&crate::storage::join(path, &entry.name))?;
            entries.push((entry, meta));
        }
        Ok(entries)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        if is_dev_null(path) {
            return Err(StorageError::AlreadyExists(path.to_string()));
        }
        self.note(self.inner.mkdir(path, parents), &[path])
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        Self::untouchable(&[path])?;
        self.note(self.inner.remove(path, recursive), &[path])
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        Self::untouchable(&[from, to])?;
        self.note(self.inner.rename(from, to), &[from, to])
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        if is_dev_null(link) {
            return Err(StorageError::AlreadyExists(link.to_string()));
        }
        self.note(self.inner.symlink(target, link), &[link])
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.inner.readlink(path)
    }
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        Self::untouchable(&[path])?;
        self.note(self.inner.set_mode(path, mode), &[path])
    }
}
