//! Shell patterns and the glob options (issue 17): `extglob` (parsed from
//! the line after `shopt -s extglob`, as bash does, and always in `[[ ]]`),
//! `globstar`, `failglob`, `nocaseglob`, `nocasematch`, `dotglob`,
//! `nullglob`, `GLOBIGNORE`. Expected outputs were recorded with
//! `env -i LC_ALL=C bash -c` (GNU bash 5.2.15) over the same files as
//! [`seeded`]; the corpus (`tests/shell_corpus/scripts/78*`) has more.
//! The last tests are attacks: hostile extended patterns end quickly or
//! with the named time limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use aikido::shell::{LimitHit, Limits, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};

/// `a.c a.h b.h .d.h sub/x.h sub/z.c sub/deep/y.h`.
fn seeded() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/sub/deep", true).unwrap();
    for file in ["/a.c", "/a.h", "/b.h", "/.d.h", "/sub/x.h", "/sub/z.c", "/sub/deep/y.h"] {
        storage.write(file, b"x\n").unwrap();
    }
    storage
}

fn options() -> ShellOptions {
    ShellOptions { env: vec![("HOME".to_string(), "/".to_string())], ..ShellOptions::default() }
}

/// Runs a script in a fresh shell over the seed: (stdout, stderr, status).
fn run(script: &str) -> (String, String, i32) {
    let mut shell = Shell::new(seeded(), options());
    let result = shell.run(script, None);
    (
        String::from_utf8_lossy(&result.stdout).into_owned(),
        String::from_utf8_lossy(&result.stderr).into_owned(),
        result.exit_code,
    )
}

fn stdout(script: &str) -> String {
    run(script).0
}

#[test]
fn extglob_is_read_from_the_line_after_shopt() {
    let (out, err, status) = run("echo start\nshopt -s extglob; echo @(a|b).h\necho never");
    assert_eq!((out.as_str(), status), ("start\n", 2));
    assert!(err.contains("line 2: syntax error near unexpected token"), "{err}");
    assert_eq!(stdout("shopt -s extglob\necho @(a|b).h\necho !(*.h)"), "a.h b.h\na.c sub\n");
    // Line numbers stay the script's after the re-parse.
    assert_eq!(stdout("echo $LINENO\nshopt -s extglob\necho @(a).h $LINENO\n\necho $LINENO"), "1\na.h 3\n5\n");
    let (out, _, status) = run("shopt -s extglob\necho @(a).h\nif then\n");
    assert_eq!((out.as_str(), status), ("a.h\n", 2));
    // eval reads its text line by line too.
    assert_eq!(stdout("eval 'shopt -s extglob\necho @(a).h'"), "a.h\n");
    // A session keeps the option for its next run.
    let mut shell = Shell::new(seeded(), options());
    shell.run("shopt -s extglob", None);
    let result = shell.run("echo +(a).[ch]", None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "a.c a.h\n");
}

#[test]
fn extglob_pathname_expansion_and_dotfiles() {
    let script = "shopt -s extglob
echo 1 !(*.h)
echo 2 .!(x)
echo 3 @(.d*|a*)
echo 4 @(.*)
echo 5 !(a*)
echo 6 *(.)*
echo 7 ?(.)d*
echo 8 !(*.h|sub)
echo 9 +([a-c]).[ch]
echo 10 @(a|b)*(.h)
echo 11 !(a).h
echo 12 !(x).d.h
echo 13 @(*).h
echo 14 @(sub/x.h|a.h)
echo 15 sub/!(*.c)
echo 16 @(a\\|b).h
echo 17 !(*)
echo 18 !(!(a.h))
x='@(a|b).h'; echo 19 $x
shopt -s dotglob
echo 20 !(*.h)
";
    let expected = "1 a.c sub\n2 .d.h\n3 .d.h a.c a.h\n4 .d.h\n5 b.h sub\n6 .d.h a.c a.h b.h sub\n7 .d.h\n8 a.c\n\
9 a.c a.h b.h\n10 a.h b.h\n11 b.h\n12 !(x).d.h\n13 a.h b.h\n14 a.h\n15 sub/deep sub/x.h\n16 @(a|b).h\n17 !(*)\n\
18 a.h\n19 a.h b.h\n20 a.c sub\n";
    assert_eq!(stdout(script), expected);
}

#[test]
fn extended_patterns_in_dbracket_without_extglob() {
    let script = r#"[[ ab == @(a|b)b ]] && echo yes
p="@(a|b)"; [[ a == $p ]] && echo dyn
[[ a != @(b) ]] && echo ne
[[ x = !(y) ]] && echo bang
x=aaa; [[ $x == *(a|aa) ]] && echo star
[[ "@(a)" == "@(a)" ]] && echo q
x=aab; echo ${x#$p}
case a in a) echo c;; esac"#;
    assert_eq!(stdout(script), "yes\ndyn\nne\nbang\nstar\nq\naab\nc\n");
}

#[test]
fn the_match_follows_extglob_when_it_runs() {
    let script = "shopt -s extglob
f() { case $1 in @(a|b)) echo m;; *) echo n;; esac; }
f a; shopt -u extglob; f a; x=aab; echo ${x#@(a)}";
    assert_eq!(stdout(script), "m\nn\naab\n");
}

#[test]
fn extglob_in_parameter_expansion() {
    let script = "shopt -s extglob
v=aaabbbccc
echo ${v#+(a)} ${v##*(a|b)} ${v%+(c)} ${v%%@(b|c)*}
echo ${v/+(b)/-} ${v//@(a|c)/.} ${v//!(b)/_}
n=000120; echo ${n##+(0)}";
    assert_eq!(stdout(script), "aabbbccc ccc aaabbbcc aaa\naaa-ccc ...bbb... _\n120\n");
}

#[test]
fn globstar() {
    let script = "shopt -s globstar
echo 1 **/*.h
echo 2 **/
echo 3 sub/**/y.h
echo 4 **
echo 5 sub/**
echo 6 a**
echo 7 **/deep
echo 8 **.h
echo 9 sub/**/
echo 10 x**/y
shopt -s dotglob; echo 11 **/*.h";
    let expected = "1 a.h b.h sub/deep/y.h sub/x.h\n2 sub/ sub/deep/\n3 sub/deep/y.h\n\
4 a.c a.h b.h sub sub/deep sub/deep/y.h sub/x.h sub/z.c\n5 sub/ sub/deep sub/deep/y.h sub/x.h sub/z.c\n\
6 a.c a.h\n7 sub/deep\n8 a.h b.h\n9 sub/ sub/deep/\n10 x**/y\n11 .d.h a.h b.h sub/deep/y.h sub/x.h\n";
    assert_eq!(stdout(script), expected);
    // Without the option `**` is `*`.
    assert_eq!(stdout("echo **/*.h"), "sub/x.h\n");
}

#[test]
fn failglob_abandons_the_line() {
    let script = "shopt -s failglob
echo 1 *.zz; echo same-line
echo \"next $?\"
x=$(echo *.qq; echo in); echo \"sub $? [$x]\"
echo *.zz | cat; echo \"pipe ${PIPESTATUS[*]}\"
f() { echo *.zz; echo in-f; }; f; echo after-f
echo \"st $?\"
shopt -s nullglob; echo fn *.zz";
    let (out, err, status) = run(script);
    assert_eq!(out, "next 1\nsub 1 []\npipe 1 0\nst 1\n");
    assert_eq!(status, 1);
    assert!(err.contains("no match: *.zz") && err.contains("no match: *.qq"), "{err}");
}

#[test]
fn nocaseglob_and_nocasematch() {
    let storage = seeded();
    storage.write("/A.H", b"").unwrap();
    storage.write("/Bb.c", b"").unwrap();
    let mut shell = Shell::new(storage, options());
    let script = "shopt -s nocaseglob
echo 1 a.*
echo 2 *.h
echo 3 [a]*
echo 4 [[:lower:]].h
echo 5 sub/X.*
echo 7 [A-Z]*.c
shopt -u nocaseglob; shopt -s nocasematch
case ABC in abc) echo 9 case;; esac
[[ ABC == a* ]] && echo 10 dbl
[[ ABC =~ ^ab ]] && echo 11 re
[[ ABC != abc ]] || echo 12 ne
echo 13 a.*
x=ABCabc; echo 14 ${x%c*} ${x##a*} ${x//b/-} ${x/#a/-} ${x/%C/-}
case b in [[:upper:]]) echo 16 upper;; esac
[ ABC = abc ] && echo 18 single";
    let result = shell.run(script, None);
    let expected = "1 A.H a.c a.h\n2 A.H a.h b.h\n3 A.H a.c a.h\n4 a.h b.h\n5 sub/x.h\n7 Bb.c a.c\n9 case\n10 dbl\n\
11 re\n12 ne\n13 a.c a.h\n14 ABCab ABCabc A-Ca-c -BCabc ABCab-\n";
    assert_eq!(String::from_utf8_lossy(&result.stdout), expected);
}

#[test]
fn globignore_and_dotglob() {
    let script = "GLOBIGNORE='*.c'; echo 1 *; echo 1b *.c
GLOBIGNORE='a*:s*'; echo 2 * sub/*
unset GLOBIGNORE; echo 4 *
shopt -s dotglob; echo 5 * .*";
    let expected = "1 .d.h a.h b.h sub\n1b *.c\n2 .d.h b.h sub/*\n4 a.c a.h b.h sub\n5 .d.h a.c a.h b.h sub .d.h\n";
    assert_eq!(stdout(script), expected);
}

#[test]
fn shopt_prints_and_refuses() {
    let (out, err, status) = run("shopt extglob; shopt -s extglob globstar; shopt -p extglob dotglob; shopt -s nosuch");
    assert_eq!(out, "extglob        \toff\nshopt -s extglob\nshopt -u dotglob\n");
    assert!(err.contains("shopt: nosuch: invalid shell option name"), "{err}");
    assert_eq!(status, 1);
}

// ----- attacks: hostile extended patterns -----

/// A hang guard, far above what any of these takes when bounded.
const HANG: Duration = Duration::from_secs(30);

/// Runs `script` with a 2 s time limit: it must finish with `answer` or
/// stop with the named time limit, and well inside the hang guard.
fn bounded(script: &str, answer: &str) {
    let limits = Limits { max_duration: Duration::from_secs(2), ..Limits::default() };
    let mut shell = Shell::new(seeded(), ShellOptions { limits, ..options() });
    let started = Instant::now();
    let result = shell.run(script, None);
    let took = started.elapsed();
    assert!(took < HANG, "took {took:?}");
    match result.limit {
        None => assert_eq!(String::from_utf8_lossy(&result.stdout), answer, "{script}"),
        Some(hit) => {
            assert_eq!(hit, LimitHit::WallTime, "{script}");
            assert!(took < Duration::from_secs(10), "the limit came late: {took:?}");
        }
    }
}

#[test]
fn hostile_extended_patterns_end() {
    let a = "a".repeat(20_000);
    // Nested repetitions: exponential for a backtracking matcher.
    bounded(&format!("x={a}; [[ $x == +(+(a))b ]] && echo y || echo n"), "n\n");
    bounded(&format!("x={a}; [[ $x == {}b ]] && echo y || echo n", "*(a|aa)".repeat(30)), "n\n");
    bounded(
        &format!("shopt -s extglob\nx={a}; case $x in {}b) echo y;; *) echo n;; esac", "+(a|aa)".repeat(20)),
        "n\n",
    );
    // Negations nested in repetitions over every suffix: polynomial but
    // long; the clock stops them.
    bounded(&format!("shopt -s extglob\nx={a}; y=${{x//*(!(*(!(b))))b/-}}; echo ${{#y}}"), "20000\n");
    bounded(&format!("shopt -s extglob\nx={a}; y=${{x##*(!(a)|a)b}}; echo ${{#y}}"), "20000\n");
    // Deep nesting of groups is read as text past a bound, not recursed.
    // (bash would recurse 5000 levels and answer y.)
    bounded("o=; c=; for ((i = 0; i < 5000; i++)); do o=\"$o@(\"; c=\"$c)\"; done; [[ a == $o\"a\"$c ]] && echo y || echo n", "n\n");
}
