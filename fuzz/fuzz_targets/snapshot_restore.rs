//! Any bytes as a session snapshot: a restore must never panic, hang or
//! allocate past what the bytes hold, and a session it accepts must run.
//!
//! Each input is tried twice: as the whole snapshot (so the frame's checks
//! see it: magic, version, length, checksum), and as the payload inside a
//! frame made valid for it (so the decoder and the content checks past the
//! checksum see every byte the fuzzer changes).

#![no_main]

use aikido::shell::snapshot::frame_for_fuzzing;
use aikido::shell::{Limits, Shell, ShellOptions};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fn options() -> ShellOptions {
    let limits = Limits {
        max_commands: 100,
        max_loop_iterations: 100,
        max_duration: Duration::from_millis(200),
        max_memory_bytes: 4 << 20,
        ..Limits::default()
    };
    ShellOptions { limits, ..ShellOptions::default() }
}

fn try_restore(bytes: &[u8]) {
    if let Ok(mut shell) = Shell::restore_in_memory(bytes, options()) {
        let _ = shell.run("declare -p >/dev/null; declare -f >/dev/null; ls -R / >/dev/null; pwd", None);
        let again = shell.snapshot().expect("a restored session snapshots again");
        Shell::restore_in_memory(&again, options()).expect("a snapshot of a restored session restores");
    }
}

fuzz_target!(|raw: &[u8]| {
    try_restore(raw);
    try_restore(&frame_for_fuzzing(raw));
});
