//! Pipelines (streaming, SIGPIPE, PIPESTATUS), background jobs and process substitution.

use super::*;

#[test]
fn pipeline_into_read() {
    check("echo a | { read x; echo got $x; }; echo \"a b\" | while read -r x y; do echo \"$y-$x\"; done; i=0; echo a | while read l; do i=1; done; echo $i", "got a\nb-a\n0\n", "", 0);
}

#[test]
fn pipefail() {
    check(
        "false | true; echo $?; set -o pipefail; false | true; echo $?; true | false | true; echo $?",
        "0\n1\n1\n",
        "",
        0,
    );
}

#[test]
fn pipestatus() {
    check("true | false | true; echo ${PIPESTATUS[@]}; false; echo ${PIPESTATUS[0]}", "0 1 0\n1\n", "", 0);
}

#[test]
fn errexit_pipeline() {
    check("set -e; false | true; echo ok; true | false; echo no", "ok\n", "", 1);
}

#[test]
fn exit_in_subshell_pipeline() {
    check("echo x | exit 3; echo $?", "3\n", "", 0);
}

#[test]
fn heredoc_with_pipe() {
    check(
        "while read l; do echo \"<$l>\"; done <<EOF | while read m; do echo \"[$m]\"; done\nx\nEOF",
        "[<x>]\n",
        "",
        0,
    );
}

#[test]
fn mapfile_from_pipe() {
    check("echo -e 'a\\nb' | { mapfile -t arr; echo ${#arr[@]} ${arr[0]}; }", "2 a\n", "", 0);
}

#[test]
fn pipeline_subshell_vars() {
    check("x=1; echo | x=2; echo $x; echo | { x=3; }; echo $x", "1\n1\n", "", 0);
}

#[test]
fn pipeline_status_last() {
    check("true | false; echo $?; false | true; echo $?", "1\n0\n", "", 0);
}

#[test]
fn negated_pipeline() {
    check("! true | false; echo $?", "0\n", "", 0);
}

#[test]
fn long_pipeline() {
    check("echo abc | { read x; echo $x$x; } | { read y; echo ${#y}; }", "6\n", "", 0);
}

#[test]
fn background_output_comes_before_what_follows_wait() {
    check("echo bg & wait; echo after", "bg\nafter\n", "", 0);
}

#[test]
fn set_euo_pipefail() {
    check("set -euo pipefail; x=${1:-none}; echo $x; false | true; echo never", "none\n", "", 1);
}

#[test]
fn pipefail_status_value() {
    check("set -o pipefail; (exit 3) | (exit 0); echo $?; (exit 2) | (exit 5) | true; echo $?", "3\n5\n", "", 0);
}

#[test]
fn pipeline_multiline() {
    check("echo a |\n  { read x; echo $x; }", "a\n", "", 0);
}

#[test]
fn endless_writers_stop_at_a_closed_pipe() {
    let started = std::time::Instant::now();
    check("yes | head -n 3; echo ${PIPESTATUS[@]}", "y\ny\ny\n141 0\n", "", 0);
    check("seq 1 1000000000 | head -n 2; echo ${PIPESTATUS[@]}", "1\n2\n141 0\n", "", 0);
    // Two commands per line: before head closes the pipe the loop may fill
    // it twice over (128 KiB, 131,072 commands), past the default budget of
    // 100,000 when head's thread is slow to run; so a larger budget here.
    let mut roomy = options();
    roomy.limits.max_commands = 1_000_000;
    let result = Shell::new(seeded(), roomy).run("while :; do echo y; done | head -n 1; echo ${PIPESTATUS[@]}", None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "y\n141 0\n");
    assert_eq!(result.exit_code, 0);
    check("set -o pipefail; yes | head -n 1; echo $?", "y\n141\n", "", 0);
    check("yes abc | tr b B | head -n 2", "aBc\naBc\n", "", 0);
    check("yes | grep -m 2 -n y", "1:y\n2:y\n", "", 0);
    check("yes | grep -q y; echo $?", "0\n", "", 0);
    check("yes | cat | cat -n | head -n 2", "     1\ty\n     2\ty\n", "", 0);
    // Without a pipe in the way, bounded by the limits as before.
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}

#[test]
fn small_writes_fit_in_the_pipe_even_when_nobody_reads() {
    check("echo hi | true; echo ${PIPESTATUS[@]}", "0 0\n", "", 0);
    check("seq 1 5 | head -n 1; echo ${PIPESTATUS[@]}", "1\n0 0\n", "", 0);
}

#[test]
fn stdin_is_consumed_as_bash_consumes_it() {
    check("printf 'a\\nb\\nc\\n' | { read x; cat; }", "b\nc\n", "", 0);
    check("seq 5 | { read a; read b; echo $a$b; cat; }", "12\n3\n4\n5\n", "", 0);
    // A file is seekable: GNU head leaves the rest for the next reader.
    check("{ head -n 1; cat; } < d/a.txt; printf '1\\n2\\n' > f; { head -n 1; cat; } < f", "A\n1\n2\n", "", 0);
    check("{ cat; cat; } < d/a.txt", "A\n", "", 0);
}

#[test]
fn stages_run_in_subshells_and_share_stderr() {
    check("x=1; echo | x=2; echo $x; echo a | { read v; echo \"[$v]\"; }", "1\n[a]\n", "", 0);
    check("{ echo out; echo err >&2; } 2>&1 | cat", "out\nerr\n", "", 0);
    check("f() { echo in-f; return 3; }; f | cat; echo ${PIPESTATUS[@]}", "in-f\n3 0\n", "", 0);
    check("echo x | (exit 4) | cat; echo ${PIPESTATUS[@]}", "0 4 0\n", "", 0);
    check("cat nosuch 2>&1 | wc -l", "1\n", "", 0);
}

#[test]
fn background_jobs_run_at_once_and_wait_gives_their_status() {
    // The job waits for a file the shell writes after starting it: in the
    // foreground it would loop until the time limit.
    check(
        "(while [ ! -f /go ]; do sleep 0.01; done; echo got) & echo first; : > /go; wait; echo $?",
        "first\ngot\n0\n",
        "",
        0,
    );
    check("(exit 3) & p=$!; wait $p; echo $?; wait $p; echo $?", "3\n3\n", "", 0);
    check("echo a > /f1 & echo b > /f2 & wait; echo $?; cat /f1 /f2", "0\na\nb\n", "", 0);
    check("true & a=$!; true & b=$!; [ $a != $b ] && echo distinct; wait $a $b; echo $?", "distinct\n0\n", "", 0);
    check("false & wait %1; echo $?; true & echo $?", "1\n0\n", "", 0);
    check("wait 99999; echo $?", "127\n", "bash: line 1: wait: pid 99999 is not a child of this shell\n", 0);
    check("wait %2; echo $?", "127\n", "bash: line 1: wait: %2: no such job\n", 0);
    check("wait abc; echo $?", "1\n", "bash: line 1: wait: `abc': not a pid or valid job spec\n", 0);
    check("wait; echo $?; wait -n; echo $?", "0\n127\n", "", 0);
    check(
        "(while [ ! -f /go ]; do sleep 0.01; done; exit 4) & (exit 5) & wait -n; echo $?; : > /go; wait -n -p v; echo $? $((v - $!)); wait -n; echo $?",
        "5\n4 -1\n127\n",
        "",
        0,
    );
    // A job's stdin is /dev/null (no job control), unless piped or redirected.
    check("echo data | { cat & wait; echo done; }", "data\ndone\n", "", 0);
    check("cat & wait", "", "", 0);
    check("cat <<< here & wait", "here\n", "", 0);
    // Jobs see a copy of the shell; their changes stay theirs.
    check("x=1; { x=2; echo in $x; } & wait; echo out $x", "in 2\nout 1\n", "", 0);
}

#[test]
fn jobs_lists_and_kill_signals_the_shells_jobs() {
    check(
        "sleep 5 & sleep 5 & jobs; jobs -p | wc -l; jobs | wc -l; kill %1 %2; wait; echo $?; jobs",
        "[1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 5 &\n2\n2\n0\n",
        "",
        0,
    );
    check(
        "{ sleep 5; echo x; } & (sleep 5; false) & jobs; kill %1 %2",
        "[1]-  Running                 { sleep 5; echo x; } &\n[2]+  Running                 ( sleep 5; false ) &\n",
        "",
        0,
    );
    check("sleep 5 & kill $!; wait $!; echo $?", "143\n", "", 0);
    check("sleep 5 & kill -9 %1; wait %1; echo $?", "137\n", "bash: line 1: 4243 Killed                  sleep 5\n", 0);
    check(
        "sleep 5 & kill -s INT %%; wait; echo $?; wait %1; echo $?",
        "0\n127\n",
        "bash: line 1: wait: %1: no such job\n",
        0,
    );
    check("kill %3; echo $?", "1\n", "bash: line 1: kill: %3: no such job\n", 0);
    check("kill 99999; echo $?", "1\n", "bash: line 1: kill: (99999) - No such process\n", 0);
    check(
        "kill; echo $?",
        "2\n",
        "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n",
        0,
    );
}

#[test]
fn a_run_stops_the_jobs_still_running_and_keeps_their_output() {
    let started = std::time::Instant::now();
    let mut shell = Shell::new(seeded(), options());
    let result = shell.run("sleep 5 & echo hi", None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "hi\n");
    assert_eq!((result.exit_code, result.limit), (0, None));
    let result = shell.run(
        "(echo early; : > /flag; sleep 5; echo late) & while [ ! -f /flag ]; do sleep 0.01; done; echo main",
        None,
    );
    assert_eq!(String::from_utf8_lossy(&result.stdout), "early\nmain\n");
    assert_eq!((result.exit_code, result.limit), (0, None));
    // The session goes on, with no job left and the whole thread allowance.
    let stages = vec!["true"; aikido::shell::MAX_THREADS].join(" | ");
    let result = shell.run(&format!("jobs; wait -n; echo $?; {stages}; echo ok"), None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "127\nok\n");
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "{:?}", started.elapsed());
}

#[test]
fn process_substitutions_are_dev_fd_paths_a_command_can_open() {
    check("echo <(true) >(true)", "/dev/fd/63 /dev/fd/62\n", "", 0);
    check("cat <(echo hi) <(echo there)", "hi\nthere\n", "", 0);
    check(
        "printf 'b\\na\\n' > /s1; printf 'a\\nc\\n' > /s2; diff <(sort /s1) <(sort /s2); echo $?",
        "2c2\n< b\n---\n> c\n1\n",
        "",
        0,
    );
    check("paste <(seq 2) <(seq 3 4)", "1\t3\n2\t4\n", "", 0);
    check("seq 3 | tee >(wc -l) >/dev/null", "3\n", "", 0);
    check("while read l; do echo \"[$l]\"; done < <(printf 'x\\ny\\n')", "[x]\n[y]\n", "", 0);
    check("f() { wc -l < \"$1\"; }; f <(seq 4)", "4\n", "", 0);
    check("cat <(seq 3) | wc -l", "3\n", "", 0);
    check("source <(echo 'x=5; echo sourced'); echo $x; . <(echo 'echo dot')", "sourced\n5\ndot\n", "", 0);
    // The paths live as long as the command: nothing is left in the storage.
    check("cat <(echo a) > /dev/null; cat /dev/fd/63 2>/dev/null || echo gone", "gone\n", "", 0);
}

#[test]
fn lastpipe_runs_the_last_stage_in_the_shell() {
    check("shopt -s lastpipe; echo x | read v; echo $v", "x\n", "", 0);
    check("echo x | read v; echo \"[$v]\"", "[]\n", "", 0);
    check("shopt -s lastpipe; echo q | { read z; exit 4; }; echo never", "", "", 4);
}
