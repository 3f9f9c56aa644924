//! Each expected text was produced by the GNU tool (coreutils 9, `LC_ALL=C`)
//! on the same input, except the machine's fixed identity (user, host,
//! kernel), which is ours.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::shell::command::run_for_test;
use crate::shell::{LimitHit, Limits, Shell, ShellOptions};
use crate::storage::MemoryStorage;

fn run(name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    run_for_test(&MemoryStorage::new(Default::default()), name, args, stdin)
}

fn out(status: i32, stdout: &str) -> (i32, String, String) {
    (status, stdout.to_string(), String::new())
}

fn err(status: i32, stderr: &str) -> (i32, String, String) {
    (status, String::new(), stderr.to_string())
}

/// Runs a script in a whole shell: (stdout, stderr, status, limit).
fn shell(limits: Limits, script: &str) -> (String, String, i32, Option<LimitHit>) {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    let mut shell = Shell::new(storage, ShellOptions { limits, ..ShellOptions::default() });
    let r = shell.run(script, None);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&r.stdout), text(&r.stderr), r.exit_code, r.limit)
}

#[test]
fn sleep_reads_gnu_intervals() {
    assert_eq!(run("sleep", &["0.01", ".01s", "0m", "0h", "0d"], ""), out(0, ""));
    assert_eq!(run("sleep", &[], ""), err(1, "sleep: missing operand\nTry 'sleep --help' for more information.\n"));
    assert_eq!(
        run("sleep", &["x", "1x"], ""),
        err(
            1,
            "sleep: invalid time interval 'x'\nsleep: invalid time interval '1x'\n\
             Try 'sleep --help' for more information.\n"
        )
    );
    assert_eq!(
        run("sleep", &["-1"], ""),
        err(1, "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n")
    );
    assert_eq!(super::interval("1.5m"), Some(90.0));
    assert_eq!(super::interval("inf"), Some(f64::INFINITY));
    assert_eq!(super::interval("infinity"), Some(f64::INFINITY));
    assert_eq!(super::interval("1e1"), Some(10.0));
    assert_eq!(super::interval("s"), None);
    assert_eq!(super::interval("-0"), None);
}

#[test]
fn sleep_really_waits() {
    let start = Instant::now();
    assert_eq!(shell(Limits::default(), "sleep 0.05; echo done").0, "done\n");
    assert!(start.elapsed() >= Duration::from_millis(50));
}

#[test]
fn sleep_stops_at_the_time_limit() {
    let limits = Limits { max_duration: Duration::from_millis(100), ..Limits::default() };
    for script in ["sleep 100", "sleep infinity", "sleep 1d; echo never"] {
        let start = Instant::now();
        let (stdout, stderr, code, limit) = shell(limits.clone(), script);
        assert!(start.elapsed() < Duration::from_secs(5), "{script} took {:?}", start.elapsed());
        assert_eq!(
            (stdout.as_str(), stderr.as_str(), code, limit),
            ("", "aikido-shell: time limit reached\n", 124, Some(LimitHit::WallTime))
        );
    }
}

#[test]
fn env_prints_and_runs_with_changes() {
    let script = "export A=1 B=2; C=3; env; echo --; env -u A D=4 printenv; echo --; env -i E=5 printenv; \
                  env A=9 printenv A; echo $A; env -u A printenv A; echo $?";
    let (stdout, stderr, code, _) = shell(Limits::default(), script);
    assert_eq!(
        stdout,
        "A=1\nB=2\nHOME=/\nPATH=/usr/bin:/bin\nPWD=/\n--\nB=2\nD=4\nHOME=/\nPATH=/usr/bin:/bin\nPWD=/\n--\nE=5\n9\n1\n1\n"
    );
    assert_eq!((stderr.as_str(), code), ("", 0));
    // A command's prefix assignment is exported to it.
    assert_eq!(shell(Limits::default(), "X=1 env | grep X; X=2 printenv X").0, "X=1\n2\n");
    assert_eq!(shell(Limits::default(), "env -i A=1 B=2").0, "A=1\nB=2\n");
    assert_eq!(shell(Limits::default(), "env -0 -i A=1").0, "A=1\0");
    assert_eq!(shell(Limits::default(), "env -- echo hi there").0, "hi there\n");
    assert_eq!(
        shell(Limits::default(), "f() { echo f; }; env f; env nope; echo $?"),
        (
            "127\n".into(),
            "env: 'f': No such file or directory\nenv: 'nope': No such file or directory\n".into(),
            0,
            None
        )
    );
    assert_eq!(
        run("env", &["-x"], ""),
        err(125, "env: invalid option -- 'x'\nTry 'env --help' for more information.\n")
    );
    assert_eq!(
        run("env", &["-u"], ""),
        err(125, "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n")
    );
    assert_eq!(
        run("env", &["-0", "echo", "hi"], ""),
        err(125, "env: cannot specify --null (-0) with command\nTry 'env --help' for more information.\n")
    );
}

#[test]
fn printenv_prints_exported_variables() {
    let (stdout, _, code, _) =
        shell(Limits::default(), "export A=x; B=y; printenv A; printenv B; echo $?; printenv A HOME");
    assert_eq!((stdout.as_str(), code), ("x\n1\nx\n/\n", 0));
    assert_eq!(shell(Limits::default(), "printenv NOPE").2, 1);
    assert_eq!(
        run("printenv", &["-x"], ""),
        err(2, "printenv: invalid option -- 'x'\nTry 'printenv --help' for more information.\n")
    );
}

#[test]
fn tac_reverses_records() {
    assert_eq!(run("tac", &[], "a\nb\nc"), out(0, "cb\na\n"));
    assert_eq!(run("tac", &[], "a\nb\nc\n"), out(0, "c\nb\na\n"));
    assert_eq!(run("tac", &["-b"], "a\nb\nc\n"), out(0, "\n\nc\nba"));
    assert_eq!(run("tac", &["-s", ","], "a,b,c,"), out(0, "c,b,a,"));
    assert_eq!(run("tac", &["-s", ","], "a,b,c"), out(0, "cb,a,"));
    assert_eq!(run("tac", &[], ""), out(0, ""));
    assert_eq!(run("tac", &["-s", ""], "a\0b\0"), out(0, "b\0a\0"));
    assert_eq!(
        run("tac", &["nofile"], ""),
        err(1, "tac: failed to open 'nofile' for reading: No such file or directory\n")
    );
}

#[test]
fn base64_encodes_and_decodes() {
    assert_eq!(run("base64", &[], "hello\n"), out(0, "aGVsbG8K\n"));
    assert_eq!(run("base64", &[], "a"), out(0, "YQ==\n"));
    assert_eq!(run("base64", &[], "ab"), out(0, "YWI=\n"));
    assert_eq!(run("base64", &[], ""), out(0, ""));
    let zeros = "0".repeat(60);
    assert_eq!(run("base64", &[], &zeros), out(0, &format!("{}\n{}\n", "MDAw".repeat(19), "MDAw")));
    assert_eq!(run("base64", &["-w", "10"], "0000000000"), out(0, "MDAwMDAwMD\nAwMA==\n"));
    assert_eq!(run("base64", &["-w0"], "hello\n"), out(0, "aGVsbG8K"));
    assert_eq!(run("base64", &["-d"], "aGVsbG8K\n"), out(0, "hello\n"));
    assert_eq!(run("base64", &["--decode"], "aGk=aGk="), out(0, "hihi"));
    assert_eq!(run("base64", &["-d"], "YQ==\n\nYg=="), out(0, "ab"));
    assert_eq!(run("base64", &["-d"], "aGVs!bG8K\n"), (1, "hel".into(), "base64: invalid input\n".into()));
    assert_eq!(run("base64", &["-di"], "aGVs!bG8K\n"), out(0, "hello\n"));
    assert_eq!(run("base64", &["-d"], "aGVsbG8"), (1, "hello".into(), "base64: invalid input\n".into()));
    assert_eq!(run("base64", &["-d"], "Y==="), err(1, "base64: invalid input\n"));
    assert_eq!(run("base64", &["-w", "x"], ""), err(1, "base64: invalid wrap size: 'x'\n"));
    assert_eq!(
        run("base64", &["a", "b"], ""),
        err(1, "base64: extra operand 'b'\nTry 'base64 --help' for more information.\n")
    );
}

#[test]
fn expr_evaluates_like_gnu() {
    let e = |args: &[&str]| run("expr", args, "");
    assert_eq!(e(&["(", "1", "+", "2", ")", "*", "3"]), out(0, "9\n"));
    assert_eq!(e(&["10", "%", "3", "-", "-2"]), out(0, "3\n"));
    assert_eq!(e(&["7", "/", "-2"]), out(0, "-3\n"));
    assert_eq!(e(&["abc", ":", "a\\(.\\)"]), out(0, "b\n"));
    assert_eq!(e(&["abc", ":", "a."]), out(0, "2\n"));
    assert_eq!(e(&["abc", ":", "b"]), out(1, "0\n"));
    assert_eq!(e(&["abc", ":", "\\(x\\)"]), out(1, "\n"));
    assert_eq!(e(&["foo.txt", ":", ".*\\.\\(.*\\)"]), out(0, "txt\n"));
    assert_eq!(e(&["length", "abc"]), out(0, "3\n"));
    assert_eq!(e(&["substr", "hello", "2", "3"]), out(0, "ell\n"));
    assert_eq!(e(&["substr", "hello", "0", "3"]), out(1, "\n"));
    assert_eq!(e(&["index", "hello", "l"]), out(0, "3\n"));
    assert_eq!(e(&["match", "abc", "ab"]), out(0, "2\n"));
    assert_eq!(e(&["3", "<", "10"]), out(0, "1\n"));
    assert_eq!(e(&["a", "<", "b"]), out(0, "1\n"));
    assert_eq!(e(&["10", "=", "010"]), out(0, "1\n"));
    assert_eq!(e(&["0"]), out(1, "0\n"));
    assert_eq!(e(&["-0"]), out(1, "-0\n"));
    assert_eq!(e(&[""]), out(1, "\n"));
    assert_eq!(e(&["1", "|", "0"]), out(0, "1\n"));
    assert_eq!(e(&["", "|", "0"]), out(1, "0\n"));
    assert_eq!(e(&["0", "&", "1"]), out(1, "0\n"));
    assert_eq!(e(&["+", "length"]), out(0, "length\n"));
    assert_eq!(e(&["--", "3", "+", "4"]), out(0, "7\n"));
    assert_eq!(e(&[]), err(2, "expr: missing operand\nTry 'expr --help' for more information.\n"));
    assert_eq!(e(&["1", "+"]), err(2, "expr: syntax error: missing argument after '+'\n"));
    assert_eq!(e(&["a", "+", "1"]), err(2, "expr: non-integer argument\n"));
    assert_eq!(e(&["5", "/", "0"]), err(2, "expr: division by zero\n"));
    assert_eq!(e(&["(", "1"]), err(2, "expr: syntax error: expecting ')' after '1'\n"));
    assert_eq!(e(&["(", "1", "2"]), err(2, "expr: syntax error: expecting ')' instead of '2'\n"));
    assert_eq!(e(&["1", "2"]), err(2, "expr: syntax error: unexpected argument '2'\n"));
    assert_eq!(e(&[")"]), err(2, "expr: syntax error: unexpected ')'\n"));
}

#[test]
fn which_finds_the_shells_commands() {
    assert_eq!(run("which", &["ls", "echo"], ""), out(0, "/usr/bin/ls\n/usr/bin/echo\n"));
    assert_eq!(run("which", &["-a", "sed"], ""), out(0, "/usr/bin/sed\n"));
    assert_eq!(run("which", &["nope", "ls", "cd"], ""), out(1, "/usr/bin/ls\n"));
    assert_eq!(run("which", &[], ""), out(1, ""));
    assert_eq!(
        run("which", &["-x", "ls"], ""),
        (2, "Usage: /usr/bin/which [-a] args\n".into(), "Illegal option -x\n".into())
    );
    // The same path `command -v` gives.
    assert_eq!(shell(Limits::default(), "command -v ls; which ls").0, "/usr/bin/ls\n/usr/bin/ls\n");
}

#[test]
fn identity_is_fixed() {
    assert_eq!(run("uname", &[], ""), out(0, "Linux\n"));
    assert_eq!(run("uname", &["-a"], ""), out(0, "Linux aikido 6.0.0 #1 SMP x86_64 GNU/Linux\n"));
    assert_eq!(run("uname", &["-snrm"], ""), out(0, "Linux aikido 6.0.0 x86_64\n"));
    assert_eq!(run("uname", &["-p", "-i"], ""), out(0, "unknown unknown\n"));
    assert_eq!(
        run("uname", &["foo"], ""),
        err(1, "uname: extra operand 'foo'\nTry 'uname --help' for more information.\n")
    );
    assert_eq!(run("whoami", &[], ""), out(0, "user\n"));
    assert_eq!(
        run("whoami", &["x"], ""),
        err(1, "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n")
    );
    assert_eq!(run("id", &[], ""), out(0, "uid=1000(user) gid=1000(user) groups=1000(user)\n"));
    assert_eq!(run("id", &["-un"], ""), out(0, "user\n"));
    assert_eq!(run("id", &["-u"], ""), out(0, "1000\n"));
    assert_eq!(run("id", &["-Gn"], ""), out(0, "user\n"));
    assert_eq!(run("id", &["-n"], ""), err(1, "id: cannot print only names or real IDs in default format\n"));
    assert_eq!(run("id", &["bob"], ""), err(1, "id: 'bob': no such user\n"));
    assert_eq!(run("hostname", &[], ""), out(0, "aikido\n"));
}

#[test]
fn date_prints_utc() {
    assert_eq!(run("date", &["-d", "@0"], ""), out(0, "Thu Jan  1 00:00:00 UTC 1970\n"));
    assert_eq!(run("date", &["-u", "-d", "@0", "-R"], ""), out(0, "Thu, 01 Jan 1970 00:00:00 +0000\n"));
    assert_eq!(run("date", &["-d", "@0", "-I"], ""), out(0, "1970-01-01\n"));
    assert_eq!(run("date", &["-Iseconds", "-d", "@0"], ""), out(0, "1970-01-01T00:00:00+00:00\n"));
    assert_eq!(run("date", &["-d", "@0", "-Ihours"], ""), out(0, "1970-01-01T00+00:00\n"));
    assert_eq!(run("date", &["-d", "2024-01-02 03:04"], ""), out(0, "Tue Jan  2 03:04:00 UTC 2024\n"));
    assert_eq!(run("date", &["-d", "2024-03-10", "+%s"], ""), out(0, "1710028800\n"));
    assert_eq!(run("date", &["--date=@1700000000", "+%Y-%m-%dT%H:%M:%SZ"], ""), out(0, "2023-11-14T22:13:20Z\n"));
    assert_eq!(run("date", &["-d", "@0", "--rfc-3339=seconds"], ""), out(0, "1970-01-01 00:00:00+00:00\n"));
    assert_eq!(run("date", &["-d", "bad"], ""), err(1, "date: invalid date 'bad'\n"));
    assert_eq!(run("date", &["foo"], ""), err(1, "date: invalid date 'foo'\n"));
    assert_eq!(
        run("date", &["+%Y", "+%m"], ""),
        err(1, "date: extra operand '+%m'\nTry 'date --help' for more information.\n")
    );
    assert_eq!(run("date", &["-R", "-I"], ""), err(1, "date: multiple output formats specified\n"));
    let (status, now, _) = run("date", &["+%Y-%m-%d %H:%M"], "");
    assert_eq!((status, now.len()), (0, 17));
}

/// tac from a file's end, a few bytes at a time, against the whole input
/// at once and against GNU tac 9.1's output on overlapping separators.
#[test]
fn tac_reads_backwards_in_pieces_as_it_reads_whole() {
    fn tac(data: &[u8], separator: &[u8], before: bool, piece: usize) -> Vec<u8> {
        let read = |offset: u64, len: usize| -> Result<Vec<u8>, crate::storage::StorageError> {
            let from = (offset as usize).min(data.len());
            Ok(data[from..(from + len).min(data.len())].to_vec())
        };
        let mut out = Vec::new();
        let mut step = |_: &mut Vec<u8>| Ok(());
        super::tac_records(&mut out, data.len() as u64, &read, separator, before, piece, usize::MAX, &mut step)
            .map_err(|_| ())
            .unwrap();
        out
    }
    // GNU: printf xaaay | tac -s aa → yxaaa; with -b → aayxa.
    assert_eq!(tac(b"xaaay", b"aa", false, 100), b"yxaaa");
    assert_eq!(tac(b"xaaay", b"aa", true, 100), b"aayxa");
    assert_eq!(tac(b"a\n\n", b"\n", false, 100), b"\na\n");
    let inputs: [&[u8]; 6] = [b"a\nb\nc", b"a\nb\nc\n", b"\n\n\nxy\n\nz", b"xaaay", b"aaaaabaaab", b""];
    for data in inputs {
        for separator in [&b"\n"[..], b"aa", b"ab", b"\n\n"] {
            for before in [false, true] {
                let whole = tac(data, separator, before, 1 << 20);
                for piece in 1..6 {
                    assert_eq!(tac(data, separator, before, piece), whole, "{data:?} {separator:?} {before} {piece}");
                }
            }
        }
    }
    // A record longer than the memory budget is refused.
    let read = |offset: u64, len: usize| -> Result<Vec<u8>, crate::storage::StorageError> {
        Ok(vec![b'x'; len.min(100 - offset as usize)])
    };
    let mut step = |_: &mut Vec<u8>| Ok(());
    let result = super::tac_records(&mut Vec::new(), 100, &read, b"\n", false, 10, 50, &mut step);
    assert!(matches!(result, Err(crate::shell::command::ReadFailed::Limit(LimitHit::Memory))));
}
