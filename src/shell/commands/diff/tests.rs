use crate::shell::command::run_for_test;
use crate::storage::{MemoryStorage, Storage};

/// Each expectation below is what GNU diffutils 3.8 / coreutils 9.1
/// printed for the same files with LC_ALL=C.
fn run(name: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    let storage = MemoryStorage::new(Default::default());
    let numbers: String = (1..=20).map(|n| format!("{n}\n")).collect();
    let files: &[(&str, String)] = &[
        ("/a", "a\nb\nc\n".into()),
        ("/b", "a\nB\nc\nd".into()),
        ("/c", "a\nb\n".into()),
        ("/u", "b\na\n".into()),
        ("/e1", "a\nb".into()),
        ("/e2", "a\nbc".into()),
        ("/empty", String::new()),
        ("/bl1", "a\n\nb\n".into()),
        ("/bl2", "a\nb\n\n".into()),
        ("/w1", "a b\n".into()),
        ("/w2", "a  b \n".into()),
        ("/t1", numbers.clone()),
        ("/t3", numbers.replace("\n4\n", "\nX\n").replace("\n12\n", "\nY\n")),
        ("/d1/f", "x\n".into()),
        ("/d2/f", "y\n".into()),
        ("/d1/s", "same\n".into()),
        ("/d2/s", "same\n".into()),
        ("/d1/sub/g", "z\n".into()),
        ("/d2/sub/g", "w\n".into()),
        ("/d2/o2", "q\n".into()),
        ("/bin1", "x\0y".into()),
        ("/bin2", "x\0z".into()),
    ];
    for dir in ["/d1/sub", "/d1/only1", "/d2/sub"] {
        storage.mkdir(dir, true).unwrap();
    }
    for (path, text) in files {
        storage.write(path, text.as_bytes()).unwrap();
    }
    run_for_test(&storage, name, args, stdin)
}

fn out(status: i32, stdout: &str) -> (i32, String, String) {
    (status, stdout.into(), String::new())
}

#[test]
fn diff_normal_format() {
    assert_eq!(run("diff", &["a", "b"], ""), out(1, "2c2\n< b\n---\n> B\n3a4\n> d\n\\ No newline at end of file\n"));
    assert_eq!(run("diff", &["a", "a"], ""), out(0, ""));
    assert_eq!(run("diff", &["-i", "a", "b"], ""), out(1, "3a4\n> d\n\\ No newline at end of file\n"));
    assert_eq!(run("diff", &["-", "b"], "a\nB\nc\nd"), out(0, ""));
    assert_eq!(run("diff", &["w1", "w2"], ""), out(1, "1c1\n< a b\n---\n> a  b \n"));
    assert_eq!(run("diff", &["-w", "w1", "w2"], ""), out(0, ""));
    assert_eq!(run("diff", &["-b", "w1", "w2"], ""), out(0, ""));
    assert_eq!(run("diff", &["-B", "bl1", "bl2"], ""), out(0, ""));
    assert_eq!(run("diff", &["bl1", "bl2"], ""), out(1, "2d1\n< \n3a3\n> \n"));
    assert_eq!(run("diff", &["c", "a"], ""), out(1, "2a3\n> c\n"));
    assert_eq!(run("diff", &["a", "c"], ""), out(1, "3d2\n< c\n"));
}

#[test]
fn diff_unified_format() {
    assert_eq!(
        run("diff", &["-u", "--label", "A", "--label", "B", "e1", "e2"], ""),
        out(
            1,
            "--- A\n+++ B\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+bc\n\\ No newline at end of file\n"
        )
    );
    assert_eq!(
        run("diff", &["-U1", "--label", "A", "--label", "B", "t1", "t3"], ""),
        out(1, "--- A\n+++ B\n@@ -3,3 +3,3 @@\n 3\n-4\n+X\n 5\n@@ -11,3 +11,3 @@\n 11\n-12\n+Y\n 13\n")
    );
    // Context 3: the 7 lines between the changes keep two hunks; 6 would merge them.
    let (status, text, _) = run("diff", &["--unified", "--label=A", "--label=B", "t1", "t3"], "");
    assert_eq!(status, 1);
    assert!(text.contains("@@ -1,7 +1,7 @@\n") && text.contains("@@ -9,7 +9,7 @@\n"), "{text}");
    assert_eq!(
        run("diff", &["--label", "A", "--label", "B", "-u", "empty", "a"], ""),
        out(1, "--- A\n+++ B\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n")
    );
    let (_, text, _) = run("diff", &["-u", "a", "c"], "");
    assert!(text.starts_with("--- a\t") && text.contains(" +0000\n+++ c\t"), "{text}");
    assert!(text.ends_with("@@ -1,3 +1,2 @@\n a\n b\n-c\n"), "{text}");
}

#[test]
fn diff_directories_and_errors() {
    assert_eq!(
        run("diff", &["-r", "d1", "d2"], ""),
        out(
            1,
            "diff -r d1/f d2/f\n1c1\n< x\n---\n> y\nOnly in d2: o2\nOnly in d1: only1\n\
             diff -r d1/sub/g d2/sub/g\n1c1\n< z\n---\n> w\n"
        )
    );
    assert_eq!(
        run("diff", &["-q", "d1", "d2"], ""),
        out(
            1,
            "Files d1/f and d2/f differ\nOnly in d2: o2\nOnly in d1: only1\nCommon subdirectories: d1/sub and d2/sub\n"
        )
    );
    assert_eq!(run("diff", &["-rN", "d1", "d2"], "").1.matches("diff -rN ").count(), 3);
    assert_eq!(run("diff", &["-s", "a", "a"], ""), out(0, "Files a and a are identical\n"));
    assert_eq!(run("diff", &["bin1", "bin2"], ""), out(1, "Binary files bin1 and bin2 differ\n"));
    assert_eq!(run("diff", &["-q", "bin1", "bin2"], ""), out(1, "Files bin1 and bin2 differ\n"));
    assert_eq!(run("diff", &["nope", "a"], ""), (2, "".into(), "diff: nope: No such file or directory\n".into()));
    assert_eq!(run("diff", &["-N", "a", "nope"], ""), out(1, "1,3d0\n< a\n< b\n< c\n"));
    assert_eq!(run("diff", &["a", "d1"], ""), (2, "".into(), "diff: d1/a: No such file or directory\n".into()));
    assert_eq!(
        run("diff", &["a"], ""),
        (2, "".into(), "diff: missing operand after 'a'\ndiff: Try 'diff --help' for more information.\n".into())
    );
    // Not GNU's answer: -Z (--ignore-trailing-space) is left out, and a flag
    // left out fails with getopt's own message rather than doing something else.
    assert_eq!(
        run("diff", &["-Z", "a", "b"], ""),
        (2, "".into(), "diff: invalid option -- 'Z'\ndiff: Try 'diff --help' for more information.\n".into())
    );
    assert_eq!(
        run("diff", &["-U", "x", "a", "b"], ""),
        (2, "".into(), "diff: invalid context length 'x'\ndiff: Try 'diff --help' for more information.\n".into())
    );
}

#[test]
fn diff_unified_ignores_blank_changes_and_keeps_the_widest_context() {
    let storage = MemoryStorage::new(Default::default());
    storage.write("/bb1", b"a\n\nb\nc\nd\ne\nf\ng\nh\n").unwrap();
    storage.write("/bb2", b"a\nb\nc\nX\nd\ne\nf\ng\nh\n\n").unwrap();
    storage.write("/a", b"a\nb\nc\n").unwrap();
    storage.write("/b", b"a\nB\nc\nd").unwrap();
    let labels = ["--label", "A", "--label", "B"];
    let args: Vec<&str> = ["-uB"].iter().chain(&labels).chain(&["bb1", "bb2"]).copied().collect();
    assert_eq!(
        run_for_test(&storage, "diff", &args, "").1,
        "--- A\n+++ B\n@@ -1,7 +1,7 @@\n a\n-\n b\n c\n+X\n d\n e\n f\n"
    );
    let args: Vec<&str> = ["-u", "-U1"].iter().chain(&labels).chain(&["a", "b"]).copied().collect();
    assert_eq!(
        run_for_test(&storage, "diff", &args, "").1,
        "--- A\n+++ B\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n\\ No newline at end of file\n"
    );
}

#[test]
fn diff_colors_crs_and_switch_lines() {
    assert_eq!(
        run("diff", &["--color=always", "a", "b"], "").1,
        "\x1b[36m2c2\x1b[0m\n\x1b[31m< b\x1b[0m\n---\n\x1b[32m> B\x1b[0m\n\
         \x1b[36m3a4\x1b[0m\n\x1b[32m> d\x1b[0m\n\\ No newline at end of file\n"
    );
    assert_eq!(
        run("diff", &["--color=always", "-u", "--label", "A", "--label", "B", "c", "a"], "").1,
        "\x1b[1m--- A\x1b[0m\n\x1b[1m+++ B\x1b[0m\n\x1b[36m@@ -1,2 +1,3 @@\x1b[0m\n a\n b\n\x1b[32m+c\x1b[0m\n"
    );
    assert_eq!(run("diff", &["--color", "c", "a"], "").1, "2a3\n> c\n");
    assert_eq!(
        run("diff", &["--color=bad", "a", "b"], "").2,
        "diff: invalid color 'bad'\ndiff: Try 'diff --help' for more information.\n"
    );
    let storage = MemoryStorage::new(Default::default());
    storage.write("/cr1", b"a\r\nb\n").unwrap();
    storage.write("/cr2", b"a\nb\n").unwrap();
    assert_eq!(run_for_test(&storage, "diff", &["--strip-trailing-cr", "cr1", "cr2"], "").0, 0);
    assert_eq!(run_for_test(&storage, "diff", &["cr1", "cr2"], "").1, "1c1\n< a\r\n---\n> a\n");
    assert!(run("diff", &["-r", "--unified=5", "d1", "d2"], "").1.starts_with("diff -r '--unified=5' d1/f d2/f\n"));
    assert!(run("diff", &["-r", "--", "d1", "d2"], "").1.starts_with("diff -r -- d1/f d2/f\n"));
}

#[test]
fn diff_context_format() {
    assert_eq!(
        run("diff", &["-C1", "--label", "A", "--label", "B", "t1", "t3"], ""),
        out(
            1,
            "*** A\n--- B\n***************\n*** 3,5 ****\n  3\n! 4\n  5\n--- 3,5 ----\n  3\n! X\n  5\n\
             ***************\n*** 11,13 ****\n  11\n! 12\n  13\n--- 11,13 ----\n  11\n! Y\n  13\n"
        )
    );
    assert_eq!(
        run("diff", &["-c", "--label", "A", "--label", "B", "empty", "a"], "").1,
        "*** A\n--- B\n***************\n*** 0 ****\n--- 1,3 ----\n+ a\n+ b\n+ c\n"
    );
    assert_eq!(
        run("diff", &["-c", "--label", "A", "--label", "B", "a", "c"], "").1,
        "*** A\n--- B\n***************\n*** 1,3 ****\n  a\n  b\n- c\n--- 1,2 ----\n"
    );
    let (_, text, _) = run("diff", &["-c", "a", "c"], "");
    assert!(text.starts_with("*** a\t") && text.contains("\n--- c\t"), "{text}");
    assert_eq!(
        run("diff", &["-c", "-u", "a", "b"], "").2,
        "diff: conflicting output style options\ndiff: Try 'diff --help' for more information.\n"
    );
}

#[test]
fn diff_slides_changes_as_gnu_does() {
    let storage = MemoryStorage::new(Default::default());
    storage.write("/p1", b"a\nb\nb\nb\nc\n").unwrap();
    storage.write("/p2", b"a\nb\nb\nc\n").unwrap();
    storage.write("/q1", b"a\nb\na\nb\nz\n").unwrap();
    storage.write("/q2", b"a\nb\nz\n").unwrap();
    // GNU leaves the common last lines out of the search: 19d16, not 21d18.
    storage.write("/r1", b"b\na\na\nb\na\na\nb\na\nb\na\nb\na\na\nb\nb\na\na\na\nb\nb\nb\n").unwrap();
    storage.write("/r2", b"b\na\na\nb\na\na\nb\na\nb\na\na\nb\nb\na\na\na\nb\nb\n").unwrap();
    assert_eq!(run_for_test(&storage, "diff", &["p1", "p2"], "").1, "4d3\n< b\n");
    assert_eq!(run_for_test(&storage, "diff", &["q1", "q2"], "").1, "3,4d2\n< a\n< b\n");
    assert_eq!(run_for_test(&storage, "diff", &["r1", "r2"], "").1, "11,12d10\n< b\n< a\n19d16\n< b\n");
    let unified = run_for_test(&storage, "diff", &["-U2", "--label", "A", "--label", "B", "r1", "r2"], "").1;
    assert!(unified.ends_with("@@ -19,3 +17,2 @@\n b\n b\n-b\n"), "{unified}");
}

#[test]
fn cmp_messages() {
    assert_eq!(run("cmp", &["a", "b"], ""), out(1, "a b differ: char 3, line 2\n"));
    assert_eq!(run("cmp", &["-b", "a", "b"], ""), out(1, "a b differ: byte 3, line 2 is 142 b 102 B\n"));
    assert_eq!(run("cmp", &["a", "a"], ""), out(0, ""));
    assert_eq!(run("cmp", &["-s", "a", "b"], ""), out(1, ""));
    assert_eq!(run("cmp", &["-n", "2", "a", "b"], ""), out(0, ""));
    assert_eq!(run("cmp", &["-l", "a", "b"], ""), (1, "3 142 102\n".into(), "cmp: EOF on a after byte 6\n".into()));
    assert_eq!(run("cmp", &["a", "c"], ""), (1, "".into(), "cmp: EOF on c after byte 4, line 2\n".into()));
    assert_eq!(run("cmp", &["e1", "e2"], ""), (1, "".into(), "cmp: EOF on e1 after byte 3, in line 2\n".into()));
    assert_eq!(run("cmp", &["empty", "a"], ""), (1, "".into(), "cmp: EOF on empty which is empty\n".into()));
    assert_eq!(run("cmp", &["nope", "a"], ""), (2, "".into(), "cmp: nope: No such file or directory\n".into()));
    assert_eq!(
        run("cmp", &["-n", "x", "a", "b"], ""),
        (2, "".into(), "cmp: invalid --bytes value 'x'\ncmp: Try 'cmp --help' for more information.\n".into())
    );
}

#[test]
fn comm_columns_and_order() {
    assert_eq!(run("comm", &["a", "b"], ""), out(0, "\t\ta\n\tB\nb\n\t\tc\n\td\n"));
    assert_eq!(run("comm", &["-12", "a", "c"], ""), out(0, "a\nb\n"));
    assert_eq!(run("comm", &["--output-delimiter=:", "a", "c"], ""), out(0, "::a\n::b\nc\n"));
    assert_eq!(run("comm", &["--total", "a", "c"], ""), out(0, "\t\ta\n\t\tb\nc\n1\t0\t2\ttotal\n"));
    assert_eq!(
        run("comm", &["u", "a"], ""),
        (
            1,
            "\ta\n\t\tb\na\n\tc\n".into(),
            "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n".into()
        )
    );
    assert_eq!(
        run("comm", &["--check-order", "u", "a"], ""),
        (1, "\ta\n\t\tb\n".into(), "comm: file 1 is not in sorted order\n".into())
    );
    assert_eq!(run("comm", &["--nocheck-order", "u", "a"], ""), out(0, "\ta\n\t\tb\na\n\tc\n"));
    assert_eq!(
        run("comm", &["a"], ""),
        (1, "".into(), "comm: missing operand after 'a'\nTry 'comm --help' for more information.\n".into())
    );
}
