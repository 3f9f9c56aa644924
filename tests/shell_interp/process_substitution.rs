//! Process substitution streams (issue 17): `<(cmd)`, `>(cmd)` and
//! `< <(cmd)` run beside the command through a bounded pipe, as bash's do,
//! and every limit of the run still holds. Expected outputs recorded with
//! bash 5.2 and GNU coreutils, C locale. Each assertion holds whichever
//! thread runs first.
#![cfg(feature = "shell")]

use std::sync::Arc;
use std::time::Duration;

use aikido::shell::{LimitHit, Limits, RunResult, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};
use aikido::CancelToken;

fn seeded() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.write("/a", b"b\na\nc\n").unwrap();
    storage.write("/b", b"a\nc\nd\n").unwrap();
    storage
}

fn run_with(limits: Limits, script: &str) -> RunResult {
    Shell::new(seeded(), ShellOptions { limits, ..ShellOptions::default() }).run(script, None)
}

/// Limits where the output limit is small (what flows through a
/// substitution is not kept) and the clock is far: a script that ends
/// without a limit did not wait for an endless writer.
fn tight() -> Limits {
    Limits { max_output_bytes: 1000, max_duration: Duration::from_secs(60), ..Limits::default() }
}

fn check(script: &str, stdout: &str) {
    let result = run_with(tight(), script);
    let err = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.limit, None, "{script}: {err}");
    assert_eq!(String::from_utf8_lossy(&result.stdout), stdout, "{script}: {err}");
    assert_eq!(result.exit_code, 0, "{script}: {err}");
}

#[test]
fn a_reader_that_stops_early_ends_an_endless_writer() {
    check("head -n1 <(yes); echo $?", "y\n0\n");
    check("head -n2 < <(yes); echo $?", "y\ny\n0\n");
    check("grep -m1 -n 7 <(seq 1 1000000000)", "7:7\n");
    check("while read l; do echo $l; break; done < <(yes no)", "no\n");
    // The writer is stopped, not waited for: bash returns at once too.
    check("head -n1 <(echo a; sleep 100); echo end", "a\nend\n");
    check("echo <(sleep 100) | cut -c1-8", "/dev/fd/\n");
    // A shell loop as the writer: stopped by the closed pipe, far below
    // the command budget it would otherwise spend.
    let roomy = Limits { max_commands: 2_000_000, ..tight() };
    let result = run_with(roomy, "head -n1 <(while :; do echo y; done); echo ok");
    assert_eq!(result.limit, None);
    assert_eq!(result.stdout, b"y\nok\n");
}

#[test]
fn more_than_the_output_limit_flows_through() {
    check("wc -l <(seq 1 300000)", "300000 /dev/fd/63\n");
    check("cat <(seq 1 300000) | tail -n1", "300000\n");
    check("tail -n1 <(seq 1 300000)", "300000\n");
    check("n=0; while read l; do n=$((n+1)); done < <(seq 1 3000); echo $n", "3000\n");
    check("seq 1 300000 | tee >(wc -l) >/dev/null", "300000\n");
    check("seq 1 300000 | tee >(tail -n1) >(grep -c 9) >/dev/null | sort", "122853\n300000\n");
    check("awk 'END { print NR }' <(seq 1 300000)", "300000\n");
    check("sed -n '$p' <(seq 1 300000)", "300000\n");
}

#[test]
fn what_bash_prints_is_unchanged() {
    check("diff <(sort a) <(sort b); echo $?", "2d1\n< b\n3a3\n> d\n1\n");
    check("paste <(seq 3) <(seq 4 6)", "1\t4\n2\t5\n3\t6\n");
    check("comm -12 <(sort a) <(sort b)", "a\nc\n");
    check("cat <(echo x) <(echo y) - <<< z", "x\ny\nz\n");
    check("echo <(true) <(true)", "/dev/fd/63 /dev/fd/62\n");
    check("f(){ cat <(echo in) \"$1\"; echo <(true); }; f <(echo x)", "in\nx\n/dev/fd/62\n");
    check("f(){ wc -l < \"$1\"; }; f <(seq 5)", "5\n");
    check("seq 3 | while read x; do cat <(echo p$x); done", "p1\np2\np3\n");
    check("cat <(cat) <<< here; echo $?", "0\n");
    // A `>(cmd)` ends before the next command: its output comes first.
    check("echo hi | tee >(tr a-z A-Z) >/dev/null; echo next", "HI\nnext\n");
    check("x=$(cat <(echo sub)); echo $x", "sub\n");
    check("source <(echo 'v=7'); echo $v", "7\n");
}

#[test]
fn each_substitution_takes_a_thread_of_the_budget() {
    // Nested without end: the thread budget (or the nesting guard) stops
    // it, every thread joined.
    let result = run_with(tight(), "f(){ cat <(f); }; f; echo never");
    assert!(matches!(result.limit, Some(LimitHit::Threads | LimitHit::FunctionDepth)), "{:?}", result.limit);
    assert!(!String::from_utf8_lossy(&result.stdout).contains("never"));
    // Sequential substitutions give their threads back.
    check("for i in {1..300}; do cat <(echo $i) >/dev/null; done; echo done", "done\n");
}

#[test]
fn a_limit_inside_a_substitution_stops_the_run() {
    let loops = Limits { max_loop_iterations: 1000, ..tight() };
    let result = run_with(loops, "cat <(while :; do :; done); echo never");
    assert_eq!(result.limit, Some(LimitHit::LoopIterations));
    assert!(!String::from_utf8_lossy(&result.stdout).contains("never"));
    // What a substitution keeps is bounded as ever.
    let result = run_with(tight(), "x=$(cat <(yes)); echo never");
    assert_eq!(result.limit, Some(LimitHit::Output));
    let memory = Limits { max_memory_bytes: 1 << 20, ..tight() };
    let result = run_with(memory, "sort <(yes); echo $?");
    assert_eq!(result.stdout, b"2\n");
    assert!(String::from_utf8_lossy(&result.stderr).contains("/dev/fd/63: File too large"));
}

#[test]
fn the_clock_and_cancellation_reach_a_substitution() {
    let short = Limits { max_duration: Duration::from_millis(300), ..tight() };
    let result = run_with(short.clone(), "cat <(sleep 100); echo never");
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    let result = run_with(short.clone(), "tee >(sleep 100) <<< x; echo never");
    assert_eq!(result.limit, Some(LimitHit::WallTime), "{result:?}");
    let result = run_with(short, "cat <(yes) > /dev/null");
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    let token = CancelToken::new();
    let firing = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        firing.fire();
    });
    let mut shell = Shell::new(seeded(), ShellOptions { limits: tight(), ..ShellOptions::default() });
    let result = shell.run("cat <(sleep 100) >(sleep 100); echo never", Some(&token));
    canceller.join().unwrap();
    assert_eq!(result.limit, Some(LimitHit::Cancelled));
}

#[test]
fn rev_reads_a_line_at_a_time() {
    check("yes abc | rev | head -n2", "cba\ncba\n");
    check("printf 'ab\\ncd' | rev; echo", "ba\ndc\n");
    check("rev a - b <<< xy", "b\na\nc\nyx\na\nc\nd\n");
    check("seq 1 300000 | rev | tail -n1", "000003\n");
}
