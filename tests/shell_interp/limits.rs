//! Limits and hostile input: every bound ends a run with a named limit, never a crash.

use super::*;

#[test]
fn loop_limit_stops_while_true() {
    let mut shell = limited(Limits { max_loop_iterations: 1000, ..Limits::default() });
    let result = shell.run("echo start; while true; do :; done; echo never", None);
    assert_eq!(result.limit, Some(LimitHit::LoopIterations));
    assert_eq!(result.exit_code, 125);
    assert_eq!(result.stdout, b"start\n");
    assert!(String::from_utf8_lossy(&result.stderr).contains(LimitHit::LoopIterations.message()));
}

#[test]
fn command_limit() {
    let mut shell = limited(Limits { max_commands: 50, ..Limits::default() });
    let result = shell.run("f() { :; }; for i in {1..100}; do f; done", None);
    assert_eq!(result.limit, Some(LimitHit::Commands));
    assert_eq!(result.exit_code, LimitHit::Commands.exit_code());
}

#[test]
fn recursion_hits_depth_limit() {
    let mut shell = limited(Limits { max_function_depth: 50, ..Limits::default() });
    let result = shell.run("f() { f; }; f", None);
    assert_eq!(result.limit, Some(LimitHit::FunctionDepth));
    let result = shell.run("e() { eval e; }; e", None);
    assert_eq!(result.limit, Some(LimitHit::FunctionDepth));
}

#[test]
fn output_limit_truncates() {
    let mut shell = limited(Limits { max_output_bytes: 1000, ..Limits::default() });
    let result = shell.run("while :; do echo yes; done", None);
    assert_eq!(result.limit, Some(LimitHit::Output));
    assert!(result.truncated);
    assert_eq!(result.stdout.len(), 1000);
    assert_eq!(result.exit_code, 125);
    // Not through a pipe: the pipe streams, and its reader's end stops the
    // writer as SIGPIPE would (status 141).
    let result = shell.run("while :; do echo yes; done | { read x; echo $x; }; echo ${PIPESTATUS[@]}", None);
    assert_eq!(result.limit, None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "yes\n141 0\n");
}

#[test]
fn wall_time_limit() {
    let mut shell = limited(Limits {
        max_duration: std::time::Duration::from_millis(50),
        max_loop_iterations: u64::MAX,
        max_commands: u64::MAX,
        ..Limits::default()
    });
    let result = shell.run("while :; do :; done", None);
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    assert_eq!(result.exit_code, 124);
}

#[test]
fn cancellation() {
    let token = CancelToken::new();
    token.fire();
    let mut shell = limited(Limits { max_loop_iterations: u64::MAX, max_commands: u64::MAX, ..Limits::default() });
    let result = shell.run("while :; do :; done", Some(&token));
    assert_eq!(result.limit, Some(LimitHit::Cancelled));
    assert_eq!(result.exit_code, 130);
    // Fired from another thread while the loop runs.
    let token = CancelToken::new();
    let remote = token.clone();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        remote.fire();
    });
    let result = shell.run("while :; do :; done", Some(&token));
    handle.join().unwrap();
    assert_eq!(result.limit, Some(LimitHit::Cancelled));
}

#[test]
fn exit_trap_does_not_run_after_a_limit() {
    let mut shell = limited(Limits { max_loop_iterations: 10, ..Limits::default() });
    let result = shell.run("trap 'echo trapped' EXIT; while :; do :; done", None);
    assert_eq!(result.limit, Some(LimitHit::LoopIterations));
    assert_eq!(result.stdout, b"");
}

#[test]
fn deep_nesting_does_not_overflow() {
    let script = format!("echo {}x{}", "$(".repeat(100), ")".repeat(100));
    let (_, err, code) = run(&script);
    assert_eq!(code, 2);
    assert!(err.contains("nests too deeply"));
    let (out, _, code) = run(&format!("echo {}x{}", "$(echo ".repeat(40), ")".repeat(40)));
    assert_eq!((out.as_str(), code), ("x\n", 0));
}

#[test]
fn hostile_inputs_do_not_panic() {
    for script in [
        "echo {1..99999999999999999999}",
        "echo ~99999999999999999999999",
        "echo $((99999999999999999999))",
        "echo ${x:99999999999999999999}",
        "a[-5]=1",
        "echo ${a[-5]}",
        "echo $(( 1 << 99 )) $(( -9223372036854775807 - 1 )) $(( 2 ** -1 ))",
        "x=x; echo $((x))",
        "[[ a =~ ( ]]; echo $?",
        "case x in [) echo y;; esac",
        "echo \"${x/[/}\"",
        "read -n 99999999999999999999 x <<< a",
        "exit 99999999999999999999999",
        "shift 99999999999999999999999",
        "printf_missing=1; echo ${#@:1}",
    ] {
        let _ = run(script);
    }
}

#[test]
fn doubling_a_variable_hits_the_output_limit() {
    let mut shell = limited(Limits { max_output_bytes: 1 << 16, ..Limits::default() });
    let result = shell.run("x=a; while :; do x=$x$x; done", None);
    assert_eq!(result.limit, Some(LimitHit::Output));
    let result = shell.run("echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}", None);
    assert_eq!(result.limit, Some(LimitHit::Output));
}

/// Scripts made of random shell tokens: none may panic or run away.
#[test]
fn token_soup_does_not_panic() {
    const TOKENS: &[&str] = &[
        "echo",
        "x",
        "$x",
        "${x:-a}",
        "${#x}",
        "${x/a/b}",
        "${x:1:2}",
        "$((1+x))",
        "$(echo a)",
        "`echo b`",
        "|",
        "&&",
        "||",
        ";",
        "\n",
        "{",
        "}",
        "(",
        ")",
        "if",
        "then",
        "else",
        "fi",
        "for",
        "in",
        "do",
        "done",
        "while",
        "case",
        "esac",
        ")",
        ";;",
        "\"",
        "'",
        "\\",
        "*",
        "?",
        "[",
        "]",
        "[[",
        "]]",
        "==",
        "=~",
        "-eq",
        ">",
        ">>",
        "<",
        "<<<",
        "2>&1",
        "x=1",
        "a=(1 2)",
        "${a[@]}",
        "\"$@\"",
        "$#",
        "~",
        "{1..3}",
        "{a,b}",
        "f()",
        "local",
        "return",
        "break",
        "continue",
        "read",
        "shift",
        "set",
        "-e",
        "-u",
        "exit",
        "trap",
        "eval",
        "declare",
        "-A",
        "((",
        "))",
        "let",
        "!",
        "&",
        "$'\\n'",
        "<<EOF",
        "EOF",
        "#",
        "test",
        "-f",
        "d/*",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let limits = Limits {
        max_commands: 2000,
        max_loop_iterations: 2000,
        max_output_bytes: 1 << 16,
        max_duration: std::time::Duration::from_secs(2),
        max_function_depth: 20,
        max_memory_bytes: 64 << 20,
    };
    let mut shell = limited(limits);
    for _ in 0..400 {
        let len = (next() % 24) as usize + 1;
        let script: Vec<&str> = (0..len).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize]).collect();
        let script = script.join(" ");
        let result = shell.run(&script, None);
        assert!(result.exit_code >= 0 && result.exit_code <= 255, "{script:?}: {}", result.exit_code);
        shell.reset();
    }
}

#[test]
fn pipes_carry_more_than_the_output_limit() {
    let mut shell = limited(Limits { max_output_bytes: 1000, ..Limits::default() });
    let result = shell.run("seq 1 300000 | wc -l; seq 1 300000 | tail -n 1; seq 300000 | grep -c 7", None);
    assert_eq!(result.limit, None, "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(String::from_utf8_lossy(&result.stdout), "300000\n300000\n122853\n");
    // What is kept is still bounded: a substitution, a variable.
    let result = shell.run("x=$(seq 1 300000 | cat)", None);
    assert_eq!(result.limit, Some(LimitHit::Output));
}

#[test]
fn a_pipeline_of_ten_thousand_stages_ends_with_a_named_limit() {
    let script = vec!["true"; 10_000].join(" | ");
    let mut shell = limited(Limits::default());
    let result = shell.run(&script, None);
    assert_eq!(result.limit, Some(LimitHit::Threads));
    assert_eq!(result.exit_code, 125);
    // 100 stages are fine.
    let script = format!("echo x{}", " | cat".repeat(100));
    assert_eq!(shell.run(&script, None).stdout, b"x\n");
}

#[test]
fn limits_hold_across_stages() {
    let mut shell = limited(Limits {
        max_duration: std::time::Duration::from_millis(300),
        max_loop_iterations: u64::MAX,
        max_commands: u64::MAX,
        ..Limits::default()
    });
    // Both stages wait on each other's clock: the run still ends on time.
    let started = std::time::Instant::now();
    let result = shell.run("while :; do :; done | cat", None);
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    let result = shell.run("yes | while read x; do :; done", None);
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let token = CancelToken::new();
    token.fire();
    let result = limited(Limits::default()).run("yes | cat > /dev/null", Some(&token));
    assert_eq!(result.limit, Some(LimitHit::Cancelled));
    // Reading all of an endless stdin stops at the memory budget.
    let mut shell = limited(Limits { max_memory_bytes: 1 << 20, ..Limits::default() });
    let result = shell.run("yes | sort", None);
    assert_eq!(result.limit, Some(LimitHit::Memory));
    let mut shell = limited(Limits { max_commands: 50, ..Limits::default() });
    let result = shell.run("while :; do echo; done | while read x; do :; done", None);
    assert_eq!(result.limit, Some(LimitHit::Commands));
}

#[test]
fn a_pipe_bomb_ends_with_a_named_limit() {
    let started = std::time::Instant::now();
    let result = limited(Limits::default()).run("f() { f | f; }; f", None);
    assert!(matches!(result.limit, Some(LimitHit::Threads | LimitHit::FunctionDepth)), "{:?}", result.limit);
    assert_eq!(result.exit_code, 125);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
}

// ----- background jobs (issue 17) -----
// Expected outputs recorded with bash 5.2 (`bash -c`, C locale). Every
// assertion holds whatever order the threads run in: a job and the shell
// order themselves through files, or the shell waits.

#[test]
fn jobs_share_the_runs_limits() {
    // A fork bomb ends with the thread limit, every thread joined.
    let started = std::time::Instant::now();
    let result = limited(Limits::default()).run("f(){ f & f & wait; }; f; echo never", None);
    assert_eq!(result.limit, Some(LimitHit::Threads), "{}", String::from_utf8_lossy(&result.stderr));
    assert!(!String::from_utf8_lossy(&result.stdout).contains("never"));
    // Without `wait` the script may end first (as bash's does): then its
    // jobs are stopped; either way the run returns.
    let result = limited(Limits::default()).run("f(){ f & f & }; f", None);
    assert!(matches!(result.limit, None | Some(LimitHit::Threads)), "{:?}", result.limit);
    // The commands of every job count against one budget.
    let result = limited(Limits { max_commands: 1000, ..Limits::default() }).run("while :; do :; done & wait", None);
    assert_eq!(result.limit, Some(LimitHit::Commands));
    // Time and cancellation reach a waiting shell and its jobs.
    let result = limited(Limits { max_duration: std::time::Duration::from_millis(300), ..Limits::default() })
        .run("sleep 10 & wait", None);
    assert_eq!(result.limit, Some(LimitHit::WallTime));
    let token = CancelToken::new();
    let firing = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        firing.fire();
    });
    let result = limited(Limits::default()).run("(sleep 10; echo never) & sleep 10 & wait -n", Some(&token));
    canceller.join().unwrap();
    assert_eq!(result.limit, Some(LimitHit::Cancelled));
    // Memory: what a job holds counts against the run's budget.
    let result = limited(Limits { max_memory_bytes: 1 << 20, ..Limits::default() }).run("yes | sort & wait", None);
    assert_eq!(result.limit, Some(LimitHit::Memory), "{}", String::from_utf8_lossy(&result.stderr));
    // A guard against a hang, not a speed target: the fork bomb alone takes
    // 2-4 s on an idle machine and reached 9.7 s under make test's load.
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
}

// ----- process substitution as arguments, lastpipe (issue 17) -----
