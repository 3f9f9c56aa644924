//! awk's commands (`"cmd" | getline`, `print | "cmd"`, `system()`,
//! `close()`, `fflush()`) run in the virtual shell, as children of the run:
//! same storage, working directory, exported variables and limits. The
//! expected outputs are mawk's (this machine's awk) under bash, except
//! where noted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use aikido::shell::{LimitHit, Limits, RunResult, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};

fn shell_with(limits: Limits) -> (Shell, Arc<MemoryStorage>) {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/w", true).unwrap();
    storage.write("/w/data", b"3\n1\n2\n").unwrap();
    let options = ShellOptions { cwd: "/w".to_string(), limits, ..ShellOptions::default() };
    (Shell::new(storage.clone(), options), storage)
}

fn run_with(limits: Limits, script: &str) -> RunResult {
    shell_with(limits).0.run(script, None)
}

/// (stdout, stderr, status) under the default limits.
fn run(script: &str) -> (String, String, i32) {
    let r = run_with(Limits::default(), script);
    (String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned(), r.exit_code)
}

fn stdout(script: &str) -> String {
    let (out, err, status) = run(script);
    assert_eq!(status, 0, "status of {script:?}, stderr {err:?}");
    out
}

#[test]
fn pipe_getline_reads_a_commands_output() {
    assert_eq!(
        stdout(
            r#"awk 'BEGIN { while (("sort data" | getline line) > 0) print "got", line; print close("sort data") }'"#
        ),
        "got 1\ngot 2\ngot 3\n0\n"
    );
    // Without a variable: $0 and NF (and NR, as gawk).
    assert_eq!(stdout(r#"awk 'BEGIN { "echo a b c" | getline; print NF, $2, NR }'"#), "3 b 1\n");
    // The exit status comes back through close().
    assert_eq!(stdout(r#"awk 'BEGIN { "echo hi; exit 2" | getline v; print v, close("echo hi; exit 2") }'"#), "hi 2\n");
    // The same command read again after close() runs again.
    assert_eq!(
        stdout(r#"awk 'BEGIN { c = "cat data"; c | getline a; close(c); c | getline b; print a, b }'"#),
        "3 3\n"
    );
}

#[test]
fn print_to_a_command_runs_it_when_closed() {
    assert_eq!(stdout(r#"awk '{ print | "sort" } END { close("sort"); print "done" }' data"#), "1\n2\n3\ndone\n");
    // At the end, open commands run before awk's buffered stdout is written.
    assert_eq!(stdout(r#"awk 'BEGIN { print "b" | "cat"; print "x"; print "a" }'"#), "b\nx\na\n");
    // Starting a command flushes awk's output first (mawk's order).
    assert_eq!(
        stdout(r#"awk 'BEGIN { print "a"; print "b" | "cat"; print "c" | "sort"; print "d" }'"#),
        "a\nc\nb\nd\n"
    );
    assert_eq!(stdout(r#"awk 'BEGIN { printf "x\n" | "cat 1>&2"; print close("cat 1>&2") }' 2>&1"#), "x\n0\n");
    assert_eq!(stdout(r#"awk 'BEGIN { print "x" | "exit 3"; print close("exit 3") }'"#), "3\n");
    // Through a pipe to the next stage, in a file the command writes.
    assert_eq!(stdout(r#"awk '{ print $1 * 2 | "sort -n > out" }' data; cat out"#), "2\n4\n6\n");
}

#[test]
fn system_flushes_and_returns_the_status() {
    assert_eq!(stdout(r#"awk 'BEGIN { printf "a"; system("echo b"); print "c" }'"#), "ab\nc\n");
    assert_eq!(stdout(r#"awk 'BEGIN { print system("exit 4"), system("true") }'"#), "4 0\n");
    // Files written by awk are flushed before the command reads them.
    assert_eq!(stdout(r#"awk 'BEGIN { print "kept" > "f"; system("cat f") }'"#), "kept\n");
    // The working directory and the exported variables are the shell's.
    assert_eq!(
        stdout(r#"cd /w; export E=exported; L=local; awk 'BEGIN { system("pwd; echo [$E] [$L]") }'"#),
        "/w\n[exported] []\n"
    );
    // A missing command: the shell's message and 127.
    let (out, err, status) = run(r#"awk 'BEGIN { print system("nosuchcmd") }'"#);
    assert_eq!((out.as_str(), status), ("127\n", 0));
    assert!(err.contains("nosuchcmd: command not found"), "{err}");
    assert_eq!(stdout(r#"awk 'BEGIN { print close("never opened") }'"#), "-1\n");
    assert_eq!(stdout(r#"awk 'BEGIN { print "a" | "cat"; print "b"; fflush(); print "c" }'"#), "b\na\nc\n");
}

#[test]
fn an_endless_command_is_cut_and_does_not_hang() {
    let started = Instant::now();
    let (out, err, status) =
        run(r#"awk 'BEGIN { while (("yes" | getline l) > 0) if (++n >= 3) break; print n, l; close("yes") }'"#);
    assert_eq!((out.as_str(), status), ("3 y\n", 0), "stderr {err:?}");
    assert!(started.elapsed() < Duration::from_secs(9));
    // Reading past what awk holds of the output ends with the memory limit.
    let limits = Limits { max_memory_bytes: 4 << 20, ..Limits::default() };
    let r = run_with(limits.clone(), r#"awk 'BEGIN { while (("yes" | getline l) > 0) n++; print n }'"#);
    assert_eq!(r.limit, Some(LimitHit::Memory), "{:?}", String::from_utf8_lossy(&r.stderr));
    assert!(r.stdout.is_empty());
    // Printing endlessly to a command: the memory limit, not a hang.
    let r = run_with(limits.clone(), r#"awk 'BEGIN { while (1) print "y" | "cat" }'"#);
    assert_eq!(r.limit, Some(LimitHit::Memory));
}

#[test]
fn recursive_awk_through_system_ends_with_a_named_limit() {
    let (mut shell, storage) = shell_with(Limits::default());
    storage.write("/w/bomb.awk", b"BEGIN { print \"level\"; system(\"awk -f bomb.awk; awk -f bomb.awk\") }\n").unwrap();
    let started = Instant::now();
    let r = shell.run("awk -f bomb.awk", None);
    assert_eq!(r.limit, Some(LimitHit::FunctionDepth), "{:?}", String::from_utf8_lossy(&r.stderr));
    assert!(r.stdout.starts_with(b"level\nlevel\n"));
    assert!(started.elapsed() < Duration::from_secs(30));
    // A shell function that calls itself through awk, too (the copy of the
    // shell the command runs in has the functions, as a subshell has).
    let r = shell.run(r#"f() { awk 'BEGIN { system("f") }'; }; f"#, None);
    assert_eq!(r.limit, Some(LimitHit::FunctionDepth));
}

#[test]
fn commands_obey_the_time_limit() {
    let limits = Limits {
        max_duration: Duration::from_millis(300),
        max_commands: u64::MAX,
        max_loop_iterations: u64::MAX,
        ..Limits::default()
    };
    let started = Instant::now();
    let r = run_with(limits.clone(), r#"awk 'BEGIN { system("while :; do :; done") }'"#);
    assert_eq!(r.limit, Some(LimitHit::WallTime));
    assert!(started.elapsed() < Duration::from_secs(5));
    let r = run_with(limits.clone(), r#"awk 'BEGIN { "sleep 5" | getline x }'"#);
    assert_eq!(r.limit, Some(LimitHit::WallTime));
}

#[test]
fn getline_from_a_file_leaves_nr_alone() {
    // gawk and mawk agree: `getline < file` sets $0 and NF, not NR.
    assert_eq!(stdout(r#"awk 'BEGIN { getline < "data"; print NR, NF, $0 }'"#), "0 1 3\n");
}
