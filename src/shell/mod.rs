//! A virtual bash for agents: the model writes ordinary shell, and every
//! file the script touches is a file of a [`Storage`], so overlays, dry
//! runs, mounts and path policy keep working. Nothing runs on the host.
//!
//! The grammar is brush-parser's; the interpreter, the expansions and every
//! command are ours, written against [`Storage`] (see `docs/SHELL.md`).

pub mod command;
mod commands;
pub mod tool;

pub use tool::register_shell_tool;

use std::sync::Arc;
use std::time::Duration;

use crate::storage::Storage;
use crate::CancelToken;

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
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_commands: 100_000,
            max_loop_iterations: 100_000,
            max_function_depth: 100,
            max_output_bytes: 1 << 20,
            max_duration: Duration::from_secs(10),
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
}

impl LimitHit {
    /// The exit code a script stopped by this limit ends with.
    pub fn exit_code(self) -> i32 {
        match self {
            LimitHit::WallTime => 124,
            LimitHit::Cancelled => 130,
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
}

impl Default for ShellOptions {
    fn default() -> Self {
        ShellOptions {
            cwd: "/".to_string(),
            env: vec![("HOME".to_string(), "/".to_string()), ("PATH".to_string(), "/usr/bin:/bin".to_string())],
            limits: Limits::default(),
        }
    }
}

/// One shell session: its working directory, variables, functions and
/// options persist from one [`run`](Shell::run) to the next.
pub struct Shell {
    storage: Arc<dyn Storage>,
    options: ShellOptions,
}

impl Shell {
    /// A fresh session over `storage`.
    pub fn new(storage: Arc<dyn Storage>, options: ShellOptions) -> Self {
        Shell { storage, options }
    }

    /// Runs a script as `bash -c` would, in this session's state.
    /// `cancel`, when it fires, stops the script with [`LimitHit::Cancelled`].
    pub fn run(&mut self, script: &str, cancel: Option<&CancelToken>) -> RunResult {
        let _ = (script, cancel, &self.storage, &self.options);
        unimplemented!("the interpreter is being written")
    }

    /// Forgets the session's state: back to how [`Shell::new`] made it.
    pub fn reset(&mut self) {
        unimplemented!("the interpreter is being written")
    }
}
