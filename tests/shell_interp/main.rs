//! The interpreter against real bash: each script's expected stdout, stderr
//! and status were recorded with `env -i LC_ALL=C bash -c` (GNU bash 5.2)
//! in a directory holding the same seed files as [`seeded`]. The topic
//! files use builtins only, so they pass whatever the command table holds;
//! `awk_commands`, `descriptors`, `process_substitution` and `shopt_glob`
//! keep their own seeds and helpers.

#[path = "../common/mod.rs"]
mod common;

use std::sync::Arc;

use aikido::shell::{LimitHit, Limits, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};
use aikido::CancelToken;

/// A storage with `d/{a.txt,b.txt,.hidden,sub/c.log}`.
fn seeded() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/d/sub", true).unwrap();
    storage.write("/d/a.txt", b"A\n").unwrap();
    storage.write("/d/b.txt", b"B\n").unwrap();
    storage.write("/d/.hidden", b"H\n").unwrap();
    storage.write("/d/sub/c.log", b"C\n").unwrap();
    storage
}

fn options() -> ShellOptions {
    ShellOptions {
        env: vec![("HOME".to_string(), "/".to_string()), ("PATH".to_string(), "/usr/bin:/bin".to_string())],
        ..ShellOptions::default()
    }
}

/// Runs a script in a fresh shell over the seed: (stdout, stderr, status).
fn run(script: &str) -> (String, String, i32) {
    common::shell::run_in(seeded(), options(), script)
}

fn check(script: &str, stdout: &str, stderr: &str, code: i32) {
    common::shell::expect(script, run(script), stdout, stderr, code);
}

/// A shell over the seed with `limits`.
fn limited(limits: Limits) -> Shell {
    Shell::new(seeded(), ShellOptions { limits, ..options() })
}

// One test binary (linked once), a file per part of the shell.
mod awk_commands;
mod builtins;
mod compat2;
mod control_flow;
mod descriptors;
mod expansion;
mod limits;
mod pipelines_and_jobs;
mod process_substitution;
mod redirections;
mod shopt_glob;
mod streaming2;
