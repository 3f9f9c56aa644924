//! The shell's benchmarks, each beside what a host would do instead:
//! - `echo hi` through the `bash` tool's dispatch, against spawning
//!   `bash -c 'echo hi'` (and against `Shell::run` alone: the tool's cost);
//! - `grep -c ERROR` over a generated 10 MiB log in a `MemoryStorage`,
//!   through the tool, against GNU grep spawned on the same file on disk
//!   (and GNU grep spawned on an empty file: its spawn cost alone).
//!
//! Host programs run in the C locale (`LC_ALL=C`), the shell's behaviour
//! target. Spawning is for comparison only: the library never does it.
//! `make bench` prints the table (scripts/bench.sh).

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};

use aikido::shell::{register_shell_tool, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};
use aikido::{Environment, Registry, ToolCall};

/// Bytes of the generated log.
const LOG_BYTES: usize = 10 << 20;

/// A web service's log, about one line in ten an ERROR; the same bytes
/// every run.
fn log(bytes: usize) -> Vec<u8> {
    const LEVELS: [&str; 10] = ["INFO", "INFO", "INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARN", "INFO", "ERROR"];
    const PATHS: [&str; 5] = ["/api/v1/orders", "/api/v1/users", "/healthz", "/api/v1/cart", "/static/app.js"];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = Vec::with_capacity(bytes + 256);
    let mut line = 0u64;
    while text.len() < bytes {
        let random = next();
        let level = LEVELS[(random % 10) as usize];
        let status = if level == "ERROR" { 500 + random % 4 } else { 200 + (random >> 8) % 5 };
        text.extend_from_slice(
            format!(
                "2026-12-02T{:02}:{:02}:{:02}.{:03}Z {level:<5} service=web request_id={:016x} path={} status={status} latency={}ms\n",
                line / 3_600_000 % 24,
                line / 60_000 % 60,
                line / 1000 % 60,
                line % 1000,
                random,
                PATHS[((random >> 16) % 5) as usize],
                (random >> 24) % 900,
            )
            .as_bytes(),
        );
        line += 1;
    }
    text.truncate(bytes);
    // End on a whole line.
    if let Some(end) = text.iter().rposition(|&byte| byte == b'\n') {
        text.truncate(end + 1);
    }
    text
}

fn host(program: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command.args(args).env("LC_ALL", "C");
    command
}

/// The stdout of a host program, checked to have run.
fn host_output(program: &str, args: &[&str]) -> Vec<u8> {
    let output = host(program, args).output().unwrap_or_else(|error| panic!("{program} cannot run: {error}"));
    // grep -c exits 1 when it counts 0: only a status past 1 is a failure.
    assert!(output.status.code().is_some_and(|code| code <= 1), "{program} {args:?} failed: {output:?}");
    output.stdout
}

fn bash_tool(storage: Arc<dyn Storage>) -> Registry {
    let registry = Registry::new();
    register_shell_tool(&registry, storage, ShellOptions::default()).expect("bash registers");
    registry
}

fn echo(c: &mut Criterion) {
    let registry = bash_tool(Arc::new(MemoryStorage::default()));
    let environment = Environment::new("session-1");
    let call = ToolCall::new("bash", r#"{"command":"echo hi"}"#).with_id("call-1");
    assert_eq!(registry.dispatch(&call, &environment).unwrap().content, "hi\n[exit code: 0]");
    assert_eq!(host_output("bash", &["-c", "echo hi"]), b"hi\n");

    // The same script on a shell of its own: what the tool and the registry
    // add is the difference.
    let mut shell = Shell::new(Arc::new(MemoryStorage::default()), ShellOptions::default());

    let mut group = c.benchmark_group("shell");
    group.bench_function("echo_hi_dispatch", |b| b.iter(|| registry.dispatch(black_box(&call), &environment).unwrap()));
    group.bench_function("echo_hi_run", |b| b.iter(|| shell.run(black_box("echo hi"), None)));
    group.sample_size(20);
    group.bench_function("bash_spawn_echo_hi", |b| b.iter(|| host_output("bash", &["-c", "echo hi"])));
    group.finish();
}

fn grep(c: &mut Criterion) {
    let log = log(LOG_BYTES);
    let storage = Arc::new(MemoryStorage::default());
    storage.write("/app.log", &log).unwrap();
    let registry = bash_tool(storage);
    let environment = Environment::new("session-1");
    let call = ToolCall::new("bash", r#"{"command":"grep -c ERROR /app.log"}"#);

    let dir = std::env::temp_dir().join(format!("aikido-bench-shell-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let on_disk = dir.join("app.log");
    let empty = dir.join("empty.log");
    std::fs::write(&on_disk, &log).unwrap();
    std::fs::write(&empty, b"").unwrap();
    let path = |file: &Path| file.to_str().expect("a UTF-8 temporary path").to_owned();
    let (on_disk, empty) = (path(&on_disk), path(&empty));

    // Both count the same lines.
    let gnu = String::from_utf8(host_output("grep", &["-c", "ERROR", &on_disk])).unwrap();
    let ours = registry.dispatch(&call, &environment).unwrap().content;
    assert_eq!(ours, format!("{gnu}[exit code: 0]"), "the shell's grep and GNU grep disagree");

    let mut group = c.benchmark_group("shell");
    group.sample_size(20);
    group.bench_function("grep_count_10MiB", |b| b.iter(|| registry.dispatch(black_box(&call), &environment).unwrap()));
    group.bench_function("gnu_grep_count_10MiB", |b| b.iter(|| host_output("grep", &["-c", "ERROR", &on_disk])));
    group.bench_function("gnu_grep_empty", |b| b.iter(|| host_output("grep", &["-c", "ERROR", &empty])));
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, echo, grep);
criterion_main!(benches);
