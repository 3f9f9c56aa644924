//! The jq command's tests.

use super::*;
use crate::shell::command::run_for_test;
use crate::storage::{MemoryLimits, MemoryStorage, Storage};

fn jq(args: &[&str], stdin: &str) -> (i32, String, String) {
    let storage = MemoryStorage::new(MemoryLimits::default());
    run_for_test(&storage, "jq", args, stdin)
}

fn out(args: &[&str], stdin: &str) -> String {
    let (status, stdout, stderr) = jq(args, stdin);
    assert_eq!(status, 0, "stderr: {stderr}");
    stdout
}

#[test]
fn prelude_parses() {
    assert!(load::parse(PRELUDE, |p| p.defs()).is_some());
}

#[test]
fn identity_pretty_prints_like_jq() {
    let input = r#"{"a":[],"b":{},"c":[1,{"d":null,"e":"x"}],"f":true}"#;
    let expected = "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null,\n      \"e\": \"x\"\n    }\n  ],\n  \"f\": true\n}\n";
    assert_eq!(out(&["."], input), expected);
}

#[test]
fn paths_and_iteration() {
    assert_eq!(out(&[".a.b"], r#"{"a":{"b":42}}"#), "42\n");
    assert_eq!(out(&[".[]"], "[1,\"x\",null]"), "1\n\"x\"\nnull\n");
    assert_eq!(out(&[".[0]"], "[7,8]"), "7\n");
    assert_eq!(out(&["-c", "map(select(.x > 1))"], r#"[{"x":1},{"x":2},{"x":3}]"#), "[{\"x\":2},{\"x\":3}]\n");
    assert_eq!(out(&["-c", "keys"], r#"{"b":1,"a":2}"#), "[\"a\",\"b\"]\n");
    assert_eq!(out(&["length"], r#"[1,2,3]"#), "3\n");
}

#[test]
fn output_options() {
    assert_eq!(out(&["-r", ".[]"], r#"["a","b\nc",1]"#), "a\nb\nc\n1\n");
    assert_eq!(out(&["-j", ".[]"], r#"["a",1]"#), "a1");
    assert_eq!(out(&["-c", "."], r#"{"a": [1, 2], "b": {"c": null}}"#), "{\"a\":[1,2],\"b\":{\"c\":null}}\n");
    assert_eq!(out(&["-S", "-c", "."], r#"{"b":1,"a":{"d":1,"c":2}}"#), "{\"a\":{\"c\":2,\"d\":1},\"b\":1}\n");
    assert_eq!(out(&["--tab", "."], r#"{"a":[1]}"#), "{\n\t\"a\": [\n\t\t1\n\t]\n}\n");
    assert_eq!(out(&["--indent", "1", "."], r#"[1]"#), "[\n 1\n]\n");
    assert_eq!(out(&["-a", "."], r#""é😀""#), "\"\\u00e9\\ud83d\\ude00\"\n");
    assert_eq!(out(&["-rc", "."], r#"{"a":"x"}"#), "{\"a\":\"x\"}\n");
}

#[test]
fn input_options() {
    assert_eq!(out(&["-n", "1, 2"], ""), "1\n2\n");
    assert_eq!(out(&["-c", "-s", "."], "1 2\n[3]"), "[1,2,[3]]\n");
    assert_eq!(out(&["-c", "."], "1 2\n{\"a\":3}"), "1\n2\n{\"a\":3}\n");
    assert_eq!(out(&["-R", "."], "a\nb"), "\"a\"\n\"b\"\n");
    assert_eq!(out(&["-Rs", "."], "a\nb\n"), "\"a\\nb\\n\"\n");
    assert_eq!(out(&["-nc", "[inputs]"], "1 2 3"), "[1,2,3]\n");
    assert_eq!(out(&["-c", "[., input]"], "1 2 3 4"), "[1,2]\n[3,4]\n");
    assert_eq!(out(&["-n", "--arg", "x", "hi", "$x"], ""), "\"hi\"\n");
    assert_eq!(out(&["-nc", "--argjson", "x", "{\"a\":1}", "$x.a, $ARGS.named"], ""), "1\n{\"x\":{\"a\":1}}\n");
    assert_eq!(out(&["-nc", "$ARGS.positional", "--args", "a", "b"], ""), "[\"a\",\"b\"]\n");
}

#[test]
fn files() {
    let storage = MemoryStorage::new(MemoryLimits::default());
    storage.write("/a.json", b"{\"x\":1}\n{\"x\":2}\n").unwrap();
    let (status, stdout, stderr) = run_for_test(&storage, "jq", &[".x", "a.json", "missing.json"], "");
    assert_eq!(stdout, "1\n2\n");
    assert_eq!(stderr, "jq: error: Could not open missing.json: No such file or directory\n");
    assert_eq!(status, 2);
    let (status, _, stderr) = run_for_test(&storage, "jq", &[".x.y", "a.json"], "");
    assert_eq!(status, 5);
    assert_eq!(
        stderr,
        "jq: error (at a.json:1): Cannot index number with \"y\"\njq: error (at a.json:2): Cannot index number with \"y\"\n"
    );
}

#[test]
fn builtins() {
    assert_eq!(
        out(&["-c", "to_entries"], r#"{"a":1,"b":2}"#),
        "[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":2}]\n"
    );
    assert_eq!(out(&["-c", "from_entries"], r#"[{"name":"a","value":1},{"k":"b","v":2}]"#), "{\"a\":1,\"b\":2}\n");
    assert_eq!(out(&["-c", "group_by(.a) | map(length)"], r#"[{"a":1},{"a":2},{"a":1}]"#), "[2,1]\n");
    assert_eq!(out(&["-c", "sort_by(.a) | map(.a)"], r#"[{"a":3},{"a":1},{"a":2}]"#), "[1,2,3]\n");
    assert_eq!(out(&["-c", "[limit(3; repeat(1))], [range(2; 10; 3)]"], "null"), "[1,1,1]\n[2,5,8]\n");
    assert_eq!(out(&["-c", "del(.[0, 1])"], "[1,2,3]"), "[3]\n");
    assert_eq!(out(&["-c", "walk(if type == \"number\" then . + 1 else . end)"], "[1,[2]]"), "[2,[3]]\n");
    assert_eq!(out(&["-c", "[.[] | ltrimstr(\"a\")]"], r#"["ab",1]"#), "[\"b\",1]\n");
    assert_eq!(out(&["-r", "join(\"-\")"], r#"["a",1,null,true]"#), "a-1--true\n");
    assert_eq!(out(&["-c", "[.[] | tostring]"], "[1, 1.5, [2], \"s\"]"), "[\"1\",\"1.5\",\"[2]\",\"s\"]\n");
}

#[test]
fn updates_create_and_pad_like_jq() {
    assert_eq!(out(&["-nc", ".a.b = 1 | .c[2] = true"], ""), "{\"a\":{\"b\":1},\"c\":[null,null,true]}\n");
    assert_eq!(out(&["-c", ".a += 1 | .b |= . + [2] | .d //= 3"], "{\"a\":1}"), "{\"a\":2,\"b\":[2],\"d\":3}\n");
    assert_eq!(
        out(&["-c", "setpath([\"x\", 0]; 1), delpaths([[\"a\"]]), (.[\"a\"] |= empty)"], "{\"a\":1}"),
        "{\"a\":1,\"x\":[1]}\n{}\n{}\n"
    );
    assert_eq!(out(&["-c", ".[1:3] = [\"x\"], del(.[0, 2])"], "[1,2,3,4]"), "[1,\"x\",4]\n[2,4]\n");
    let (status, _, stderr) = jq(&[".[0]"], "{}");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <stdin>:0): Cannot index object with number\n"));
    let (status, _, stderr) = jq(&["keys"], "1");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <stdin>:0): number (1) has no keys\n"));
}

#[test]
fn strings_and_formats() {
    assert_eq!(out(&["-r", "\"\\(.a) and \\(.b / 2)\""], r#"{"a":"x","b":10}"#), "x and 5\n");
    assert_eq!(out(&["-r", "@csv"], r#"[1,"a,b","c\"d",null,true]"#), "1,\"a,b\",\"c\"\"d\",,true\n");
    assert_eq!(out(&["-r", "@tsv"], r#"[1,"a\tb","c\\d",null]"#), "1\ta\\tb\tc\\\\d\t\n");
    assert_eq!(out(&["-r", "@html"], r#""<a href='x'>&""#), "&lt;a href=&#39;x&#39;&gt;&amp;\n");
    assert_eq!(out(&["-r", "@uri"], r#""a b&é""#), "a%20b%26%C3%A9\n");
    assert_eq!(out(&["-r", "@sh"], r#"["it's", 1]"#), "'it'\\''s' 1\n");
    assert_eq!(out(&["-r", "@base64, (@base64 | @base64d)"], r#""hello""#), "aGVsbG8=\nhello\n");
    assert_eq!(out(&["-r", "@json \"v=\\(.)\""], "[1,\"a\"]"), "v=[1,\"a\"]\n");
    assert_eq!(
        out(&["-c", "[test(\"B\"; \"i\"), (sub(\"(?<x>a)\"; \"<\\(.x)>\")), gsub(\"a\"; \"o\")]"], r#""banana""#),
        "[true,\"b<a>nana\",\"bonono\"]\n"
    );
    assert_eq!(
        out(&["-c", "capture(\"(?<y>\\\\d+)-(?<m>\\\\d+)\")"], r#""2024-05""#),
        "{\"y\":\"2024\",\"m\":\"05\"}\n"
    );
    assert_eq!(out(&["-c", "[splits(\", *\")]"], r#""a, b,c""#), "[\"a\",\"b\",\"c\"]\n");
}

#[test]
fn numbers_print_like_jq() {
    assert_eq!(out(&["-c", "[.[] / 2]"], "[10, 3]"), "[5,1.5]\n");
    assert_eq!(
        out(&["-c", "[0.1 + 0.2, 1 / 3, 1e17 + 1, 1.5e16 + 0, 0.00001 + 0, 3.0 * 1]"], "null"),
        "[0.30000000000000004,0.3333333333333333,1e+17,15000000000000000,1e-05,3]\n"
    );
    // Literals keep their spelling, in decNumber's canonical form (jq 1.7).
    assert_eq!(
        out(&["-c", "."], "[1.0, 1.50, 1e2, 1.5e3, 100000000000000000001, -0]"),
        "[1.0,1.50,1E+2,1.5E+3,100000000000000000001,-0]\n"
    );
    assert_eq!(
        out(&["-c", "[nan, infinite, -infinite]"], "null"),
        "[null,1.7976931348623157e+308,-1.7976931348623157e+308]\n"
    );
    assert_eq!(
        out(&["-c", "[5.5 % 2, -10 % 3, (nan | isnan), (infinite | isinfinite)]"], "null"),
        "[1,-1,true,true]\n"
    );
    let (status, _, stderr) = jq(&[".a / 0"], "{\"a\":1}");
    assert_eq!(
        (status, stderr.as_str()),
        (5, "jq: error (at <stdin>:0): number (1) and number (0) cannot be divided because the divisor is zero\n")
    );
}

#[test]
fn dates_and_math() {
    assert_eq!(
        out(&["-c", "todate, (todate | fromdate), gmtime"], "1425599507"),
        "\"2015-03-05T23:51:47Z\"\n1425599507\n[2015,2,5,23,51,47,4,63]\n"
    );
    assert_eq!(out(&["-r", "strftime(\"%A, %B %d, %Y %j\")"], "1425599621"), "Thursday, March 05, 2015 064\n");
    assert_eq!(out(&["-c", "[pow(2; 10), sqrt, log10, floor]"], "100"), "[1024,10,2,100]\n");
}

#[test]
fn error_statuses() {
    let (status, stdout, stderr) = jq(&[".a["], "null");
    assert_eq!((status, stdout.as_str()), (3, ""));
    assert!(stderr.starts_with("jq: error: syntax error, "), "{stderr}");
    assert!(stderr.ends_with("at <top-level>, line 1:\n.a[\njq: 1 compile error\n"), "{stderr}");
    let (status, _, stderr) = jq(&["foo"], "null");
    assert_eq!(
        (status, stderr.as_str()),
        (3, "jq: error: foo/0 is not defined at <top-level>, line 1:\nfoo\njq: 1 compile error\n")
    );
    let (status, _, stderr) = jq(&["."], "{");
    assert_eq!((status, stderr.as_str()), (5, "jq: parse error: Unfinished JSON term at EOF at line 1, column 1\n"));
    let (status, stdout, stderr) = jq(&["."], "1 2 }");
    assert_eq!(
        (status, stdout.as_str(), stderr.as_str()),
        (5, "1\n2\n", "jq: parse error: Unmatched '}' at line 1, column 5\n")
    );
    let (status, _, stderr) = jq(&[".a"], "1\n");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <stdin>:1): Cannot index number with \"a\"\n"));
    let (status, _, stderr) = jq(&[".[]"], "1");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <stdin>:0): Cannot iterate over number (1)\n"));
    let (status, _, stderr) = jq(&["-n", "{a:\"aaaaaaaaaaaaaaaaaaaa\"} + 1"], "");
    assert_eq!(
        (status, stderr.as_str()),
        (5, "jq: error (at <unknown>): object ({\"a\":\"aaaaa...) and number (1) cannot be added\n")
    );
    let (status, _, stderr) = jq(&["-n", "error({a: 1})"], "");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <unknown>) (not a string): {\"a\":1}\n"));
    let (status, _, stderr) = jq(&["-n", "\"x\" | error"], "");
    assert_eq!((status, stderr.as_str()), (5, "jq: error (at <unknown>): x\n"));
    // An error ends the run for that input only.
    let (status, stdout, _) = jq(&[".a"], "{\"a\":1} 2 {\"a\":3}");
    assert_eq!((status, stdout.as_str()), (5, "1\n3\n"));
    assert_eq!(jq(&["-e", "."], "null").0, 1);
    assert_eq!(jq(&["-e", "."], "false").0, 1);
    assert_eq!(jq(&["-e", "empty"], "1").0, 4);
    assert_eq!(jq(&["-e", "."], "1").0, 0);
    assert_eq!(jq(&["-n", "halt_error"], "").0, 5);
    assert_eq!(jq(&["-n", "\"bye\\n\" | halt_error(1)"], ""), (1, String::new(), "bye\n".into()));
    assert_eq!(jq(&["--bogus"], "").0, 2);
    assert_eq!(jq(&["-n", "--argjson", "x", "{", "$x"], "").0, 2);
}

#[test]
fn deep_input_is_refused_not_overflowing() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let (status, _, stderr) = jq(&["."], &deep);
    assert_eq!(status, 5);
    assert!(stderr.contains("Exceeds depth limit for parsing"), "{stderr}");
    let (status, _, stderr) = jq(&["fromjson"], &format!("{:?}", deep));
    assert_eq!(status, 5);
    assert!(stderr.contains("Exceeds depth limit for parsing"), "{stderr}");
    // Nor can a filter build one (jaq would recurse on it when dropping it).
    for filter in [
        "reduce range(100000) as $i (0; [.]) | length",
        "reduce range(1e5) as $i (0; {a: .})",
        "reduce range(1e5) as $i (null; .[0] = .)",
    ] {
        let (status, stdout, stderr) = jq(&["-n", filter], "");
        assert_eq!((status, stdout.as_str()), (5, ""), "{filter}");
        assert_eq!(stderr, "jq: error (at <unknown>): Exceeds depth limit of 512 building a value\n");
    }
    assert_eq!(out(&["-nc", "reduce range(3) as $i (0; [.])"], ""), "[[[0]]]\n");
}

#[test]
fn user_functions() {
    assert_eq!(
        out(&["-c", "def f: .a; path(f), (f |= 2), del(f)"], "{\"a\":1,\"b\":2}"),
        "[\"a\"]\n{\"a\":2,\"b\":2}\n{\"b\":2}\n"
    );
    assert_eq!(
        out(&["-c", "def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; [range(6) | fac]"], "null"),
        "[1,1,2,6,24,120]\n"
    );
    assert_eq!(out(&["-c", "{def: 1} | .def, \"def x: 1\""], "null"), "1\n\"def x: 1\"\n");
    // Endless recursion is an error, not a stack overflow.
    for filter in ["def f: 1 + f; f", "def f: [f]; f", "def f($n): 1 + f($n + 1); f(0)"] {
        let (status, _, stderr) = jq(&["-n", filter], "");
        assert_eq!(status, 5, "{filter}");
        assert_eq!(stderr, "jq: error (at <unknown>): Exceeds the stack budget (recursion too deep)\n");
    }
}

/// Runs `jq` with a check that fails after `allowed` calls.
fn jq_with_check(args: &[&str], allowed: usize) -> Result<i32, LimitHit> {
    use crate::shell::command::{Output, Runner};
    struct NoRunner;
    impl Runner for NoRunner {
        fn run(&mut self, _: &[String], _: &[u8], _: &mut Output, _: &mut Output) -> Result<i32, LimitHit> {
            Ok(127)
        }
    }
    let storage = MemoryStorage::new(MemoryLimits::default());
    let calls = Cell::new(0);
    let check = || {
        calls.set(calls.get() + 1);
        if calls.get() > allowed {
            Err(LimitHit::WallTime)
        } else {
            Ok(())
        }
    };
    let (mut stdout, mut stderr) = (Output::new(1 << 20), Output::new(1 << 20));
    let mut runner = NoRunner;
    let mut ctx = Context {
        name: "jq",
        storage: &storage,
        cwd: "/",
        stdin: &crate::shell::command::Stdin::default(),
        stdout: &mut stdout,
        stderr: &mut stderr,
        var: &|_| None,
        runner: &mut runner,
        check: &check,
        max_memory: usize::MAX,
    };
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    jq_command(&mut ctx, &args)
}

#[test]
fn endless_generators_are_stopped() {
    for filter in [
        "[range(1e18)] | length",
        "last(range(1e18))",
        "[repeat(1)] | length",
        "[recurse(. + 1)] | length",
        "until(false; .)",
        "[limit(1e9; while(true; .))]",
    ] {
        assert_eq!(jq_with_check(&["-n", filter], 1000), Err(LimitHit::WallTime), "{filter}");
    }
    // Plenty of output is cut by the output cap.
    let storage = MemoryStorage::new(MemoryLimits::default());
    let _ = storage;
    assert_eq!(jq_with_check(&["-n", "1, 2"], 1000), Ok(0));
}
