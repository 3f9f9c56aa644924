//! sed against GNU sed 4.9's recorded output.

use crate::shell::command::run_for_test;
use crate::storage::{MemoryStorage, Storage};

/// The files of the directory the expectations were recorded in.
fn storage() -> MemoryStorage {
    let s = MemoryStorage::default();
    for (path, data) in [
        ("/f1", &b"1\n2\n"[..]),
        ("/f2", b"3\n4\n"),
        ("/l", b"a\nb\nc\nd\ne\nf\ng\nh\n"),
        ("/t", b"hello world\nfoo bar\nHello again\n"),
        ("/script.sed", b"s/o/0/g\n# comment\n2d\n"),
    ] {
        s.write(path, data).unwrap();
    }
    s
}

thread_local! {
    static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn check(s: &MemoryStorage, args: &[&str], stdin: &str, status: i32, stdout: &str, stderr: &str) {
    let got = run_for_test(s, "sed", args, stdin);
    let want = (status, stdout.to_string(), stderr.to_string());
    if got != want {
        FAILURES.with(|failures| failures.borrow_mut().push(format!("sed {args:?}\n got {got:?}\nwant {want:?}")));
    }
}

fn assert_no_failures() {
    let failures = FAILURES.with(|failures| failures.take());
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// Every expectation below is what GNU sed 4.9 printed (LC_ALL=C) in a
/// directory holding the same files.
#[test]
fn behaves_like_gnu_sed() {
    let s = storage();
    check(&s, &["p", "f1"], "", 0, "1\n1\n2\n2\n", "");
    check(&s, &["-n", "p", "f1", "f2"], "", 0, "1\n2\n3\n4\n", "");
    check(&s, &["-n", "$p", "f1", "f2"], "", 0, "4\n", "");
    check(&s, &["-s", "-n", "$=", "f1", "f2"], "", 0, "2\n2\n", "");
    check(&s, &["-s", "1d", "f1", "f2"], "", 0, "2\n4\n", "");
    check(&s, &["s/o/0/", "t"], "", 0, "hell0 world\nf0o bar\nHell0 again\n", "");
    check(&s, &["s/o/0/g", "t"], "", 0, "hell0 w0rld\nf00 bar\nHell0 again\n", "");
    check(&s, &["s/o/0/2", "t"], "", 0, "hello w0rld\nfo0 bar\nHello again\n", "");
    check(&s, &["s/o/0/2g", "t"], "", 0, "hello w0rld\nfo0 bar\nHello again\n", "");
    check(&s, &["-n", "s/hello/X/Ip", "t"], "", 0, "X world\nX again\n", "");
    check(&s, &["s|o|/|g", "t"], "", 0, "hell/ w/rld\nf// bar\nHell/ again\n", "");
    check(&s, &["s,o\\,,X,", "t"], "", 0, "hello world\nfoo bar\nHello again\n", "");
    check(&s, &["s/\\(l\\+\\)o/[\\1]\\U&x\\E!/", "t"], "", 0, "he[ll]LLOX! world\nfoo bar\nHe[ll]LLOX! again\n", "");
    check(&s, &["-E", "s/(\\w+) (\\w+)/\\u\\2 \\L\\1/", "t"], "", 0, "World hello\nBar foo\nAgain hello\n", "");
    check(&s, &["-r", "s/(o+)|x/<\\1>/g", "t"], "", 0, "hell<o> w<o>rld\nf<oo> bar\nHell<o> again\n", "");
    check(&s, &["s/o/\\n/", "t"], "", 0, "hell\n world\nf\no bar\nHell\n again\n", "");
    check(&s, &["s/$/ end/;s/^/> /", "t"], "", 0, "> hello world end\n> foo bar end\n> Hello again end\n", "");
    check(&s, &["s/x*/-/g"], "abc\n", 0, "-a-b-c-\n", "");
    check(&s, &["s/b*/-/g"], "abc\n", 0, "-a-c-\n", "");
    check(&s, &["s/[[:space:]]/_/g;s/[^a-z_]/#/g", "t"], "", 0, "hello_world\nfoo_bar\n#ello_again\n", "");
    check(&s, &["s/a/b"], "a\n", 1, "", "sed: -e expression #1, char 5: unterminated `s' command\n");
    check(
        &s,
        &["s/a/\\2/"],
        "a\n",
        1,
        "",
        "sed: -e expression #1, char 7: invalid reference \\2 on `s' command's RHS\n",
    );
    check(&s, &["k"], "a\n", 1, "", "sed: -e expression #1, char 1: unknown command: `k'\n");
    check(&s, &["-e", "p", "-e", "s/a/"], "a\n", 1, "", "sed: -e expression #2, char 4: unterminated `s' command\n");
    check(&s, &["pq"], "a\n", 1, "", "sed: -e expression #1, char 2: extra characters after command\n");
    check(&s, &["p", "nofile", "f1"], "", 2, "1\n1\n2\n2\n", "sed: can't read nofile: No such file or directory\n");
    check(&s, &["2q", "l"], "", 0, "a\nb\n", "");
    check(&s, &["2Q", "l"], "", 0, "a\n", "");
    check(&s, &["q5"], "a\nb\n", 5, "a\n", "");
    check(&s, &["3,5d", "l"], "", 0, "a\nb\nf\ng\nh\n", "");
    check(&s, &["3,5!d", "l"], "", 0, "c\nd\ne\n", "");
    check(&s, &["-n", "/b/,/d/p", "l"], "", 0, "b\nc\nd\n", "");
    check(&s, &["-n", "/c/,+2p", "l"], "", 0, "c\nd\ne\n", "");
    check(&s, &["-n", "2,~4p", "l"], "", 0, "b\nc\nd\n", "");
    check(&s, &["-n", "0,/a/p", "l"], "", 0, "a\n", "");
    check(&s, &["-n", "1,/a/p", "l"], "", 0, "a\nb\nc\nd\ne\nf\ng\nh\n", "");
    check(&s, &["-n", "5,2p", "l"], "", 0, "e\n", "");
    check(&s, &["-n", "2~3p", "l"], "", 0, "b\ne\nh\n", "");
    check(&s, &["-n", "0~4p", "l"], "", 0, "d\nh\n", "");
    check(&s, &["-n", "$!{$!p}", "f1"], "", 0, "1\n", "");
    check(&s, &["-n", "\\%c%,\\,e,p", "l"], "", 0, "c\nd\ne\n", "");
    check(&s, &["-n", "/A/Ip", "l"], "", 0, "a\n", "");
    check(&s, &["2c\\\nchanged", "l"], "", 0, "a\nchanged\nc\nd\ne\nf\ng\nh\n", "");
    check(&s, &["2,4c X", "l"], "", 0, "a\nX\ne\nf\ng\nh\n", "");
    check(&s, &["2!c X", "f1"], "", 0, "X\n2\n", "");
    check(&s, &["1i\\  lead", "f1"], "", 0, "  lead\n1\n2\n", "");
    check(&s, &["1a\\\n  lead2", "f1"], "", 0, "1\n  lead2\n2\n", "");
    check(&s, &["a hello", "f1"], "", 0, "1\nhello\n2\nhello\n", "");
    check(&s, &["$a\\\nend\\\nmore", "f1"], "", 0, "1\n2\nend\nmore\n", "");
    check(&s, &["i\\\nbefore", "f1"], "", 0, "before\n1\nbefore\n2\n", "");
    check(&s, &["=", "f1"], "", 0, "1\n1\n2\n2\n", "");
    check(&s, &["-n", "/2/=", "f1"], "", 0, "2\n", "");
    check(&s, &["-n", "l"], "a\tb\\c\u{1}\n", 0, "a\\tb\\\\c\\001$\n", "");
    check(&s, &["y/abc/xyz/"], "aabbcc\n", 0, "xxyyzz\n", "");
    check(&s, &["y/abc/\\n\\\\x/"], "abc\n", 0, "\n\\x\n", "");
    check(
        &s,
        &["y/ab/x/"],
        "abc\n",
        1,
        "",
        "sed: -e expression #1, char 7: strings for `y' command are different lengths\n",
    );
    check(&s, &["N;N;D", "l"], "", 0, "d\ne\nf\ng\nh\n", "");
    check(&s, &["$!N;P;D", "l"], "", 0, "a\nb\nc\nd\ne\nf\ng\nh\n", "");
    check(&s, &["-n", "h;n;G;p", "l"], "", 0, "b\na\nd\nc\nf\ne\nh\ng\n", "");
    check(&s, &["N;s/\\n/-/"], "1\n2\n3\n", 0, "1-2\n3\n", "");
    check(&s, &["G"], "a\nb\n", 0, "a\n\nb\n\n", "");
    check(&s, &["x;$!d;x;G"], "a\nb\nc\n", 0, "c\nb\n", "");
    check(&s, &["-n", "H;${x;s/\\n/,/g;p}"], "a\nb\nc\n", 0, ",a,b,c\n", "");
    check(&s, &["1!G;h;$!d"], "a\nb\nc\n", 0, "c\nb\na\n", "");
    check(&s, &[":a;N;$!ba;s/\\n/ /g"], "a\nb\nc\n", 0, "a b c\n", "");
    check(&s, &[":a;s/^.\\{1,4\\}$/ &/;ta"], "ab\nabcdef\n", 0, "   ab\nabcdef\n", "");
    check(&s, &["s/a/A/;T;s/$/!/"], "a\nb\n", 0, "A!\nb\n", "");
    check(&s, &["s/a/A/;tx;s/$/?/;:x"], "a\nb\n", 0, "A\nb?\n", "");
    check(&s, &["-n", "/b/{p;p}"], "a\nb\n", 0, "b\nb\n", "");
    check(&s, &["/a/b end;s/$/-/;:end"], "a\nb\n", 0, "a\nb-\n", "");
    check(&s, &["/a/{s/a/x/;b};s/$/-/"], "a\nb\n", 0, "x\nb-\n", "");
    check(&s, &["z;s/^$/empty/"], "a\n", 0, "empty\n", "");
    check(&s, &["p"], "a", 0, "a\na", "");
    check(&s, &["$d"], "a\nb", 0, "a\n", "");
    check(&s, &["-n", "/x/p"], "", 0, "", "");
    check(&s, &["-f", "script.sed", "t"], "", 0, "hell0 w0rld\nHell0 again\n", "");
    check(&s, &["-f", "nope.sed", "t"], "", 4, "", "sed: couldn't open file nope.sed: No such file or directory\n");
    check(&s, &["--expression=s/o/0/", "--quiet", "-e", "p", "t"], "", 0, "hell0 world\nf0o bar\nHell0 again\n", "");
    check(&s, &["-n", "-e", "2{", "-e", "p", "-e", "}", "t"], "", 0, "foo bar\n", "");
    check(&s, &["{p"], "a\n", 1, "", "sed: -e expression #1, char 0: unmatched `{'\n");
    check(&s, &["p}"], "a\n", 1, "", "sed: -e expression #1, char 2: unexpected `}'\n");
    check(&s, &["bnowhere"], "a\n", 4, "", "sed: can't find label for jump to `nowhere'\n");
    check(&s, &["0p"], "a\n", 1, "", "sed: -e expression #1, char 2: invalid usage of line address 0\n");
    check(&s, &["s/\\./!/g;s/[.]/?/"], "a.b.c\n", 0, "a!b!c\n", "");
    check(&s, &["s/a\\|b/X/g"], "abc\n", 0, "XXc\n", "");
    check(&s, &["-E", "s/a|b/X/g"], "abc\n", 0, "XXc\n", "");
    check(&s, &["s/a|b/X/g"], "a|b\n", 0, "X\n", "");
    check(&s, &["-E", "s/a{2}/X/"], "aaa\n", 0, "Xa\n", "");
    check(&s, &["s/a\\{2\\}/X/"], "aaa\n", 0, "Xa\n", "");
    check(&s, &["s/&/and/;s/x/[&]/"], "&x\n", 0, "and[x]\n", "");
    check(&s, &["s/x/a\\&b\\\\c/"], "x\n", 0, "a&b\\c\n", "");
    check(&s, &["s/x/a\\\nb/"], "x\n", 0, "a\nb\n", "");
    check(&s, &["-n", "/[0-9]\\+/p"], "a1\nb\n22\n", 0, "a1\n22\n", "");
    check(&s, &["s/.*/\"&\"/"], "it's\n", 0, "\"it's\"\n", "");
    check(&s, &["1d;$d"], "1\n2\n3\n", 0, "2\n", "");
    check(&s, &["-n", "2{p;q}"], "1\n2\n3\n", 0, "2\n", "");
    check(&s, &["$!s/$/,/"], "1\n2\n3\n", 0, "1,\n2,\n3\n", "");
    check(&s, &["F"], "a\n", 0, "-\na\n", "");
    check(&s, &["s/^[ \\t]*//;s/[ \\t]*$//"], "  a b  \n", 0, "a b\n", "");
    check(&s, &["-E", "s/^([^=]+)=(.*)$/\\2=\\1/"], "k=v\n", 0, "v=k\n", "");
    check(&s, &["s/\\<./\\u&/g"], "hello big world\n", 0, "Hello Big World\n", "");
    check(&s, &["s/\\bw/W/g"], "war and wow\n", 0, "War and Wow\n", "");
    check(&s, &[], "", 1, "", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n");
    check(&s, &["-x", "p"], "", 1, "", "sed: invalid option -- 'x'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n");
    assert_no_failures();
}

#[test]
fn in_place_edits_each_file() {
    let s = storage();
    let (status, out, err) = run_for_test(&s, "sed", &["-i", "s/^/x/;1d", "f1", "f2"], "");
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(s.read("/f1").unwrap(), b"x2\n");
    assert_eq!(s.read("/f2").unwrap(), b"x4\n");
    let (status, _, _) = run_for_test(&s, "sed", &["-i.bak", "s/x/y/", "f1"], "");
    assert_eq!(status, 0);
    assert_eq!(s.read("/f1").unwrap(), b"y2\n");
    assert_eq!(s.read("/f1.bak").unwrap(), b"x2\n");
    let (status, _, err) = run_for_test(&s, "sed", &["-i", "p", "nope"], "");
    assert_eq!((status, err.as_str()), (2, "sed: can't read nope: No such file or directory\n"));
}

#[test]
fn write_files() {
    let s = storage();
    let (status, out, _) = run_for_test(&s, "sed", &["-n", "s/o/0/w out\n/again/w out2", "t"], "");
    assert_eq!((status, out.as_str()), (0, ""));
    assert_eq!(s.read("/out").unwrap(), b"hell0 world\nf0o bar\nHell0 again\n");
    assert_eq!(s.read("/out2").unwrap(), b"Hell0 again\n");
    let (_, out, _) = run_for_test(&s, "sed", &["-n", "s/1/X/w /dev/stdout"], "1\n2\n");
    assert_eq!(out, "X\n");
    let (_, out, _) = run_for_test(&s, "sed", &["r f2"], "a\n");
    assert_eq!(out, "a\n3\n4\n");
}

#[test]
fn runaway_scripts_stop() {
    let s = storage();
    let (status, _, err) = run_for_test(&s, "sed", &[":a;G;h;ba"], "a\n");
    assert_eq!(status, 4);
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn large_files_are_read_in_pieces_across_files() {
    let s = MemoryStorage::default();
    // More than one piece (256 KiB), without a final newline.
    let big: String = (0..60_000).map(|n| format!("{n:05}\n")).collect::<String>() + "end";
    s.write("/big", big.as_bytes()).unwrap();
    s.write("/small", b"s1\ns2\n").unwrap();
    let (status, out, err) = run_for_test(&s, "sed", &["2,59999d", "big"], "");
    assert_eq!((status, out.as_str(), err.as_str()), (0, "00000\n59999\nend", ""));
    let (status, out, _) = run_for_test(&s, "sed", &["-n", "$p"], "");
    assert_eq!((status, out.as_str()), (0, ""));
    let (status, out, err) = run_for_test(&s, "sed", &["-n", "1p;59999,60002p;$p", "big", "nope", "small"], "");
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (2, "00000\n59998\n59999\nend\ns1\ns2\n", "sed: can't read nope: No such file or directory\n")
    );
    let (status, out, _) = run_for_test(&s, "sed", &["-s", "-n", "$p", "big", "small"], "");
    assert_eq!((status, out.as_str()), (0, "end\ns2\n"));
    let (status, out, _) = run_for_test(&s, "sed", &["3q", "big"], "");
    assert_eq!((status, out.as_str()), (0, "00000\n00001\n00002\n"));
    let (_, out, _) = run_for_test(&s, "sed", &["-n", "$="], "");
    assert_eq!(out, "");
    let (_, out, _) = run_for_test(&s, "sed", &["-n", "$=", "big"], "");
    assert_eq!(out, "60001\n");
}

/// A file of more than one piece edited in place goes through a
/// temporary file beside it: the result replaces it whole, its mode
/// stays, the original becomes the backup, and no temporary is left.
#[test]
fn large_files_edited_in_place_go_through_a_temporary_file() {
    let s = MemoryStorage::default();
    let big: String = (0..60_000).map(|n| format!("{n:05}\n")).collect::<String>() + "end";
    s.mkdir("/d", false).unwrap();
    s.write("/d/big", big.as_bytes()).unwrap();
    s.set_mode("/d/big", 0o600).unwrap();
    let (status, out, err) = run_for_test(&s, "sed", &["-i.orig", "s/0/o/;$s/$/!/", "d/big"], "");
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let edited: String = (0..60_000).map(|n| format!("{n:05}\n").replacen('0', "o", 1)).collect::<String>() + "end!";
    assert_eq!(String::from_utf8(s.read("/d/big").unwrap()).unwrap(), edited);
    assert_eq!(s.read("/d/big.orig").unwrap(), big.as_bytes());
    assert_eq!(s.stat("/d/big").unwrap().mode & 0o777, 0o600);
    let names: Vec<String> = s.list("/d").unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["big", "big.orig"]);
    // `q` ends the file there, as GNU's -i does.
    let (status, _, _) = run_for_test(&s, "sed", &["-i", "2q", "d/big"], "");
    assert_eq!(status, 0);
    assert_eq!(s.read("/d/big").unwrap(), b"o0000\no0001\n");
}
