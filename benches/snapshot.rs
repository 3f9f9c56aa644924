//! Session snapshots (issue 30): snapshot, restore and fork of a session
//! with 1,000 files of 1 KiB and 100 variables, the median of 50 runs each.
//! Prints one line per operation (scripts/bench.sh shows them); the target
//! is under 5 ms for snapshot and restore, and a fork cheaper than both.

use std::sync::Arc;
use std::time::{Duration, Instant};

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort_unstable();
    runs[runs.len() / 2]
}

fn time(mut operation: impl FnMut()) -> Duration {
    operation();
    median(
        (0..50)
            .map(|_| {
                let start = Instant::now();
                operation();
                start.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let storage = Arc::new(MemoryStorage::default());
    storage.mkdir("/data", true).unwrap();
    let content = vec![b'x'; 1024];
    for index in 0..1000 {
        storage.write(&format!("/data/file{index:04}.txt"), &content).unwrap();
    }
    let mut shell = Shell::new(storage, ShellOptions::default());
    let result = shell.run("for i in $(seq 100); do declare \"var_$i=value number $i\"; done; f() { echo hi; }", None);
    assert_eq!(result.exit_code, 0);
    let bytes = shell.snapshot().unwrap();
    let snapshot = time(|| drop(shell.snapshot().unwrap()));
    let restore = time(|| drop(Shell::restore_in_memory(&bytes, ShellOptions::default()).unwrap()));
    let fork = time(|| drop(shell.fork()));
    println!(
        "snapshot  1000 files x 1 KiB + 100 vars  {:>8.3} ms  ({} bytes)",
        snapshot.as_secs_f64() * 1e3,
        bytes.len()
    );
    println!("restore   1000 files x 1 KiB + 100 vars  {:>8.3} ms", restore.as_secs_f64() * 1e3);
    println!("fork      1000 files x 1 KiB + 100 vars  {:>8.3} ms", fork.as_secs_f64() * 1e3);
}
