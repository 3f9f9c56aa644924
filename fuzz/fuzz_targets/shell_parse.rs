//! Any text as a bash script: the shell must never panic, and must stay
//! within its limits, whatever the script.
//!
//! Each input that is UTF-8 runs once in a fresh shell over a fresh
//! `MemoryStorage` holding a few files, with tight limits so that loops,
//! recursion and floods end quickly: 1000 commands, 1000 loop iterations,
//! function depth 20, 64 KiB per stream, 200 ms, 4 MiB of files.

#![no_main]

use std::sync::Arc;
use std::time::Duration;

use aikido::shell::{Limits, Shell, ShellOptions};
use aikido::storage::{MemoryLimits, MemoryStorage, Storage};
use libfuzzer_sys::fuzz_target;

const MAX_OUTPUT: usize = 64 << 10;

fn storage() -> Arc<MemoryStorage> {
    let storage = MemoryStorage::new(MemoryLimits { max_total_bytes: 4 << 20, max_file_bytes: 1 << 20, ..MemoryLimits::default() });
    storage.mkdir("/src", true).expect("mkdir");
    storage.write("/src/main.rs", b"fn main() {\n    println!(\"hi\");\n}\n").expect("write");
    storage.write("/data.csv", b"name,qty\napple,3\npear,10\nfig,7\n").expect("write");
    storage.write("/app.log", b"INFO start\nERROR disk full\nWARN slow\nERROR timeout\n").expect("write");
    storage.write("/config.json", br#"{"name":"demo","ports":[80,443],"debug":false}"#).expect("write");
    Arc::new(storage)
}

fuzz_target!(|raw: &[u8]| {
    let Ok(script) = std::str::from_utf8(raw) else { return };
    let options = ShellOptions {
        limits: Limits {
            max_commands: 1000,
            max_loop_iterations: 1000,
            max_function_depth: 20,
            max_output_bytes: MAX_OUTPUT,
            max_duration: Duration::from_millis(200),
            ..Limits::default()
        },
        ..ShellOptions::default()
    };
    let mut shell = Shell::new(storage(), options);
    let result = shell.run(script, None);
    // The cap holds (a limit's own message may follow it).
    assert!(result.stdout.len() <= MAX_OUTPUT, "stdout past the cap: {} bytes", result.stdout.len());
    assert!(result.stderr.len() <= MAX_OUTPUT + 256, "stderr past the cap: {} bytes", result.stderr.len());
    assert!((0..=255).contains(&result.exit_code), "exit code {}", result.exit_code);
});
