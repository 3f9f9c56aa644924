//! `awk`: POSIX awk (with gawk's common extensions) over the storage.
//!
//! Usage: `awk [-F fs] [-v var=value]… [-f progfile | 'program'] [file | var=value]…`
//! (`--` ends the options). Behaviour follows gawk in the C locale; where
//! gawk and mawk differ, gawk's (`--posix`) choice wins. Deliberate
//! differences:
//! - `for (k in a)` visits keys in insertion order (gawk: unspecified).
//! - `print | "cmd"`, `"cmd" | getline` and `system(cmd)` run `cmd` in this
//!   shell (`sh -c cmd` in a copy of it with the exported variables, under
//!   the run's limits), never on the host. What is printed to a command is
//!   held (up to a quarter of the memory budget) and the command runs when
//!   closed (`close()` or at the end, the last opened first); `cmd |
//!   getline` runs the command to its end on the first read and holds its
//!   output (a quarter of the memory budget: a command that writes more is
//!   stopped there as at a closed pipe, and reading past what is held ends
//!   the run with the memory limit). The commands' stdin is empty, not
//!   awk's. `close()` returns the command's exit status.
//! - awk's stdout is buffered as a process's is and written out before a
//!   command starts, on `fflush()` and at the end (so what a command prints
//!   may come first, as in mawk); `/dev/stderr` is written at once.
//! - `rand()` is deterministic: the same sequence every run for a seed, and
//!   `srand()` without an argument seeds with 0 rather than the time.
//! - Files written with `>`/`>>` are buffered and written to the storage in
//!   chunks and when closed (`close()`, `fflush()`, or at exit).
//! - `ENVIRON` holds the shell variables the program names in
//!   `ENVIRON["NAME"]` and a few common ones (HOME, PATH, PWD, USER…).
//! - Unknown escapes in strings (`"\q"`) drop the backslash, except before
//!   regex metacharacters (`"\."` stays `\.`, a literal dot as a regex).
//! - User-function recursion is limited to 64 levels (fewer when the
//!   bodies nest deeply: evaluation depth is bounded too), an array to 2
//!   million elements, a field number to 1 million, a string to 64 MiB.
//! - Multi-character `RS` is a regex, as in gawk; `RT` is not set.

mod ere;
mod interp;
mod lexer;
mod parser;
mod value;

#[cfg(test)]
pub(super) use value::{sprintf, Value};

use crate::shell::command::{CommandFn, Context};
use crate::shell::LimitHit;

use interp::{marker_kind, Fatal, Interp};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("awk", awk), ("gawk", awk), ("mawk", awk), ("nawk", awk)];

const USAGE: &str = "usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]";

/// Shell variables always offered in `ENVIRON` when set.
const COMMON_ENV: &[&str] = &["HOME", "PATH", "PWD", "USER", "SHELL", "LANG", "LC_ALL", "TERM", "TMPDIR", "OLDPWD"];

fn awk(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut fs: Option<Vec<u8>> = None;
    let mut assigns: Vec<(String, Vec<u8>)> = Vec::new();
    let mut program_files: Vec<String> = Vec::new();
    let mut i = 0;
    // Options: -F fs, -v a=b, -f file; attached or separate values.
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        // The flag is `-` and one character, which may take several bytes.
        let (flag, attached) = arg.split_at(arg.char_indices().nth(2).map_or(arg.len(), |(at, _)| at));
        let value = |i: &mut usize| -> Option<String> {
            if !attached.is_empty() {
                return Some(attached.to_string());
            }
            *i += 1;
            args.get(*i).cloned()
        };
        match flag {
            "-F" => {
                let Some(v) = value(&mut i) else {
                    return usage(ctx, "option requires an argument -- F");
                };
                fs = Some(lexer::unescape(v.as_bytes()));
            }
            "-v" => {
                let Some(v) = value(&mut i) else {
                    return usage(ctx, "option requires an argument -- v");
                };
                match interp::split_assignment(v.as_bytes()) {
                    Some((name, val)) => assigns.push((name.to_string(), lexer::unescape(val))),
                    None => {
                        ctx.error(format!("improper assignment: -v {v}"))?;
                        return Ok(2);
                    }
                }
            }
            "-f" => {
                let Some(v) = value(&mut i) else {
                    return usage(ctx, "option requires an argument -- f");
                };
                program_files.push(v);
            }
            _ if arg == "--version" => {
                ctx.stdout.write_str("awk (libaikido virtual shell), POSIX awk with gawk extensions\n")?;
                return Ok(0);
            }
            _ => return usage(ctx, &format!("unknown option {arg}")),
        }
        i += 1;
    }
    let source: Vec<u8> = if program_files.is_empty() {
        let Some(text) = args.get(i) else {
            return usage(ctx, "no program given");
        };
        i += 1;
        text.as_bytes().to_vec()
    } else {
        let mut text = Vec::new();
        for f in &program_files {
            match ctx.read(f) {
                Ok(data) => {
                    text.extend_from_slice(&data);
                    text.push(b'\n');
                }
                Err(e) => {
                    let reason = crate::shell::command::error_reason(&e);
                    ctx.error(format!("can't open source file `{f}' for reading ({reason})"))?;
                    return Ok(2);
                }
            }
        }
        text
    };
    let program = match parser::parse(&source) {
        Ok(p) => p,
        Err(e) => {
            ctx.error(format!("line {}: {}", e.line, e.message))?;
            return Ok(2);
        }
    };
    let mut argv = vec![ctx.name.to_string()];
    argv.extend(args[i..].iter().cloned());
    let env = environment(ctx, &source);
    let mut interp = Interp::new(&program, ctx, &argv, env);
    let setup = (|| {
        if let Some(fs) = &fs {
            interp.assign_global("FS", fs)?;
        }
        for (name, value) in &assigns {
            interp.assign_global(name, value)?;
        }
        Ok::<(), Fatal>(())
    })();
    let result = setup.and_then(|()| interp.run());
    let code = interp.exit_code;
    drop(interp);
    match result {
        Ok(()) => Ok(code),
        Err(Fatal::Limit(hit)) => Err(hit),
        Err(f) if marker_kind(&f).is_some() => Ok(code),
        Err(Fatal::Error(message)) => {
            ctx.error(format!("fatal: {message}"))?;
            Ok(2)
        }
    }
}

fn usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.error(message)?;
    ctx.stderr.write_str(USAGE)?;
    ctx.stderr.write_str("\n")?;
    Ok(2)
}

/// ENVIRON's contents: the common variables, and those the program names
/// as `ENVIRON["NAME"]` (the shell cannot list its variables).
fn environment(ctx: &Context<'_>, source: &[u8]) -> Vec<(String, String)> {
    let mut names: Vec<String> = COMMON_ENV.iter().map(|s| s.to_string()).collect();
    let needle = b"ENVIRON[\"";
    let mut rest = source;
    while let Some(at) = memchr::memmem::find(rest, needle) {
        rest = &rest[at + needle.len()..];
        let end = rest.iter().position(|&b| !(b.is_ascii_alphanumeric() || b == b'_')).unwrap_or(rest.len());
        if end > 0 && rest.get(end) == Some(&b'"') {
            names.push(String::from_utf8_lossy(&rest[..end]).into_owned());
        }
    }
    names.sort();
    names.dedup();
    names.into_iter().filter_map(|n| (ctx.var)(&n).map(|v| (n, v))).collect()
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryLimits, MemoryStorage, Storage};

    fn awk(args: &[&str], stdin: &str) -> (i32, String, String) {
        let storage = MemoryStorage::new(MemoryLimits::default());
        run_for_test(&storage, "awk", args, stdin)
    }

    fn out(args: &[&str], stdin: &str) -> String {
        let (status, stdout, stderr) = awk(args, stdin);
        assert_eq!(status, 0, "stderr: {stderr}");
        stdout
    }

    /// Found by the shell fuzz target: a multi-byte character right after
    /// `-` was cut in half (a panic, caught by the shell, but a panic).
    #[test]
    fn an_option_with_a_multibyte_letter_is_refused() {
        let (status, _, stderr) = awk(&["-\u{2e2}F,", "{print}"], "");
        assert_eq!(status, 2, "{stderr}");
        assert!(stderr.contains("unknown option -\u{2e2}F,"), "{stderr}");
        let (status, stdout, _) = awk(&["-F\u{2e2}", "{print $2}"], "a\u{2e2}b\n");
        assert_eq!((status, stdout.as_str()), (0, "b\n"));
    }

    #[test]
    fn sums_and_fields() {
        assert_eq!(out(&["{s+=$3} END{print s}"], "a b 1\nc d 2.5\ne f x\n"), "3.5\n");
        assert_eq!(out(&["{print $2, $1}"], "a b\nc d\n"), "b a\nd c\n");
        assert_eq!(out(&["{print NR, NF, $NF}"], "a b c\n\n  x  \n"), "1 3 c\n2 0 \n3 1 x\n");
        assert_eq!(out(&["{print ($2 == 0), ($2 == \"\")}"], "a\n"), "0 1\n");
        assert_eq!(out(&["END{print NR}"], "1\n2\n3"), "3\n");
    }

    #[test]
    fn field_separators() {
        assert_eq!(out(&["-F:", "{print $2}"], "a:b:c\n"), "b\n");
        assert_eq!(out(&["-F", ",", "{print $3}"], "1,2,3\n"), "3\n");
        assert_eq!(out(&["-F\\t", "{print $2}"], "a b\tc d\n"), "c d\n");
        assert_eq!(out(&["-F", "[0-9]+", "{print $2}"], "a12b345c\n"), "b\n");
        assert_eq!(out(&["-F|", "{print $2}"], "a|b\n"), "b\n");
        assert_eq!(out(&["BEGIN{FS=\",\"} {print $2}"], "x,y\n"), "y\n");
        assert_eq!(out(&["-F,", "{print NF}"], ",a,,b,\n"), "5\n");
    }

    #[test]
    fn field_assignment_rebuilds_record() {
        assert_eq!(out(&["{$5=\"e\"; print; print NF}"], "a b c\n"), "a b c  e\n5\n");
        assert_eq!(out(&["{NF=2; print}"], "a b c\n"), "a b\n");
        assert_eq!(out(&["{$0=\"x y\"; print $2, NF}"], "a b c\n"), "y 2\n");
        assert_eq!(out(&["{$1=$1; print \"[\" $0 \"]\"}"], " a  b \n"), "[a b]\n");
        assert_eq!(out(&["BEGIN{OFS=\"-\"} {$1=$1} 1"], "a b c\n"), "a-b-c\n");
        assert_eq!(out(&["{$2=\"\"; print}"], "a b c\n"), "a  c\n");
    }

    #[test]
    fn patterns_and_ranges() {
        let input = "1\n2\nstart\n3\nend\n4\n";
        assert_eq!(out(&["/start/,/end/"], input), "start\n3\nend\n");
        assert_eq!(out(&["NR==2, NR==3 {print \"x\" $0}"], input), "x2\nxstart\n");
        assert_eq!(out(&["!/^[0-9]/"], input), "start\nend\n");
        assert_eq!(out(&["$1 > 2"], input), "start\n3\nend\n4\n");
        assert_eq!(out(&["NR%2"], "a\nb\nc\n"), "a\nc\n");
    }

    #[test]
    fn printf_formats() {
        assert_eq!(
            out(&["{printf \"%-5s|%5.2f|%03d|%x|%c|%e\\n\", $1, $2, $3, $3, 65, $2}"], "ab 3.14159 7\n"),
            "ab   | 3.14|007|7|A|3.141590e+00\n"
        );
        assert_eq!(
            out(&["BEGIN{printf \"%s %i %5.1e %G %%\\n\", \"x\", 3.9, 12345, 0.0001}"], ""),
            "x 3 1.2e+04 0.0001 %\n"
        );
        assert_eq!(out(&["BEGIN{x = sprintf(\"%5s|%-3d|\", \"ab\", 4); print x}"], ""), "   ab|4  |\n");
        let (status, _, stderr) = awk(&["BEGIN{printf \"%d %d\\n\", 1}"], "");
        assert_eq!(status, 2);
        assert!(stderr.contains("not enough arguments"), "{stderr}");
    }

    #[test]
    fn arrays_and_end() {
        let input = "a 1\nb 2\na 3\nc 4\nb 5\n";
        assert_eq!(out(&["{s[$1]+=$2} END{for (k in s) print k, s[k]}"], input), "a 4\nb 7\nc 4\n");
        assert_eq!(out(&["!seen[$1]++ {print $1}"], input), "a\nb\nc\n");
        assert_eq!(
            out(&["BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2]}; if ((1,2) in a) print \"yes\"}"], ""),
            "1 2\nyes\n"
        );
        assert_eq!(
            out(&["BEGIN{a[1];a[2];a[3]; delete a[2]; print length(a); print (2 in a), (3 in a); delete a; print length(a)}"], ""),
            "2\n0 1\n0\n"
        );
        assert_eq!(out(&["BEGIN{if (x in a) print 1; print length(a)}"], ""), "0\n");
    }

    #[test]
    fn functions() {
        assert_eq!(out(&["function f(n) { return n <= 1 ? 1 : n * f(n-1) } BEGIN{print f(10)}"], ""), "3628800\n");
        assert_eq!(out(&["function fill(arr, n,  i) { for (i=1;i<=n;i++) arr[i]=i*i } BEGIN{fill(sq, 3); print sq[1], sq[2], sq[3]; print i}"], ""), "1 4 9\n\n");
        assert_eq!(out(&["function g(x) { x = 5 } BEGIN{y = 1; g(y); print y}"], ""), "1\n");
        assert_eq!(
            out(&["function h(a) { a[\"k\"] = 1 } function w(b) { h(b) } BEGIN{w(z); print z[\"k\"]}"], ""),
            "1\n"
        );
        let (status, _, stderr) = awk(&["function r(n) { return r(n+1) } BEGIN{r(1)}"], "");
        assert_eq!(status, 2);
        assert!(stderr.contains("recursion"), "{stderr}");
        let (status, stdout, _) = awk(&["function e() { exit 3 } BEGIN{e(); print \"no\"} END{print \"end\"}"], "");
        assert_eq!((status, stdout.as_str()), (3, "end\n"));
    }

    #[test]
    fn string_builtins() {
        assert_eq!(
            out(&["BEGIN{s=\"hello world\"; n=sub(/o/,\"0\",s); print n, s; n=gsub(/o/,\"<&>\",s); print n, s}"], ""),
            "1 hell0 world\n1 hell0 w<o>rld\n"
        );
        assert_eq!(out(&["{gsub(/a/,\"\\\\&\"); print}"], "banana\n"), "b&n&n&\n");
        assert_eq!(
            out(&["BEGIN{s=\"abc\"; gsub(/x*/,\"-\",s); print s; t=\"abc\"; gsub(/b*/,\"-\",t); print t}"], ""),
            "-a-b-c-\n-a-c-\n"
        );
        assert_eq!(out(&["BEGIN{n=split(\"a:b:c\",p,\":\"); print n, p[1], p[3]; n=split(\"  x y  \", q); print n, q[1]; print split(\"\", r)}"], ""), "3 a c\n2 x\n0\n");
        assert_eq!(out(&["BEGIN{print split(\"a1b22c\", p, /[0-9]+/), p[2], p[3]}"], ""), "3 b c\n");
        assert_eq!(
            out(
                &["BEGIN{print match(\"foobar\", /o+/), RSTART, RLENGTH; print match(\"x\", /y/), RSTART, RLENGTH}"],
                ""
            ),
            "2 2 2\n0 0 -1\n"
        );
        assert_eq!(out(&["BEGIN{print substr(\"hello\",2,3), substr(\"hello\",3), substr(\"hello\",0,2), substr(\"hello\",-1), substr(\"hello\",9) \"|\"}"], ""), "ell llo h hello |\n");
        assert_eq!(out(&["BEGIN{print index(\"foobar\",\"bar\"), index(\"abc\",\"z\"), length(\"abc\"), length(12345), toupper(\"aB1\"), tolower(\"XyZ\")}"], ""), "4 0 3 5 AB1 xyz\n");
        assert_eq!(out(&["{print length, length()}"], "abcd\n"), "4 4\n");
        assert_eq!(out(&["BEGIN{print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), (atan2(0,-1) > 3.14), 2^10, 2**3, 7%3, -7%3}"], ""), "3 -3 4 1 0 1 1024 8 1 -1\n");
    }

    #[test]
    fn uninitialised_and_comparisons() {
        assert_eq!(out(&["BEGIN{print x+0, \"[\" x \"]\", length(x), (x == 0), (x == \"\")}"], ""), "0 [] 0 1 1\n");
        assert_eq!(out(&["{print ($1 < $2), ($1 == 10)}"], "9 10\n10.0 9\n"), "1 0\n0 1\n");
        assert_eq!(
            out(
                &["BEGIN{print (\"9\" < \"10\"), (9 < 10), (\"a\" < \"b\"), (\"abc\" ~ /b/), (\"abc\" !~ \"^b\")}"],
                ""
            ),
            "0 1 1 1 1\n"
        );
        assert_eq!(out(&["{print ($1 == \"1.0\"), ($1 == 1)}"], "1.0\n"), "1 1\n");
        assert_eq!(out(&["BEGIN{x = \"3.0\"; print (x == 3)}"], ""), "0\n");
        assert_eq!(out(&["BEGIN{a[9]; for (k in a) print (k < 10)}"], ""), "0\n");
        assert_eq!(
            out(&["BEGIN{print 1/3, 100000 * 100000, 0.1 + 0.2, 1e6, 123456789012}"], ""),
            "0.333333 10000000000 0.3 1000000 123456789012\n"
        );
        assert_eq!(out(&["BEGIN{OFMT=\"%.2f\"; x=3.14159; print x; print x \"\"}"], ""), "3.14\n3.14159\n");
    }

    #[test]
    fn control_flow() {
        assert_eq!(
            out(&["BEGIN{for(i=0;i<10;i++){if(i==2)continue; if(i==5)break; printf \"%d \", i}; print \"\"}"], ""),
            "0 1 3 4 \n"
        );
        assert_eq!(
            out(&["BEGIN{i=0; do { i++ } while (i < 5); print i; while (i > 0) i -= 2; print i}"], ""),
            "5\n-1\n"
        );
        assert_eq!(out(&["NR==2{next} {print} END{print \"done\"}"], "a\nb\nc\n"), "a\nc\ndone\n");
        let (status, stdout, _) = awk(&["{print; if (NR==2) exit 3} END{print \"end\"}"], "a\nb\nc\n");
        assert_eq!((status, stdout.as_str()), (3, "a\nb\nend\n"));
        assert_eq!(out(&["BEGIN { x = 1\n if (x)\n print \"one\"\n else\n print \"other\"\n}"], ""), "one\n");
        assert_eq!(
            out(
                &["BEGIN{x = 5; x += 2; x *= 3; x -= 1; x /= 4; x %= 3; x ^= 2; print x; y = x++ + ++x; print x, y}"],
                ""
            ),
            "4\n6 10\n"
        );
    }

    #[test]
    fn variables_and_operands() {
        let storage = MemoryStorage::new(MemoryLimits::default());
        storage.write("/f1", b"a\nb\n").unwrap();
        storage.write("/f2", b"c\n").unwrap();
        storage.write("/prog.awk", b"{ print FILENAME, FNR, NR, x }\n").unwrap();
        let (status, stdout, _) =
            run_for_test(&storage, "awk", &["-v", "x=1", "-f", "prog.awk", "f1", "x=2", "f2"], "");
        assert_eq!(status, 0);
        assert_eq!(stdout, "f1 1 1 1\nf1 2 2 1\nf2 1 3 2\n");
        let (status, stdout, stderr) = run_for_test(&storage, "awk", &["{print}", "missing", "f2"], "");
        assert_eq!((status, stdout.as_str()), (2, "c\n"));
        assert!(stderr.contains("missing"), "{stderr}");
        assert_eq!(out(&["-v", "s=a\\tb", "BEGIN{print s; print ARGC, ARGV[1]}", "x"], ""), "a\tb\n2 x\n");
    }

    #[test]
    fn record_separators() {
        assert_eq!(
            out(&["BEGIN{RS=\"\"} {print NR\": \"$1\"/\"$NF, NF}"], "\n\na b\nc\n\n\n\nd e\n\n"),
            "1: a/c 3\n2: d/e 2\n"
        );
        assert_eq!(out(&["BEGIN{RS=\";\"} {print $1}"], "a;b;c"), "a\nb\nc\n");
        assert_eq!(out(&["BEGIN{ORS=\"|\"} {print}"], "a\nb\n"), "a|b|");
    }

    #[test]
    fn getline_forms() {
        let storage = MemoryStorage::new(MemoryLimits::default());
        storage.write("/data", b"x1\nx2\n").unwrap();
        let (_, stdout, _) = run_for_test(
            &storage,
            "awk",
            &["BEGIN{while ((getline line < \"data\") > 0) n++; print n, line; print (getline z < \"nope\")}"],
            "",
        );
        assert_eq!(stdout, "2 x2\n-1\n");
        assert_eq!(
            out(&["NR==1{getline; print \"got\", $0} NR==3{getline v; print \"v\", v, NR}"], "a\nb\nc\nd\n"),
            "got b\nv d 4\n"
        );
    }

    #[test]
    fn output_redirection() {
        let storage = MemoryStorage::new(MemoryLimits::default());
        storage.write("/out.txt", b"old\n").unwrap();
        let (status, stdout, _) = run_for_test(
            &storage,
            "awk",
            &["{print $1 > \"out.txt\"; print $2 >> \"app.txt\"} END{close(\"out.txt\"); print \"ok\"}"],
            "a b\nc d\n",
        );
        assert_eq!((status, stdout.as_str()), (0, "ok\n"));
        assert_eq!(storage.read("/out.txt").unwrap(), b"a\nc\n");
        assert_eq!(storage.read("/app.txt").unwrap(), b"b\nd\n");
        // The command runs through the runner at the end (here without `sh`).
        let (status, stdout, stderr) = awk(&["BEGIN{print \"x\" | \"cat\"; print \"y\"}"], "");
        assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "y\n", "sh: command not found\n"));
    }

    #[test]
    fn errors() {
        let (status, _, stderr) = awk(&["BEGIN{print 1/0}"], "");
        assert_eq!(status, 2);
        assert!(stderr.contains("division by zero"), "{stderr}");
        let (status, _, stderr) = awk(&["BEGIN{print (}"], "");
        assert_eq!(status, 2);
        assert!(stderr.starts_with("awk: line 1: syntax error"), "{stderr}");
        let (status, _, stderr) = awk(&["BEGIN {\n x = 1\n y = = 2\n}"], "");
        assert_eq!(status, 2);
        assert!(stderr.starts_with("awk: line 3:"), "{stderr}");
        assert_eq!(awk(&[], "").0, 2);
        // A runner without a shell has no `sh`: status 127, as not found.
        assert_eq!(awk(&["BEGIN{exit system(\"ls\")}"], "").0, 127);
    }

    #[test]
    fn deep_programs_fail_cleanly() {
        let recursive = |body: String| format!("function f(n) {{ if (n <= 0) return 0; {body} }} BEGIN{{print f(63)}}");
        for prog in [
            recursive(format!("return f(n-1) {}", "+1".repeat(400))),
            recursive(format!("return {} f(n-1) {}", "(".repeat(45), ")".repeat(45))),
            recursive(format!("return f(n-1) {}", " \"x\"".repeat(400))),
            recursive(format!("return {} f(n-1) {}", "substr(".repeat(45), ", 1)".repeat(45))),
            recursive(format!("{} return f(n-1)", "if (1) ".repeat(140))),
            format!("BEGIN{{x={}1{}}}", "(".repeat(5000), ")".repeat(5000)),
            format!("BEGIN{{x=1{}; print x}}", "+1".repeat(5000)),
        ] {
            assert_eq!(awk(&[&prog], "").0, 2, "{}", &prog[..60]);
        }
        assert_eq!(
            out(&["function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN{print fib(20)}"], ""),
            "6765\n"
        );
        assert_eq!(out(&["function d(n) { return n == 0 ? 0 : 1 + d(n-1) } BEGIN{print d(60)}"], ""), "60\n");
    }

    #[test]
    fn infinite_loop_stops_on_check() {
        use crate::shell::command::{Context, Output, Runner};
        use crate::shell::LimitHit;
        struct NoRunner;
        impl Runner for NoRunner {
            fn run(&mut self, _: &[String], _: &[u8], _: &mut Output, _: &mut Output) -> Result<i32, LimitHit> {
                Ok(127)
            }
        }
        let storage = MemoryStorage::new(MemoryLimits::default());
        let calls = std::cell::Cell::new(0u32);
        let check = || {
            calls.set(calls.get() + 1);
            if calls.get() > 10 {
                Err(LimitHit::WallTime)
            } else {
                Ok(())
            }
        };
        let mut stdout = Output::new(1 << 20);
        let mut stderr = Output::new(1 << 20);
        let mut runner = NoRunner;
        let mut ctx = Context {
            name: "awk",
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
        let result = super::awk(&mut ctx, &["BEGIN{while(1) x++}".to_string()]);
        assert_eq!(result, Err(LimitHit::WallTime));
    }
}
