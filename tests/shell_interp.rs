//! The interpreter against real bash: each script's expected stdout, stderr
//! and status were recorded with `env -i LC_ALL=C bash -c` (GNU bash 5.2)
//! in a directory holding the same seed files as [`seeded`]. Only builtins
//! are used, so the tests pass whatever the command table holds.

mod common;

use std::sync::Arc;

use aikido::shell::{LimitHit, Limits, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};
use aikido::CancelToken;

/// A storage with `d/{a.txt,b.txt,.hidden,sub/c.log}`.
fn seeded() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/d/sub", true).unwrap();
    storage.write("/d/a.txt", b"A\n").unwrap();
    storage.write("/d/b.txt", b"B\n").unwrap();
    storage.write("/d/.hidden", b"H\n").unwrap();
    storage.write("/d/sub/c.log", b"C\n").unwrap();
    storage
}

fn options() -> ShellOptions {
    ShellOptions {
        env: vec![("HOME".to_string(), "/".to_string()), ("PATH".to_string(), "/usr/bin:/bin".to_string())],
        ..ShellOptions::default()
    }
}

/// Runs a script in a fresh shell over the seed: (stdout, stderr, status).
fn run(script: &str) -> (String, String, i32) {
    common::shell::run_in(seeded(), options(), script)
}

fn check(script: &str, stdout: &str, stderr: &str, code: i32) {
    common::shell::expect(script, run(script), stdout, stderr, code);
}

#[test]
fn simple_echo() {
    check("echo hi; echo a   b 'c  d'", "hi\na b c  d\n", "", 0);
}

#[test]
fn quoting_and_escapes() {
    check(
        "x=5; echo \"$x\" ${x}y '$x' \"a\\$b\" a\\ b \"back\\\\slash\" $'ansi\\tc'",
        "5 5y $x a$b a b back\\slash ansi\tc\n",
        "",
        0,
    );
}

#[test]
fn default_values() {
    check(
        "echo ${v:-def} ${v-def2} ${v:=set}; echo $v; v=; echo \"[${v:-d}] [${v-d}] [${v:+alt}] [${v+alt}]\"",
        "def def2 set\nset\n[d] [] [] [alt]\n",
        "",
        0,
    );
}

#[test]
fn assign_default_colon() {
    check(": ${X:=default}; echo $X; : ${Y=other}; echo $Y", "default\nother\n", "", 0);
}

#[test]
fn error_if_unset() {
    check("echo ${Z:?not set}; echo unreachable", "", "bash: line 1: Z: not set\n", 127);
}

#[test]
fn length_and_affixes() {
    check("s=hello.tar.gz; echo ${#s} ${s#*.} ${s##*.} ${s%.*} ${s%%.*}", "12 tar.gz gz hello.tar hello\n", "", 0);
}

#[test]
fn replace() {
    check(
        "s=aXbXc; echo ${s/X/-} ${s//X/-} ${s/#a/A} ${s/%c/C} ${s/X}; x=abc; echo \"${x//[ac]/_}\"",
        "a-bXc a-b-c AXbXc aXbXC abXc\n_b_\n",
        "",
        0,
    );
}

#[test]
fn substring() {
    check("s=abcdef; echo ${s:2} ${s:2:2} ${s: -2} ${s:1:-1} ${s: -3:2}; x=abc; echo ${x:1:1}${x: -1} ${x:10} \"${x:0:0}\"", "cdef cd ef bcde de\nbc \n", "", 0);
}

#[test]
fn case_modification() {
    check(
        "s=hello; echo ${s^} ${s^^} ${s,} ${s,,} ${s^^[lo]}; S=WORLD; echo ${S,,} ${S,}",
        "Hello HELLO hello hello heLLO\nworld wORLD\n",
        "",
        0,
    );
}

#[test]
fn arrays() {
    check("a=(x y z); echo ${a[1]} ${a[@]} ${a[*]} ${#a[@]} ${!a[@]} \"${a[-1]}\"; a[5]=w; a+=(v u); echo ${#a[@]} ${!a[@]} ${a[@]}", "y x y z x y z 3 0 1 2 z\n6 0 1 2 5 6 7 x y z w v u\n", "", 0);
}

#[test]
fn array_slices() {
    check(
        "a=(one two three); echo ${a[@]:1} ${a[@]:0:2} ${#a[1]} ${a[@]^}",
        "two three one two 3 One Two Three\n",
        "",
        0,
    );
}

#[test]
fn sparse_unset() {
    check("unset a; a[2]=x; a[0]=y; echo ${a[@]} ${#a[@]}; unset 'a[2]'; echo ${a[@]}", "y x 2\ny\n", "", 0);
}

#[test]
fn positional() {
    check("set -- a \"b c\" d; echo $# \"$1\" \"$2\"; for i in \"$@\"; do echo \"[$i]\"; done; for i in $@; do echo \"<$i>\"; done; echo \"$*\"; IFS=,; echo \"$*\"", "3 a b c\n[a]\n[b c]\n[d]\n<a>\n<b>\n<c>\n<d>\na b c d\na,b c,d\n", "", 0);
}

#[test]
fn positional_ten() {
    check("set -- 1 2 3 4 5 6 7 8 9 10 11; echo ${10} ${11} $10", "10 11 10\n", "", 0);
}

#[test]
fn positional_slices() {
    check("f() { echo ${@:2}; echo ${*:1:2}; echo ${#}; }; f a b c d", "b c d\na b\n4\n", "", 0);
}

#[test]
fn special_params() {
    check("echo $? ; false; echo $?; echo $0 $#", "0\n1\nbash 0\n", "", 0);
}

#[test]
fn command_substitution() {
    check("x=$(echo hi; echo there); echo \"$x\"; y=`echo back`; echo $y; echo \"$(echo -e 'a\\n\\n\\n')\"end; x=`echo \\`echo nested\\``; echo $x $(echo $(echo deep))", "hi\nthere\nback\naend\nnested deep\n", "", 0);
}

#[test]
fn arithmetic() {
    check("echo $((1+2*3)) $((10/3)) $((10%3)) $((2**10)) $((1<<4)) $((255&15)) $((1|6)) $((5^1)) $((~0)) $((!0)) $((1&&0)) $((0||3)) $((5>3?1:2))", "7 3 1 1024 16 15 7 4 -1 1 0 1 1\n", "", 0);
}

#[test]
fn arithmetic_vars() {
    check("i=0; ((i++)); ((i+=5)); echo $i $((i--)) $i $((--i)) $((0x1f)) $((010)) $((2#101)) $((36#z)); n=3; echo $((n*n)) $((n+=1)) $n $(( $(echo 3) + 4 )) $[ 4 + 4 ]", "6 6 5 4 31 8 5 35\n9 4 4 7 8\n", "", 0);
}

#[test]
fn arithmetic_wrapping() {
    check(
        "echo $((2**63)) $((-2**63/-1)) $((7/-2)) $((-7%3))",
        "-9223372036854775808 -9223372036854775808 -3 -1\n",
        "",
        0,
    );
}

#[test]
fn division_by_zero_is_fatal() {
    check("echo $((1/0)); echo after", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1);
}

#[test]
fn division_by_zero_command() {
    check("((1/0)); echo rc=$?", "rc=1\n", "bash: line 1: ((: 1/0: division by 0 (error token is \"0\")\n", 0);
}

#[test]
fn arith_command_status() {
    check("(( 0 )); echo $?; (( 5 )); echo $?; x=3; (( x > 2 )) && echo big", "1\n0\nbig\n", "", 0);
}

#[test]
fn field_splitting() {
    check(
        "x=\"a   b  c\"; echo $x; echo \"$x\"; IFS=: ; y=\"p:q::r\"; for f in $y; do echo \"[$f]\"; done",
        "a b c\na   b  c\n[p]\n[q]\n[]\n[r]\n",
        "",
        0,
    );
}

#[test]
fn splitting_params() {
    check(
        "x=\" a b \"; set -- $x; echo $#; set -- \"$x\"; echo $#; set -- \"\" a \"\"; echo $#; y=; set -- $y; echo $#",
        "2\n1\n3\n0\n",
        "",
        0,
    );
}

#[test]
fn brace_expansion() {
    check(
        "echo {a,b}{1,2} {1..5} {a..e} {01..10} {1..10..2} {5..1} x{,y}z {a}",
        "a1 a2 b1 b2 1 2 3 4 5 a b c d e 01 02 03 04 05 06 07 08 09 10 1 3 5 7 9 5 4 3 2 1 xz xyz {a}\n",
        "",
        0,
    );
}

#[test]
fn tilde() {
    check("echo ~ ~/foo \"~\" ~x; HOME=/home/u; echo ~/bar", "/ //foo ~ ~x\n/home/u/bar\n", "", 0);
}

#[test]
fn functions() {
    check("f() { echo \"in f: $1 $#\"; return 3; }; f a b; echo rc=$?; function g { local x=inner; echo $x; }; x=outer; g; echo $x", "in f: a 2\nrc=3\ninner\nouter\n", "", 0);
}

#[test]
fn function_dynamic_scope() {
    check(
        "f() { local v=f; g; }; g() { echo g sees $v; v=changed; }; v=global; f; echo $v",
        "g sees f\nglobal\n",
        "",
        0,
    );
}

#[test]
fn if_elif_else() {
    check("if true; then echo yes; else echo no; fi; if false; then echo yes; elif true; then echo elif; fi; if false; then :; fi; echo $?", "yes\nelif\n0\n", "", 0);
}

#[test]
fn loops() {
    check("for ((i=0;i<3;i++)); do echo $i; done; i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo w$i; done; until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i", "0\n1\n2\nw1\nw2\nw3\n0\n", "", 0);
}

#[test]
fn case_patterns() {
    check("case abc in a*) echo star;; *) echo other;; esac; case x in y|x) echo bar;; esac; case ab in a*) echo one;& b*) echo two;; c) echo three;; esac; case ab in a*) echo one;;& *b) echo two;; esac; case \"\" in \"\") echo empty;; esac", "star\nbar\none\ntwo\none\ntwo\nempty\n", "", 0);
}

#[test]
fn break_continue() {
    check("for i in 1 2 3 4 5; do if [ $i = 2 ]; then continue; fi; if [ $i = 4 ]; then break; fi; echo $i; done; for i in 1 2; do for j in a b; do if [ $j = b ]; then continue 2; fi; echo $i$j; done; done; for i in 1 2; do for j in 1 2; do break 2; done; echo no; done; echo done", "1\n3\n1a\n2a\ndone\n", "", 0);
}

#[test]
fn and_or_not() {
    check(
        "true && echo and; false || echo or; false && echo no; ! false && echo neg; ! true; echo $?",
        "and\nor\nneg\n1\n",
        "",
        0,
    );
}

#[test]
fn groups_and_subshells() {
    check("{ echo brace; echo group; }; (echo sub; x=changed); echo ${x:-unset}; x=1; { x=2; }; echo $x; (x=3); echo $x; (cd /; exit 4); echo $?", "brace\ngroup\nsub\nunset\n2\n2\n4\n", "", 0);
}

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
fn echo_flags() {
    check(
        "echo -n no newline; echo; echo -e 'a\\tb\\nc'; echo -e 'x\\cy'; echo -E 'a\\tb'; echo -- -n; echo -ne 'x\\n'",
        "no newline\na\tb\nc\nxa\\tb\n-- -n\nx\n",
        "",
        0,
    );
}

#[test]
fn declare_and_integer() {
    check("x=1; x+=2; echo $x; declare -i n=5; n+=3; echo $n; n=\"2*3\"; echo $n; declare -a arr=(1 2 3); declare -A m=([k]=v [k2]=v2); echo ${arr[2]} ${m[k]} ${m[k2]} ${#m[@]}", "12\n8\n6\n3 v v2 2\n", "", 0);
}

#[test]
fn declare_print() {
    check(
        "x=1; arr=(a \"b c\"); declare -A m=([k]=v); declare -p x arr m; export x; declare -p x",
        "declare -- x=\"1\"\ndeclare -a arr=([0]=\"a\" [1]=\"b c\")\ndeclare -A m=([k]=\"v\" )\ndeclare -x x=\"1\"\n",
        "",
        0,
    );
}

#[test]
fn export_unset() {
    check(
        "export E=1; echo $E; unset E; echo \"${E-unset}\"; f() { echo f; }; unset -f f; f; echo $?",
        "1\nunset\n127\n",
        "bash: line 1: f: command not found\n",
        0,
    );
}

#[test]
fn errexit() {
    check("set -e; echo before; false; echo not reached", "before\n", "", 1);
}

#[test]
fn errexit_exceptions() {
    check("set -e; false || true; echo reached; if false; then :; fi; echo reached2; ! true; echo reached3; false && true; echo reached4; while false; do :; done; echo reached5", "reached\nreached2\nreached3\nreached4\nreached5\n", "", 0);
}

#[test]
fn errexit_in_function() {
    check("set -e; f() { false; echo in f; }; f; echo after", "", "", 1);
}

#[test]
fn errexit_subshell() {
    check("set -e; (false); echo no", "", "", 1);
}

#[test]
fn errexit_cmdsub() {
    check("set -e; x=$(false; echo hi); echo \"$x\"; y=$(false); echo never", "hi\n", "", 1);
}

#[test]
fn nounset() {
    check(
        "set -u; echo ${x:-ok}; echo \"$@\" $#; echo $undefined_var; echo after",
        "ok\n0\n",
        "bash: line 1: undefined_var: unbound variable\n",
        127,
    );
}

#[test]
fn trap_exit() {
    check("trap 'echo trapped $?' EXIT; echo body; exit 3", "body\ntrapped 3\n", "", 3);
}

#[test]
fn trap_exit_errexit() {
    check("trap 'echo trapped' EXIT; set -e; false; echo no", "trapped\n", "", 1);
}

#[test]
fn trap_exit_end() {
    check("trap 'echo bye' EXIT; echo body", "body\nbye\n", "", 0);
}

#[test]
fn eval() {
    check("eval 'echo evaled $((1+1))'; x='echo dyn'; eval $x; eval 'y=5'; echo $y", "evaled 2\ndyn\n5\n", "", 0);
}

#[test]
fn let_builtin() {
    check("let x=5+3 y=x*2; echo $x $y; let 0; echo $?", "8 16\n1\n", "", 0);
}

#[test]
fn type_and_command() {
    check(
        "type echo cd if; command -v echo; type nosuch; echo $?; command echo hi",
        "echo is a shell builtin\ncd is a shell builtin\nif is a shell keyword\necho\n1\nhi\n",
        "bash: line 1: type: nosuch: not found\n",
        0,
    );
}

#[test]
fn read_builtin() {
    check("read -r a b <<< \"one two three\"; echo \"$a|$b\"; read x <<< \"  spaced  \"; echo \"[$x]\"; IFS=, read -r a b c <<< \"1,2,3,4\"; echo \"$a $b $c\"; read -a arr <<< \"x y z\"; echo ${arr[1]} ${#arr[@]}; read <<< \"  r  \"; echo \"[$REPLY]\"", "one|two three\n[spaced]\n1 2 3,4\ny 3\n[  r  ]\n", "", 0);
}

#[test]
fn printf_v_sets_a_variable() {
    check(
        "printf -v line '%s=%s' key value; echo \"$line\"; printf -v x -- '%s-' a b; echo \"$x\"; printf -v n %d abc; echo \"$? [$n]\"; printf -v 1x a; echo $?; readonly r=1; printf -v r hi; echo $?; printf -- -v; echo",
        "key=value\na-b-\n1 [0]\n2\n1\n-v\n",
        "bash: line 1: printf: abc: invalid number\nbash: line 1: printf: `1x': not a valid identifier\nbash: line 1: r: readonly variable\n",
        0,
    );
}

#[test]
fn read_eof_status() {
    check("read x <<< ''; echo $? \"[$x]\"; printf_missing=1; read -d , x <<< 'a,b'; echo $? $x", "0 []\n0 a\n", "", 0);
}

#[test]
fn read_backslashes() {
    check("read x <<< 'a\\tb'; echo \"$x\"; read -r x <<< 'a\\tb'; echo \"$x\"", "atb\na\\tb\n", "", 0);
}

#[test]
fn while_read_heredoc() {
    check(
        "while read -r line; do echo \"L:$line\"; done <<EOF\nfirst\nsecond\nEOF\necho end",
        "L:first\nL:second\nend\n",
        "",
        0,
    );
}

#[test]
fn heredoc_quoted() {
    check("x=val; while read -r l; do echo \"$l\"; done <<'EOF'\n$x `cmd`\nEOF", "$x `cmd`\n", "", 0);
}

#[test]
fn heredoc_expanded() {
    check(
        "x=val; while read -r l; do echo \"$l\"; done <<EOF\nexpanded $x $(echo sub) \\$x\nEOF",
        "expanded val sub $x\n",
        "",
        0,
    );
}

#[test]
fn heredoc_tabs() {
    check("while read -r l; do echo \"[$l]\"; done <<-EOF\n\tindented\n\t\tmore\n\tEOF", "[indented]\n[more]\n", "", 0);
}

#[test]
fn herestring() {
    check("read -r x <<< \"$((1+1)) words\"; echo $x", "2 words\n", "", 0);
}

#[test]
fn extended_test() {
    check("[[ abc == a* ]] && echo match; [[ abc == \"a*\" ]] || echo nomatch; [[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[0]} ${BASH_REMATCH[1]}; [[ -z \"\" && -n x ]] && echo zn; [[ 2 -lt 10 ]] && echo lt; [[ b > a ]] && echo gt; [[ ! -e /nonexist ]] && echo noexist", "match\nnomatch\nabc b\nzn\nlt\ngt\nnoexist\n", "", 0);
}

#[test]
fn extended_test_vars() {
    check("x=5; [[ $x -gt 3 ]] && echo yes; [[ -v x ]] && echo set; [[ -v nope ]] || echo unset; y='a b'; [[ $y == 'a b' ]] && echo nosplit; re='^[0-9]+$'; [[ 123 =~ $re ]] && echo num; [[ x1 =~ $re ]] || echo notnum; [[ a.c =~ a\".\"c ]] && echo lit", "yes\nset\nunset\nnosplit\nnum\nnotnum\nlit\n", "", 0);
}

#[test]
fn test_builtin() {
    check("[ a = a ] && echo eq; [ 1 -eq 1 -a 2 -ne 3 ] && echo and; [ \\( a = b \\) -o 1 = 1 ] && echo paren; test -d / && echo dir; [ -z '' ] && echo z; [ ! -n '' ] && echo notn; [ abc ] && echo nonempty; [ ] || echo empty", "eq\nand\nparen\ndir\nz\nnotn\nnonempty\nempty\n", "", 0);
}

#[test]
fn test_errors() {
    check("[ a -eq 1 ]; echo $?; [ a b c ]; echo $?; [ -n ]; echo $?; [ ; echo $?", "2\n2\n0\n2\n", "bash: line 1: [: a: integer expression expected\nbash: line 1: [: b: binary operator expected\nbash: line 1: [: missing `]'\n", 0);
}

#[test]
fn file_tests() {
    check("echo data > f; : > empty; [ -f f ] && echo file; [ -s f ] && echo size; [ -s empty ] || echo nosize; [ -e nope ] || echo missing; [ -d f ] || echo notdir; [ -r f ] && echo readable; [ -w f ] && echo writable", "file\nsize\nnosize\nmissing\nnotdir\nreadable\nwritable\n", "", 0);
}

#[test]
fn shift_builtin() {
    check("f() { shift; echo $@; shift 2; echo $@; shift 5; echo $?; }; f 1 2 3 4", "2 3 4\n4\n1\n", "", 0);
}

#[test]
fn cd_errors() {
    check(
        "cd /nonexist; echo $?; cd; echo $PWD",
        "1\n/\n",
        "bash: line 1: cd: /nonexist: No such file or directory\n",
        0,
    );
}

#[test]
fn indirect_and_prefix() {
    check("x=hello; y=x; echo ${!y}; BVAR=1; BVAR2=2; echo ${!BVAR*}", "hello\nBVAR BVAR2\n", "", 0);
}

#[test]
fn quotes_mixed() {
    check(
        "echo 'single \"double\"' \"double 'single'\"; x=\"*\"; echo \"$x\"",
        "single \"double\" double 'single'\n*\n",
        "",
        0,
    );
}

#[test]
fn return_and_exit_status() {
    check("f() { return 7; }; f; echo $?; g() { exit 4; }; (g); echo $?", "7\n4\n", "", 0);
}

#[test]
fn for_without_in() {
    check("f() { for x; do echo $x; done; }; f p q", "p\nq\n", "", 0);
}

#[test]
fn exit_ends_script() {
    check("echo a; exit 5; echo b", "a\n", "", 5);
}

#[test]
fn exit_wraps() {
    check("exit 300", "", "", 44);
}

#[test]
fn local_arrays() {
    check(
        "f() { local -a arr=(1 2); echo ${arr[1]}; local i; i=5; echo $i; }; f; echo \"${i-unset}\"",
        "2\n5\nunset\n",
        "",
        0,
    );
}

#[test]
fn temp_env() {
    check(
        "f() { echo $VAR $1; }; VAR=tmp f x; echo \"[${VAR-unset}]\"; x=1; x=2 eval 'echo $x'; echo $x",
        "tmp x\n[unset]\n2\n1\n",
        "",
        0,
    );
}

#[test]
fn transform_ops() {
    check("x=\"it's\"; echo ${x@Q}; y=abc; echo ${y@U}", "'it'\\''s'\nABC\n", "", 0);
}

#[test]
fn mapfile() {
    check("mapfile -t lines <<< $'a\\nb\\nc'; echo ${#lines[@]} ${lines[1]}", "3 b\n", "", 0);
}

#[test]
fn getopts() {
    check("f() { while getopts \"ab:c\" opt; do case $opt in a) echo A;; b) echo \"B=$OPTARG\";; c) echo C;; ?) echo bad;; esac; done; shift $((OPTIND-1)); echo rest: $@; }; f -a -b val -c file", "A\nB=val\nC\nrest: file\n", "", 0);
}

#[test]
fn readonly() {
    check("readonly R=1; R=2; echo $R", "", "bash: line 1: R: readonly variable\n", 1);
}

#[test]
fn xtrace() {
    check(
        "set -x; echo traced 'a b'; x=1; set +x; echo quiet",
        "traced a b\nquiet\n",
        "+ echo traced 'a b'\n+ x=1\n+ set +x\n",
        0,
    );
}

#[test]
fn bash_c() {
    check("bash -c 'echo inner $0 $1' zero one; sh -c 'exit 3'; echo $?", "inner zero one\n3\n", "", 0);
}

#[test]
fn stderr_redirects() {
    check("echo err >&2; echo out 2>&1 1>&2 | { read x; echo \"piped $x\"; }; { echo a; echo b >&2; } 2>&1 | { while read l; do echo \"got $l\"; done; }", "piped out\ngot a\ngot b\n", "err\n", 0);
}

#[test]
fn file_redirects() {
    check("echo one > f; echo two >> f; while read l; do echo \"<$l>\"; done < f; echo err 2> e >&2; read x < e; echo $x; echo both &> b; read y < b; echo $y", "<one>\n<two>\nerr\nboth\n", "", 0);
}

#[test]
fn redirect_to_directory() {
    check("echo hi > /; echo $?", "1\n", "bash: line 1: /: Is a directory\n", 0);
}

#[test]
fn redirect_missing_dir() {
    check(
        "echo a > nodir/x; echo $?; read x < nofile; echo $?",
        "1\n1\n",
        "bash: line 1: nodir/x: No such file or directory\nbash: line 1: nofile: No such file or directory\n",
        0,
    );
}

#[test]
fn dev_null() {
    check("echo gone > /dev/null; echo err 2>/dev/null >&2; read x < /dev/null; echo $? \"[$x]\"", "1 []\n", "", 0);
}

#[test]
fn loop_redirects() {
    check(
        "for i in 1 2 3; do echo $i; done > out; while read n; do echo \"n=$n\"; done < out",
        "n=1\nn=2\nn=3\n",
        "",
        0,
    );
}

#[test]
fn compound_redirect_append() {
    check("{ echo a; echo b; } > f; { echo c; } >> f; while read l; do echo $l; done < f", "a\nb\nc\n", "", 0);
}

#[test]
fn globbing() {
    check("cd d; echo *.txt; echo *; echo .*; echo */; echo nomatch*; echo \"*.txt\"; echo sub/*.log; echo [ab].txt; echo ?.txt", "a.txt b.txt\na.txt b.txt sub\n.hidden\nsub/\nnomatch*\n*.txt\nsub/c.log\na.txt b.txt\na.txt b.txt\n", "", 0);
}

#[test]
fn glob_in_for() {
    check(
        "for f in d/*.txt; do echo \"file: $f\"; done; for f in /nonexistent*; do echo \"$f\"; done",
        "file: d/a.txt\nfile: d/b.txt\n/nonexistent*\n",
        "",
        0,
    );
}

#[test]
fn command_not_found() {
    check("nosuchcmd arg; echo $?", "127\n", "bash: line 1: nosuchcmd: command not found\n", 0);
}

#[test]
fn syntax_error() {
    let (out, err, code) = run("if then");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.starts_with("bash: -c: line 1: syntax error"), "{err}");
}

#[test]
fn unterminated_quote() {
    check("echo \"abc", "", "bash: -c: line 1: unexpected EOF while looking for matching `\"'\n", 2);
}

#[test]
fn source_file() {
    check(
        "echo 'sourced_var=1; echo in source $1' > s.sh; . ./s.sh arg; echo $sourced_var; source s.sh",
        "in source arg\n1\nin source\n",
        "",
        0,
    );
}

#[test]
fn script_by_path() {
    check("echo 'echo script $1 $#' > x.sh; bash x.sh a b", "script a 2\n", "", 0);
}

#[test]
fn noclobber() {
    check(
        "echo a > f; set -C; echo b > f; echo $?; echo c >| f; read x < f; echo $x",
        "1\nc\n",
        "bash: line 1: f: cannot overwrite existing file\n",
        0,
    );
}

#[test]
fn string_compare_in_test() {
    check("[ abc \\< abd ] && echo less; [[ abc < abd ]] && echo less2", "less\nless2\n", "", 0);
}

#[test]
fn return_outside_function() {
    check(
        "return 2; echo after",
        "after\n",
        "bash: line 1: return: can only `return' from a function or sourced script\n",
        0,
    );
}

#[test]
fn break_outside_loop() {
    check(
        "break; echo after",
        "after\n",
        "bash: line 1: break: only meaningful in a `for', `while', or `until' loop\n",
        0,
    );
}

#[test]
fn nested_functions_return() {
    check("outer() { inner; echo after inner $?; }; inner() { return 5; }; outer", "after inner 5\n", "", 0);
}

#[test]
fn assoc_arrays() {
    check("declare -A m; m[one]=1; m[two]=2; echo ${m[one]} ${m[two]} ${#m[@]}; k=two; echo ${m[$k]}; unset 'm[one]'; echo ${#m[@]}", "1 2 2\n2\n1\n", "", 0);
}

#[test]
fn array_append_element() {
    check("a=(1); a+=(2 3); a[1]+=x; echo ${a[@]}; s=str; s+=ing; echo $s", "1 2x 3\nstring\n", "", 0);
}

#[test]
fn ifs_read_multiple() {
    check("echo 'a:b:c' | { IFS=: read -r x y z; echo $z $y $x; }", "c b a\n", "", 0);
}

#[test]
fn word_splitting_cmdsub() {
    check("for w in $(echo 'a b'; echo c); do echo \"[$w]\"; done", "[a]\n[b]\n[c]\n", "", 0);
}

#[test]
fn quoted_at_empty() {
    check("set --; for a in \"$@\"; do echo arg; done; echo \"[$@]\"; set -- ''; for a in \"$@\"; do echo \"arg[$a]\"; done", "[]\narg[]\n", "", 0);
}

#[test]
fn dollar_star_unquoted() {
    check("set -- 'a b' c; for a in $*; do echo \"[$a]\"; done", "[a]\n[b]\n[c]\n", "", 0);
}

#[test]
fn lineno() {
    check("echo $LINENO\necho $LINENO", "1\n2\n", "", 0);
}

#[test]
fn until_loop() {
    check("n=0; until [ $n -ge 3 ]; do n=$((n+1)); done; echo $n", "3\n", "", 0);
}

#[test]
fn case_glob_classes() {
    check("for w in a1 B2 33; do case $w in [a-z]*) echo lower $w;; [[:upper:]]*) echo upper $w;; *) echo other $w;; esac; done", "lower a1\nupper B2\nother 33\n", "", 0);
}

// ----- second batch: edge cases -----

#[test]
fn nounset_positional() {
    check("set -u; f() { echo ${1}; }; f", "", "environment: line 1: 1: unbound variable\n", 127);
}

#[test]
fn nounset_array_at() {
    check("set -u; echo ${arr[@]} done; a=(); echo ${#a[@]}", "done\n0\n", "", 0);
}

#[test]
fn nounset_length() {
    check("set -u; echo ${#nope}", "", "bash: line 1: nope: unbound variable\n", 127);
}

#[test]
fn unset_var_error_in_subshell() {
    check("set -u; (echo $nope); echo after $?", "after 1\n", "bash: line 1: nope: unbound variable\n", 0);
}

#[test]
fn errexit_pipeline() {
    check("set -e; false | true; echo ok; true | false; echo no", "ok\n", "", 1);
}

#[test]
fn errexit_negated_compound() {
    check("set -e; ! { false; }; echo ok", "ok\n", "", 0);
}

#[test]
fn errexit_and_list_last() {
    check("set -e; true && false; echo no", "", "", 1);
}

#[test]
fn errexit_or_list() {
    check("set -e; false || false; echo no", "", "", 1);
}

#[test]
fn errexit_func_in_cond() {
    check(
        "set -e; f() { false; echo inside; }; if f; then echo then; fi; f && echo and",
        "inside\nthen\ninside\nand\n",
        "",
        0,
    );
}

#[test]
fn errexit_loop_body() {
    check("set -e; for i in 1 2; do echo $i; false; done; echo no", "1\n", "", 1);
}

#[test]
fn errexit_until_cond() {
    check("set -e; until false; do break; done; echo ok", "ok\n", "", 0);
}

#[test]
fn errexit_arith() {
    check("set -e; (( 0 )); echo no", "", "", 1);
}

#[test]
fn errexit_arith_in_cond() {
    check("set -e; x=0; (( x++ )) || true; echo $x", "1\n", "", 0);
}

#[test]
fn errexit_local_cmdsub() {
    check("set -e; f() { local x=$(false); echo local masks; }; f", "local masks\n", "", 0);
}

#[test]
fn errexit_assign_cmdsub() {
    check("set -e; x=$(exit 3); echo no", "", "", 3);
}

#[test]
fn exit_in_subshell_pipeline() {
    check("echo x | exit 3; echo $?", "3\n", "", 0);
}

#[test]
fn exit_status_of_assignment_cmdsub() {
    check("x=$(exit 7); echo $?", "7\n", "", 0);
}

#[test]
fn dollar_question_after_if() {
    check("if false; then :; fi; echo $?; if false; then :; else (exit 4); fi; echo $?", "0\n4\n", "", 0);
}

#[test]
fn case_no_match_status() {
    check("false; case x in y) ;; esac; echo $?", "0\n", "", 0);
}

#[test]
fn for_empty_list_status() {
    check("false; for i in; do :; done; echo $?", "0\n", "", 0);
}

#[test]
fn while_status() {
    check("i=0; while [ $i -lt 2 ]; do i=$((i+1)); false; done; echo $?", "1\n", "", 0);
}

#[test]
fn func_status_last() {
    check("f() { false; }; f; echo $?; g() { :; }; g; echo $?", "1\n0\n", "", 0);
}

#[test]
fn ifs_unset() {
    check("x='a  b'; unset IFS; echo $x; set -- $x; echo $#", "a b\n2\n", "", 0);
}

#[test]
fn ifs_empty() {
    check("x='a b'; IFS=; set -- $x; echo $#", "1\n", "", 0);
}

#[test]
fn ifs_custom_whitespace() {
    check(
        "IFS=' :'; x=' a : b ::c '; set -- $x; echo $#; for a; do echo \"[$a]\"; done",
        "4\n[a]\n[b]\n[]\n[c]\n",
        "",
        0,
    );
}

#[test]
fn ifs_newline() {
    check("IFS=$'\\n'; x=$'a b\\nc d'; for l in $x; do echo \"[$l]\"; done", "[a b]\n[c d]\n", "", 0);
}

#[test]
fn quoted_expansion_in_default() {
    check("unset v; for w in ${v:-\"a b\" c}; do echo \"[$w]\"; done; echo \"${v:-x y}\"", "[a b]\n[c]\nx y\n", "", 0);
}

#[test]
fn nested_param_default() {
    check("unset a b; echo ${a:-${b:-inner}}", "inner\n", "", 0);
}

#[test]
fn array_quoted_at() {
    check("a=('x y' z); for i in \"${a[@]}\"; do echo \"[$i]\"; done; for i in ${a[@]}; do echo \"<$i>\"; done; echo \"${a[*]}\"", "[x y]\n[z]\n<x>\n<y>\n<z>\nx y z\n", "", 0);
}

#[test]
fn array_in_string() {
    check("a=(1 2 3); echo \"pre ${a[@]} post\"; s=\"${a[@]}\"; echo \"$s\"", "pre 1 2 3 post\n1 2 3\n", "", 0);
}

#[test]
fn array_length_element() {
    check("a=(hello world); echo ${#a} ${#a[0]} ${#a[1]}", "5 5 5\n", "", 0);
}

#[test]
fn array_negative() {
    check("a=(1 2 3); echo ${a[-1]} ${a[-3]}; a[-1]=x; echo ${a[@]}", "3 1\n1 2 x\n", "", 0);
}

#[test]
fn array_from_glob() {
    check("cd d; a=(*.txt); echo ${#a[@]} ${a[0]}", "2 a.txt\n", "", 0);
}

#[test]
fn array_from_cmdsub() {
    check("a=($(echo x y z)); echo ${#a[@]}", "3\n", "", 0);
}

#[test]
fn array_keys_sparse() {
    check("a=([3]=c [1]=a); echo ${!a[@]} ${a[@]}", "1 3 a c\n", "", 0);
}

#[test]
fn assoc_iteration() {
    check("declare -A m=([a]=1); m[b]=2; echo ${m[a]} ${m[b]} ${#m[@]}", "1 2 2\n", "", 0);
}

#[test]
fn string_ops_on_arrays() {
    check("a=(a.txt b.txt); echo ${a[@]%.txt} ${a[@]/a/A} ${a[@]#?}", "a b A.txt b.txt .txt .txt\n", "", 0);
}

#[test]
fn arith_with_arrays() {
    check(
        "a=(5 6); echo $((a[0]+a[1])) $((a[1]*2)); (( a[2] = 7 )); echo ${a[2]}; i=1; echo $((a[i]))",
        "11 12\n7\n6\n",
        "",
        0,
    );
}

#[test]
fn arith_assign_ops() {
    check("x=10; ((x*=2, x-=5, x/=3, x%=4, x<<=2, x|=1, x^=3, x&=6)); echo $x", "6\n", "", 0);
}

#[test]
fn arith_string_var() {
    check("x='1+2'; echo $((x*3)); y=z; z=4; echo $((y+1))", "9\n5\n", "", 0);
}

#[test]
fn arith_nested_parens() {
    check("echo $(( (1+2)*(3+4) )) $(( -(-3) )) $(( +5 )) $(( 1 ? 2 : 3 ))", "21 3 5 2\n", "", 0);
}

#[test]
fn arith_comparisons() {
    check("echo $((1<2)) $((2<=2)) $((3>4)) $((4>=4)) $((1==1)) $((1!=1))", "1 1 0 1 1 0\n", "", 0);
}

#[test]
fn arith_negative_exponent() {
    check("echo $((2**-1)); echo after", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1);
}

#[test]
fn let_status() {
    check("let 'x = 0'; echo $?; let x++; echo $? $x", "1\n1 1\n", "", 0);
}

#[test]
fn cmdsub_trailing_newlines() {
    check("x=$(echo a; echo; echo); echo \"[$x]\"; y=\"$(echo ' sp ')\"; echo \"[$y]\"", "[a]\n[ sp ]\n", "", 0);
}

#[test]
fn cmdsub_in_double_quotes_with_quotes() {
    check("echo \"$(echo \"inner \\\"q\\\"\")\"", "inner \"q\"\n", "", 0);
}

#[test]
fn backtick_escapes() {
    check("echo `echo \\$HOME`; echo `echo '\\\\'`", "/\n\\\n", "", 0);
}

#[test]
fn cmdsub_subshell_state() {
    check(
        "x=1; y=$(x=2; echo $x); echo $x $y; cd d; z=$(cd sub; pwd); echo ${z##*/}; pwd | { read p; echo ${p##*/}; }",
        "1 2\nsub\nd\n",
        "",
        0,
    );
}

#[test]
fn cmdsub_stderr_passthrough() {
    check("x=$(echo err >&2; echo out); echo $x", "out\n", "err\n", 0);
}

#[test]
fn heredoc_in_function() {
    check("f() { while read l; do echo \"f:$l\"; done <<EOF\n$1\nEOF\n}; f hello", "f:hello\n", "", 0);
}

#[test]
fn heredoc_multiple() {
    check(
        "while read a; do echo $a; done <<A; while read b; do echo $b; done <<B\none\nA\ntwo\nB",
        "one\ntwo\n",
        "",
        0,
    );
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
fn herestring_multiword() {
    check("read a b <<< $'x y\\nz'; echo $a $b", "x y\n", "", 0);
}

#[test]
fn here_doc_no_expansion_special() {
    check("while read -r l; do echo \"$l\"; done <<'E'\n\\$x `a` $(b)\nE", "\\$x `a` $(b)\n", "", 0);
}

#[test]
fn redirect_order() {
    check("echo x 2>&1 >/dev/null; { echo a >&2; } 2>/dev/null; echo done", "done\n", "", 0);
}

#[test]
fn redirect_input_dup() {
    check("read x <&0 <<< hi; echo $x", "hi\n", "", 0);
}

#[test]
fn redirect_on_function_def() {
    check("f() { echo in f; } > out; f; read x < out; echo got $x", "got in f\n", "", 0);
}

#[test]
fn redirect_while_write() {
    check(
        "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done > out; while read l; do echo r$l; done < out",
        "r0\nr1\nr2\n",
        "",
        0,
    );
}

#[test]
fn redirect_if() {
    check("if true; then echo yes; fi > out; read x < out; echo $x", "yes\n", "", 0);
}

#[test]
fn redirect_append_loop() {
    check("for i in 1 2 3; do echo $i >> out; done; while read l; do echo $l; done < out", "1\n2\n3\n", "", 0);
}

#[test]
fn dev_stdout_stderr() {
    check("echo to-out > /dev/stdout; echo to-err > /dev/stderr", "to-out\n", "to-err\n", 0);
}

#[test]
fn ampersand_redirect_append() {
    check("echo a &> f; echo b &>> f; while read l; do echo $l; done < f", "a\nb\n", "", 0);
}

#[test]
fn cat_self_truncation() {
    check("echo data > f; { while read l; do echo $l; done < f; } > f; echo \"[$(< f)]\"", "[]\n", "", 0);
}

#[test]
fn dollar_lt_file() {
    check(
        "echo content > f; echo \"$(< f)\"; x=$(< nofile); echo \"[$x]\"",
        "content\n[]\n",
        "bash: line 1: nofile: No such file or directory\n",
        0,
    );
}

#[test]
fn glob_hidden() {
    check("cd d; echo .h*; echo *; echo .*", ".hidden\na.txt b.txt sub\n.hidden\n", "", 0);
}

#[test]
fn glob_question_class() {
    check("cd d; echo [!b].txt ?.t?t [a-b]*", "a.txt a.txt b.txt a.txt b.txt\n", "", 0);
}

#[test]
fn glob_nested_dirs() {
    check("echo d/*/*.log d/s*/c*; echo */", "d/sub/c.log d/sub/c.log\nd/\n", "", 0);
}

#[test]
fn glob_quoted_parts() {
    check("cd d; echo \"a\"*; echo 'a*'; x='*.txt'; echo $x; echo \"$x\"", "a.txt\na*\na.txt b.txt\n*.txt\n", "", 0);
}

#[test]
fn glob_absolute() {
    check(
        "cd d; x=$(pwd); echo ${x}/*.txt | while read l; do for w in $l; do echo ${w##*/}; done; done",
        "a.txt\nb.txt\n",
        "",
        0,
    );
}

#[test]
fn glob_noglob() {
    check("cd d; set -f; echo *; set +f; echo *.txt", "*\na.txt b.txt\n", "", 0);
}

#[test]
fn glob_in_case_and_test() {
    check("f=x.txt; case $f in *.txt) echo txt;; esac; [[ $f == *.t?t ]] && echo match", "txt\nmatch\n", "", 0);
}

#[test]
fn tilde_in_assignment() {
    check("HOME=/h; x=~/a; echo $x; y=\"~\"; echo $y", "/h/a\n~\n", "", 0);
}

#[test]
fn brace_with_vars() {
    check("x=1; echo {a,b}$x ${x}{c,d}; echo \"{a,b}\" \\{a,b\\}", "a1 b1 1c 1d\n{a,b} {a,b}\n", "", 0);
}

#[test]
fn brace_nested_seq() {
    check("echo {a,b{1..3}} {x..z..2} {10..1..3} {-2..2}", "a b1 b2 b3 x z 10 7 4 1 -2 -1 0 1 2\n", "", 0);
}

#[test]
fn brace_in_for() {
    check("for i in {1..3}; do echo n$i; done", "n1\nn2\nn3\n", "", 0);
}

#[test]
fn local_scoping_nested() {
    check("x=g; f() { local x=f; g; echo f:$x; }; g() { x=gset; }; f; echo $x", "f:gset\ng\n", "", 0);
}

#[test]
fn local_unset_shadow() {
    check("x=outer; f() { local x; echo \"[${x-unset}]\"; x=in; }; f; echo $x", "[unset]\nouter\n", "", 0);
}

#[test]
fn recursion_factorial() {
    check(
        "fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10",
        "3628800\n",
        "",
        0,
    );
}

#[test]
fn function_positional_restore() {
    check("set -- a b; f() { set -- x; echo $1; }; f; echo $1 $2", "x\na b\n", "", 0);
}

#[test]
fn function_keyword_parens() {
    check("function h() { echo h $#; }; h 1 2", "h 2\n", "", 0);
}

#[test]
fn function_with_redirect_body() {
    check("f() { echo body; } 2>&1; f", "body\n", "", 0);
}

#[test]
fn return_in_loop_in_function() {
    check("f() { for i in 1 2 3; do if [ $i = 2 ]; then return $i; fi; done; }; f; echo $?", "2\n", "", 0);
}

#[test]
fn break_in_function_in_loop() {
    check("f() { break; }; for i in 1 2; do f; echo $i; done", "1\n2\n", "environment: line 1: break: only meaningful in a `for', `while', or `until' loop\nenvironment: line 1: break: only meaningful in a `for', `while', or `until' loop\n", 0);
}

#[test]
fn continue_in_while() {
    check("i=0; while [ $i -lt 5 ]; do i=$((i+1)); [ $((i%2)) = 0 ] && continue; echo $i; done", "1\n3\n5\n", "", 0);
}

#[test]
fn nested_loops_break_n() {
    check("for a in 1 2; do while true; do for b in x y; do break 3; done; done; done; echo out $a", "out 1\n", "", 0);
}

#[test]
fn case_fallthrough_multi() {
    check("case 1 in 1) echo a;& 2) echo b;& 3) echo c;; 4) echo d;; esac", "a\nb\nc\n", "", 0);
}

#[test]
fn case_quoted_pattern() {
    check(
        "x='*'; case a in \"$x\") echo lit;; *) echo glob;; esac; case '*' in \"$x\") echo lit2;; esac",
        "glob\nlit2\n",
        "",
        0,
    );
}

#[test]
fn case_empty_item() {
    check("case a in a) ;; b) echo b;; esac; echo $?", "0\n", "", 0);
}

#[test]
fn case_var_pattern() {
    check("p='a*'; case abc in $p) echo matched;; esac", "matched\n", "", 0);
}

#[test]
fn test_numeric_spaces() {
    check("[ ' 5 ' -eq 5 ] && echo eq; [ 5 -gt -3 ] && echo gt", "eq\ngt\n", "", 0);
}

#[test]
fn test_string_ops() {
    check("[ abc = abc ] && echo 1; [ abc != abd ] && echo 2; [ -n abc ] && echo 3; [ -z abc ] || echo 4; [ \"\" ] || echo 5", "1\n2\n3\n4\n5\n", "", 0);
}

#[test]
fn test_not_and_or() {
    check(
        "[ ! a = b ] && echo 1; [ a = a -a b = b ] && echo 2; [ a = b -o b = b ] && echo 3; test 1 -eq 2 || echo 4",
        "1\n2\n3\n4\n",
        "",
        0,
    );
}

#[test]
fn dbracket_and_or_precedence() {
    check(
        "[[ a == a || b == c && c == d ]] && echo yes; [[ ( a == b || b == b ) && c == c ]] && echo paren",
        "yes\nparen\n",
        "",
        0,
    );
}

#[test]
fn dbracket_regex_groups() {
    check("[[ 'key=value' =~ ^([a-z]+)=(.*)$ ]]; echo ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${#BASH_REMATCH[@]}; [[ x =~ y ]]; echo ${#BASH_REMATCH[@]}", "key value 3\n0\n", "", 0);
}

#[test]
fn dbracket_numeric_arith() {
    check("x=3; [[ x+1 -eq 4 ]] && echo arith; [[ 010 -eq 8 ]] && echo octal", "arith\noctal\n", "", 0);
}

#[test]
fn dbracket_string_lt() {
    check("[[ apple < banana ]] && echo lt; [[ 10 < 9 ]] && echo strlt", "lt\nstrlt\n", "", 0);
}

#[test]
fn dbracket_file_ops() {
    check(
        "echo x > f; [[ -f f && ! -d f && -e f && -s f ]] && echo allfile; [[ -d d ]] && echo dir",
        "allfile\ndir\n",
        "",
        0,
    );
}

#[test]
fn dbracket_empty_var() {
    check("[[ -z $unset ]] && echo empty; [[ $unset == '' ]] && echo eq", "empty\neq\n", "", 0);
}

#[test]
fn read_multiple_lines_loop_fields() {
    check("printf_missing=1; while IFS=: read -r user rest; do echo \"$user -> $rest\"; done <<'EOF'\nroot:x:0\nbob:y:1\nEOF", "root -> x:0\nbob -> y:1\n", "", 0);
}

#[test]
fn read_last_line_no_newline() {
    check("while read l; do echo \"[$l]\"; done < <(echo) 2>/dev/null; echo -n 'a\nb' > f; while read l; do echo \"[$l]\"; done < f; echo \"last=[$l]\"", "[]\n[a]\nlast=[b]\n", "", 0);
}

#[test]
fn read_last_line_no_newline2() {
    check("echo -ne 'a\\nb' > f; while read l || [ -n \"$l\" ]; do echo \"[$l]\"; done < f", "[a]\n[b]\n", "", 0);
}

#[test]
fn read_n_chars() {
    check("read -n 2 x <<< abcdef; echo $x", "ab\n", "", 0);
}

#[test]
fn read_delim() {
    check("read -d : x <<< 'ab:cd'; echo $x $?", "ab 0\n", "", 0);
}

#[test]
fn read_prompt_ignored() {
    check("read -p 'prompt: ' x <<< val; echo $x", "val\n", "", 0);
}

#[test]
fn mapfile_from_pipe() {
    check("echo -e 'a\\nb' | { mapfile -t arr; echo ${#arr[@]} ${arr[0]}; }", "2 a\n", "", 0);
}

#[test]
fn echo_escapes_more() {
    check("echo -e 'a\\\\b' '\\x41' '\\101' '\\0101' 'tab\\there'", "a\\b A \\101 A tab\there\n", "", 0);
}

#[test]
fn echo_dash_combined() {
    check("echo -en 'a\\tb'; echo; echo -x; echo -", "a\tb\n-x\n-\n", "", 0);
}

#[test]
fn printf_less_echo() {
    check("echo \"a\" 'b' c\\ d \"$(echo e)\"", "a b c d e\n", "", 0);
}

#[test]
fn set_options_display() {
    check("set -e; echo $-; set +e; set -u; echo $-", "ehBc\nhuBc\n", "", 0);
}

#[test]
fn set_positional_dashdash() {
    check("set -- -x -y; echo $1 $#; set a b c; echo $2", "-x 2\nb\n", "", 0);
}

#[test]
fn shift_all() {
    check("set -- a b c; shift 3; echo $#; shift; echo $?", "0\n1\n", "", 0);
}

#[test]
fn eval_quoting() {
    check("x='a b'; eval \"y=\\\"$x\\\"\"; echo \"$y\"; eval echo '$x'", "a b\na b\n", "", 0);
}

#[test]
fn eval_defines_function() {
    check("eval 'f() { echo from eval; }'; f", "from eval\n", "", 0);
}

#[test]
fn eval_return_status() {
    check("eval false; echo $?; eval 'exit 3'; echo no", "1\n", "", 3);
}

#[test]
fn source_with_return() {
    check("echo 'echo before; return 4; echo after' > s.sh; . ./s.sh; echo $?", "before\n4\n", "", 0);
}

#[test]
fn source_missing() {
    check("source nofile.sh; echo $?", "1\n", "bash: line 1: nofile.sh: No such file or directory\n", 0);
}

#[test]
fn trap_exit_in_subshell() {
    check("(trap 'echo sub-exit' EXIT; echo in sub); echo after", "in sub\nsub-exit\nafter\n", "", 0);
}

#[test]
fn trap_exit_sees_status() {
    check("trap 'echo status=$?' EXIT; false", "status=1\n", "", 1);
}

#[test]
fn trap_reset() {
    check("trap 'echo no' EXIT; trap - EXIT; echo done", "done\n", "", 0);
}

#[test]
fn trap_print() {
    check("trap 'echo hi' EXIT; trap -p; trap - EXIT", "trap -- 'echo hi' EXIT\n", "", 0);
}

#[test]
fn exit_in_function() {
    check("f() { exit 6; echo no; }; f; echo no", "", "", 6);
}

#[test]
fn exit_no_arg_uses_last() {
    check("false; exit", "", "", 1);
}

#[test]
fn exit_bad_arg() {
    check("exit abc; echo no", "", "bash: line 1: exit: abc: numeric argument required\n", 2);
}

#[test]
fn command_v_builtin_and_missing() {
    check("command -v cd; command -v nosuch; echo $?", "cd\n1\n", "", 0);
}

#[test]
fn type_t() {
    check("f() { :; }; type -t f echo if nosuch; echo $?", "function\nbuiltin\nkeyword\n1\n", "", 0);
}

#[test]
fn unset_function_and_var() {
    check("x=1; f() { :; }; unset x f; echo ${x-u}; type -t f; echo $?", "u\n1\n", "", 0);
}

#[test]
fn declare_i_arith() {
    check("declare -i x; x=5*2; echo $x; x+=1; echo $x", "10\n11\n", "", 0);
}

#[test]
fn declare_global_in_function() {
    check("f() { declare -g G=1; declare L=2; }; f; echo ${G-u} ${L-u}", "1 u\n", "", 0);
}

#[test]
fn declare_p_array() {
    check("declare -a a=(1 'two words'); declare -p a", "declare -a a=([0]=\"1\" [1]=\"two words\")\n", "", 0);
}

#[test]
fn export_p_listing() {
    check(
        "export A=1; export B='x y'; export -p | while read l; do case $l in *A=*|*B=*) echo $l;; esac; done",
        "declare -x A=\"1\"\ndeclare -x B=\"x y\"\n",
        "",
        0,
    );
}

#[test]
fn readonly_in_function() {
    check("readonly X=1; f() { X=2; }; f; echo after $X", "", "environment: line 1: X: readonly variable\n", 1);
}

#[test]
fn bash_c_positional() {
    check("bash -c 'echo $# $@' name a b", "2 a b\n", "", 0);
}

#[test]
fn bash_script_with_args() {
    check("echo 'echo $0 $1; exit 4' > s.sh; bash s.sh arg; echo $?", "s.sh arg\n4\n", "", 0);
}

#[test]
fn sh_c_set_e() {
    check("sh -c 'set -e; false; echo no'; echo $?", "1\n", "", 0);
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
fn subshell_cd() {
    check("(cd d && echo in ${PWD##*/}); [ -d d ] && echo back", "in d\nback\n", "", 0);
}

#[test]
fn pwd_after_cd_dotdot() {
    check("cd d/sub; cd ..; echo ${PWD##*/}; cd - >/dev/null; echo ${OLDPWD##*/} ${PWD##*/}", "d\nd sub\n", "", 0);
}

#[test]
fn cd_file() {
    check("echo x > f; cd f; echo $?", "1\n", "bash: line 1: cd: f: Not a directory\n", 0);
}

#[test]
fn special_dollar_hash_in_func() {
    check("f() { echo $#; }; f a b c; f", "3\n0\n", "", 0);
}

#[test]
fn param_length_unicode_free() {
    check("x=abcdef; echo ${#x}", "6\n", "", 0);
}

#[test]
fn replace_with_slash_and_special() {
    check("p=/a/b/c; echo ${p//\\//:} ${p#/} ${p%/*} ${p##*/}", ":a:b:c a/b/c /a/b c\n", "", 0);
}

#[test]
fn replace_anchored_empty() {
    check("x=abc; echo ${x/#/>} ${x/%/<}", ">abc abc<\n", "", 0);
}

#[test]
fn replace_ampersand() {
    check("x=abc; echo ${x/b/[&]} \"${x/b/\\&}\"", "a[b]c a&c\n", "", 0);
}

#[test]
fn upper_lower_arrays() {
    check("a=(ab cd); echo ${a[@]^^} ${a[@],}", "AB CD ab cd\n", "", 0);
}

#[test]
fn substring_negative_length() {
    check("x=abcdef; echo ${x:1:-2} ${x: -4:-1}", "bcd cde\n", "", 0);
}

#[test]
fn default_with_array() {
    check("a=(); echo ${a[@]:-empty}; b=(x); echo ${b[@]:-empty}", "empty\nx\n", "", 0);
}

#[test]
fn indirect_array() {
    check("a=(x y); n='a[1]'; echo ${!n}", "y\n", "", 0);
}

#[test]
fn star_vs_at_in_string() {
    check("set -- a b; x=\"$@\"; y=\"$*\"; echo \"$x|$y\"", "a b|a b\n", "", 0);
}

#[test]
fn empty_string_args() {
    check("f() { echo $#; }; f '' \"\" $empty \"$empty\"", "3\n", "", 0);
}

#[test]
fn line_continuation() {
    check("echo a \\\nb; x=1\\\n2; echo $x", "a b\n12\n", "", 0);
}

#[test]
fn comments() {
    check("echo a # comment\n# full line\necho b#notcomment", "a\nb#notcomment\n", "", 0);
}

#[test]
fn semicolons_and_newlines() {
    check("echo a;echo b\n\necho c", "a\nb\nc\n", "", 0);
}

#[test]
fn background_output_comes_before_what_follows_wait() {
    check("echo bg & wait; echo after", "bg\nafter\n", "", 0);
}

#[test]
fn assignment_only_status() {
    check("x=1; echo $?; false; x=2; echo $?", "0\n0\n", "", 0);
}

#[test]
fn multiple_assignments() {
    check("a=1 b=2 c=$a$b; echo $a $b $c", "1 2 12\n", "", 0);
}

#[test]
fn assignment_no_split_no_glob() {
    check("x='a  *'; y=$x; echo \"$y\"", "a  *\n", "", 0);
}

#[test]
fn append_to_unset() {
    check("unset z; z+=abc; echo $z", "abc\n", "", 0);
}

#[test]
fn quote_removal_mixed() {
    check("echo 'a'\"b\"c\\d\"$HOME\"", "abcd/\n", "", 0);
}

#[test]
fn double_quote_backslash() {
    check("echo \"a\\nb\" \"a\\\\b\" \"\\$x\" \"\\`\" \"\\\"\"", "a\\nb a\\b $x ` \"\n", "", 0);
}

#[test]
fn ansi_c_quote() {
    check("echo $'a\\'b' $'\\x41\\u00e9'", "a'b A\\u00E9\n", "", 0);
}

#[test]
fn dollar_alone() {
    check("echo $ a$ \"$\" $'x'", "$ a$ $ x\n", "", 0);
}

#[test]
fn hash_not_comment_in_word() {
    check("echo a#b ${#} x#", "a#b 0 x#\n", "", 0);
}

// ----- third batch: script shapes agents write -----

#[test]
fn regex_unquoted_classes() {
    check("[[ 123 =~ ^[0-9]+$ ]] && echo num; [[ 'a b' =~ a\\ b ]] && echo sp; x=foo; [[ $x =~ (foo|bar) ]] && echo alt ${BASH_REMATCH[1]}; [[ ab =~ ^(a)(x)?b$ ]]; echo \"[${BASH_REMATCH[2]}]\"", "num\nsp\nalt foo\n[]\n", "", 0);
}

#[test]
fn script_usage_check() {
    check(
        "main() { if [ $# -lt 1 ]; then echo \"usage: $0 arg\" >&2; return 2; fi; echo ok; }; main; echo rc=$?; main x",
        "rc=2\nok\n",
        "usage: bash arg\n",
        0,
    );
}

#[test]
fn counter_loop_with_arith() {
    check("count=0; for f in d/*.txt; do count=$((count + 1)); done; echo \"$count files\"", "2 files\n", "", 0);
}

#[test]
fn string_building() {
    check("out=''; for w in a b c; do out+=\"$w,\"; done; echo \"${out%,}\"", "a,b,c\n", "", 0);
}

#[test]
fn array_accumulate() {
    check("arr=(); for i in 1 2 3; do arr+=(\"item $i\"); done; echo ${#arr[@]}; printf_missing=1; for x in \"${arr[@]}\"; do echo \"- $x\"; done", "3\n- item 1\n- item 2\n- item 3\n", "", 0);
}

#[test]
fn join_array_ifs() {
    check("arr=(a b c); (IFS=,; echo \"${arr[*]}\"); echo \"${arr[*]}\"", "a,b,c\na b c\n", "", 0);
}

#[test]
fn function_returns_via_echo() {
    check("get() { echo \"value-$1\"; }; v=$(get x); echo $v", "value-x\n", "", 0);
}

#[test]
fn default_args_in_function() {
    check(
        "greet() { local name=${1:-world}; echo \"hello $name\"; }; greet; greet bob",
        "hello world\nhello bob\n",
        "",
        0,
    );
}

#[test]
fn check_file_exists() {
    check("if [ -f d/a.txt ]; then echo exists; fi; if [ ! -f d/zzz ]; then echo missing; fi; [ -d d/sub ] && echo subdir", "exists\nmissing\nsubdir\n", "", 0);
}

#[test]
fn write_then_read_file() {
    check("echo 'line1' > out.txt; echo 'line2' >> out.txt; n=0; while IFS= read -r l; do n=$((n+1)); echo \"$n: $l\"; done < out.txt", "1: line1\n2: line2\n", "", 0);
}

#[test]
fn heredoc_to_file() {
    check("while read l; do echo $l; done > gen.txt <<EOF\nalpha\nbeta\nEOF\nwhile read l; do echo got $l; done < gen.txt", "got alpha\ngot beta\n", "", 0);
}

#[test]
fn case_in_loop_with_options() {
    check("for arg in -v --name=x file; do case $arg in -v) echo verbose;; --name=*) echo \"name=${arg#*=}\";; -*) echo unknown;; *) echo \"positional $arg\";; esac; done", "verbose\nname=x\npositional file\n", "", 0);
}

#[test]
fn while_shift_args() {
    check("set -- -a 1 -b 2 rest; while [ $# -gt 0 ]; do case $1 in -a) A=$2; shift 2;; -b) B=$2; shift 2;; *) break;; esac; done; echo $A $B $1", "1 2 rest\n", "", 0);
}

#[test]
fn nested_cmdsub_quotes() {
    check("x=\"$(echo \"$(echo 'a  b')\")\"; echo \"$x\"", "a  b\n", "", 0);
}

#[test]
fn arith_in_condition() {
    check("n=7; if (( n % 2 == 1 )); then echo odd; fi; (( n > 5 && n < 10 )) && echo range", "odd\nrange\n", "", 0);
}

#[test]
fn ternary_and_assignment() {
    check("a=3; b=$(( a > 2 ? a * 2 : 0 )); echo $b; (( c = a + b )); echo $c", "6\n9\n", "", 0);
}

#[test]
fn errexit_with_trap_cleanup() {
    check(
        "set -e; cleanup() { echo cleanup $?; }; trap cleanup EXIT; echo work; false; echo never",
        "work\ncleanup 1\n",
        "",
        1,
    );
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
fn subshell_exit_code() {
    check("(exit 42); echo $?; ( false ) || echo failed", "42\nfailed\n", "", 0);
}

#[test]
fn brace_group_status() {
    check("{ false; }; echo $?; { true; false; true; }; echo $?", "1\n0\n", "", 0);
}

#[test]
fn readonly_and_declare_r() {
    check("declare -r C=1; C=2; echo no", "", "bash: line 1: C: readonly variable\n", 1);
}

#[test]
fn unset_in_loop() {
    check("for v in A B; do declare $v=1; done; echo $A $B; unset A; echo ${A:-gone}", "1 1\ngone\n", "", 0);
}

#[test]
fn declare_dynamic_name() {
    check("name=foo; declare \"$name=bar\"; echo $foo; export \"X_$name=1\"; echo $X_foo", "bar\n1\n", "", 0);
}

#[test]
fn local_in_recursion() {
    check("f() { local n=$1; if [ $n -gt 0 ]; then f $((n-1)); fi; echo $n; }; f 3", "0\n1\n2\n3\n", "", 0);
}

#[test]
fn eval_array_build() {
    check("eval \"arr=(1 2 3)\"; echo ${arr[2]}; i=2; eval \"v$i=x\"; echo $v2", "3\nx\n", "", 0);
}

#[test]
fn indirect_assignment_via_printf_free() {
    check("n=var; eval \"$n=assigned\"; echo $var", "assigned\n", "", 0);
}

#[test]
fn string_contains() {
    check("s=foobar; [[ $s == *oba* ]] && echo contains; [[ $s != *xyz* ]] && echo lacks; case $s in *bar) echo endsbar;; esac", "contains\nlacks\nendsbar\n", "", 0);
}

#[test]
fn string_trim() {
    check(
        "s='  padded  '; t=\"${s#\"${s%%[![:space:]]*}\"}\"; t=\"${t%\"${t##*[![:space:]]}\"}\"; echo \"[$t]\"",
        "[padded]\n",
        "",
        0,
    );
}

#[test]
fn uppercase_var() {
    check("v=hello; echo ${v^^}; declare -u U=abc 2>/dev/null; echo ${v:0:1}", "HELLO\nh\n", "", 0);
}

#[test]
fn basename_dirname_param() {
    check(
        "p=/usr/local/bin/tool.sh; echo ${p##*/} ${p%/*} ${p##*.} $(f=${p##*/}; echo ${f%.*})",
        "tool.sh /usr/local/bin sh tool\n",
        "",
        0,
    );
}

#[test]
fn seq_with_brace_and_step() {
    check("for i in {0..20..5}; do echo -n \"$i \"; done; echo", "0 5 10 15 20 \n", "", 0);
}

#[test]
fn c_style_nested_loops() {
    check("for ((i=1;i<=2;i++)); do for ((j=1;j<=2;j++)); do echo $i$j; done; done", "11\n12\n21\n22\n", "", 0);
}

#[test]
fn while_read_with_ifs_split() {
    check("while IFS=, read -r a b; do echo \"$b:$a\"; done <<< $'1,x\\n2,y'", "x:1\ny:2\n", "", 0);
}

#[test]
fn read_from_string_multiple() {
    check("IFS=' ' read -r -a parts <<< 'a b  c'; echo ${#parts[@]} ${parts[2]}", "3 c\n", "", 0);
}

#[test]
fn exit_code_propagation() {
    check("f() { return 3; }; if ! f; then echo \"failed with $?\"; fi", "failed with 0\n", "", 0);
}

#[test]
fn last_status_in_trap_exit() {
    check("trap 'echo exit=$?' EXIT; (exit 7)", "exit=7\n", "", 7);
}

#[test]
fn command_not_found_in_cond() {
    check("if nosuch 2>/dev/null; then echo yes; else echo \"no $?\"; fi", "no 127\n", "", 0);
}

#[test]
fn stderr_to_stdout_capture() {
    check("x=$(nosuch 2>&1); echo \"[$x]\"", "[bash: line 1: nosuch: command not found]\n", "", 0);
}

#[test]
fn redirect_stderr_file_then_read() {
    check("nosuch 2> err.txt; read -r e < err.txt; echo \"$e\"", "bash: line 1: nosuch: command not found\n", "", 0);
}

#[test]
fn append_stderr() {
    check(
        "nosuch1 2>> e; nosuch2 2>> e; while read l; do echo \"$l\"; done < e",
        "bash: line 1: nosuch1: command not found\nbash: line 1: nosuch2: command not found\n",
        "",
        0,
    );
}

#[test]
fn dev_null_both() {
    check("nosuch &> /dev/null; echo $?", "127\n", "", 0);
}

#[test]
fn group_output_to_file() {
    check("{ echo a; echo b; } > f; { read x; read y; } < f; echo $y$x", "ba\n", "", 0);
}

#[test]
fn noexec_function_redefine() {
    check("f() { echo one; }; f; f() { echo two; }; f", "one\ntwo\n", "", 0);
}

#[test]
fn function_name_with_dash() {
    check("my-func() { echo dash; }; my-func", "dash\n", "", 0);
}

#[test]
fn positional_star_in_func() {
    check("f() { echo \"$*\"; echo \"$@\"; echo $#; }; f 'a b' c", "a b c\na b c\n2\n", "", 0);
}

#[test]
fn special_chars_in_strings() {
    check("echo 'It'\\''s' \"a\\\"b\" 'x;y' 'p|q' \"\\$HOME\" '&&'", "It's a\"b x;y p|q $HOME &&\n", "", 0);
}

#[test]
fn glob_no_match_in_test() {
    check("if [ -e d/*.none ]; then echo yes; else echo no; fi", "no\n", "", 0);
}

#[test]
fn glob_star_count() {
    check("set -- d/*; echo $#; set -- d/.*; echo $#", "3\n1\n", "", 0);
}

#[test]
fn arith_hex_octal_output() {
    check("echo $((16#ff)) $((0xFF)) $((0777)) $((2#1111))", "255 255 511 15\n", "", 0);
}

#[test]
fn negative_numbers() {
    check("x=-5; echo $((x * -1)) $(( -x )) $((x < 0))", "5 5 1\n", "", 0);
}

#[test]
fn big_numbers() {
    check("echo $((9223372036854775807 + 1)) $((1 << 62))", "-9223372036854775808 4611686018427387904\n", "", 0);
}

#[test]
fn let_multiple_and_increment() {
    check("i=5; let i++ i+=10; echo $i", "16\n", "", 0);
}

#[test]
fn echo_special_args() {
    check("echo -n; echo '-n'; echo \"-e\" x; echo -nn a; echo", "x\na\n", "", 0);
}

#[test]
fn empty_script_status() {
    check("", "", "", 0);
}

#[test]
fn only_comment() {
    check("# nothing", "", "", 0);
}

#[test]
fn true_false_chain() {
    check("true; echo $?; false; echo $?; :; echo $?", "0\n1\n0\n", "", 0);
}

#[test]
fn test_with_equals_chars() {
    check("x='a=b'; [ \"$x\" = 'a=b' ] && echo ok; [ -n \"$x\" -a \"$x\" != c ] && echo ok2", "ok\nok2\n", "", 0);
}

#[test]
fn unset_positional_check() {
    check("f() { [ -z \"${2+x}\" ] && echo no-second; }; f one", "no-second\n", "", 0);
}

#[test]
fn case_with_brackets_and_quotes() {
    check("for c in 'a' '1' '-' ' '; do case \"$c\" in [a-z]) echo letter;; [0-9]) echo digit;; -) echo dash;; ' ') echo space;; esac; done", "letter\ndigit\ndash\nspace\n", "", 0);
}

#[test]
fn heredoc_quoted_delim_variants() {
    check("while read l; do echo \"$l\"; done <<\"END\"\n$HOME\nEND\nwhile read l; do echo \"$l\"; done <<\\END\n$HOME\nEND", "$HOME\n$HOME\n", "", 0);
}

#[test]
fn heredoc_backslash_newline() {
    check("while read -r l; do echo \"$l\"; done <<EOF\na \\\nb\nEOF", "a b\n", "", 0);
}

#[test]
fn herestring_variable_with_newlines() {
    check("x=$'1\\n2\\n3'; n=0; while read l; do n=$((n+l)); done <<< \"$x\"; echo $n", "6\n", "", 0);
}

#[test]
fn command_builtin_bypass_function() {
    check(
        "echo() { command echo \"wrapped: $*\"; }; echo hi; unset -f echo; echo plain",
        "wrapped: hi\nplain\n",
        "",
        0,
    );
}

#[test]
fn type_of_keyword_and_builtins() {
    check("type -t if read [ [[ 2>&1", "keyword\nbuiltin\nbuiltin\nkeyword\n", "", 0);
}

#[test]
fn getopts_silent() {
    check("f() { local OPTIND opt; while getopts ':a:' opt; do case $opt in a) echo a=$OPTARG;; :) echo missing $OPTARG;; \\?) echo bad $OPTARG;; esac; done; }; f -a 1 -x -a", "a=1\nbad x\nmissing a\n", "", 0);
}

#[test]
fn source_defines_functions() {
    check("echo 'lib_f() { echo lib $1; }' > lib.sh; . lib.sh; lib_f x", "lib x\n", "", 0);
}

#[test]
fn bash_inline_script_errexit() {
    check("bash -e -c 'echo a; false; echo b'; echo rc=$?", "a\nrc=1\n", "", 0);
}

#[test]
fn sh_heredoc_script() {
    check("sh <<'EOF'\necho from stdin script $((1+2))\nEOF", "from stdin script 3\n", "", 0);
}

#[test]
fn cd_and_relative_files() {
    check(
        "cd d; [ -f a.txt ] && echo here; cd sub; [ -f ../b.txt ] && echo parent; cd ../..; [ -d d ] && echo root",
        "here\nparent\nroot\n",
        "",
        0,
    );
}

#[test]
fn pwd_builtin_after_cd() {
    check("cd d/sub; pwd | { read p; echo ${p#*/d/}; }", "sub\n", "", 0);
}

#[test]
fn arith_for_with_commas() {
    check("for ((i=0, j=10; i<3; i++, j--)); do echo $i $j; done", "0 10\n1 9\n2 8\n", "", 0);
}

#[test]
fn while_false_never_runs() {
    check("while false; do echo no; done; echo $?", "0\n", "", 0);
}

#[test]
fn infinite_loop_with_break() {
    check("n=0; while :; do n=$((n+1)); [ $n -ge 5 ] && break; done; echo $n", "5\n", "", 0);
}

#[test]
fn until_with_complex_cond() {
    check("i=0; until [ $i -ge 3 ] || [ $i -lt 0 ]; do i=$((i+1)); done; echo $i", "3\n", "", 0);
}

#[test]
fn arrays_of_paths_glob_loop() {
    check(
        "files=(d/*.txt); for f in \"${files[@]}\"; do echo \"${f##*/} -> ${f%.txt}.bak\"; done",
        "a.txt -> d/a.bak\nb.txt -> d/b.bak\n",
        "",
        0,
    );
}

#[test]
fn substring_in_loop() {
    check("s=abcdef; for ((i=0; i<${#s}; i+=2)); do echo ${s:i:2}; done", "ab\ncd\nef\n", "", 0);
}

#[test]
fn funcname() {
    check(
        "f() { echo \"${FUNCNAME[@]}\" $FUNCNAME ${#FUNCNAME[@]}; g; }; g() { echo \"${FUNCNAME[@]}\"; }; f; echo \"[${FUNCNAME[@]}]\" \"[$FUNCNAME]\"",
        "f f 1\ng f\n[] []\n",
        "",
        0,
    );
}

// ----- multi-line scripts and line numbers -----

#[test]
fn heredoc_in_cmdsub() {
    check("x=$(while read l; do echo \"<$l>\"; done <<EOF\nin sub\nEOF\n); echo \"$x\"", "<in sub>\n", "", 0);
}

#[test]
fn cmdsub_multiline_script() {
    check("x=$(\n  echo one\n  echo two\n); echo $x", "one two\n", "", 0);
}

#[test]
fn function_multiline_with_comments() {
    check("f() {\n  # comment\n  local a=1  # trailing\n  echo $a\n}\nf", "1\n", "", 0);
}

#[test]
fn if_multiline_elif() {
    check(
        "x=2\nif [ $x -eq 1 ]; then\n  echo one\nelif [ $x -eq 2 ]; then\n  echo two\nelse\n  echo other\nfi",
        "two\n",
        "",
        0,
    );
}

#[test]
fn case_multiline() {
    check("case \"$1\" in\n  start)\n    echo s\n    ;;\n  *)\n    echo default\n    ;;\nesac", "default\n", "", 0);
}

#[test]
fn pipeline_multiline() {
    check("echo a |\n  { read x; echo $x; }", "a\n", "", 0);
}

#[test]
fn and_or_multiline() {
    check("true &&\n  echo yes ||\n  echo no", "yes\n", "", 0);
}

#[test]
fn lineno_in_error() {
    check("echo ok\n\nnosuch\necho $LINENO", "ok\n4\n", "bash: line 3: nosuch: command not found\n", 0);
}

#[test]
fn error_line_in_loop() {
    check("for i in 1; do\n  nosuch\ndone", "", "bash: line 2: nosuch: command not found\n", 127);
}

#[test]
fn unbound_line() {
    check("set -u\necho a\necho $nope", "a\n", "bash: line 3: nope: unbound variable\n", 127);
}

#[test]
fn arith_error_line() {
    check("x=1\necho $(( x / 0 ))", "", "bash: line 2: x / 0 : division by 0 (error token is \"0 \")\n", 1);
}

#[test]
fn set_e_line_continues_status() {
    check("set -e\nfalse\necho no", "", "", 1);
}

// ----- exec -----

#[test]
fn exec_stdout_to_file() {
    check(
        "exec > log; echo one; echo two; exec >&2; echo err-now; while read l; do echo \"<$l>\"; done < log >&2",
        "",
        "err-now\n<one>\n<two>\n",
        0,
    );
}

#[test]
fn exec_stderr_to_stdout() {
    check("exec 2>&1; echo out; nosuch; echo after", "out\nbash: line 1: nosuch: command not found\nafter\n", "", 0);
}

#[test]
fn exec_stderr_to_null() {
    check("exec 2>/dev/null; nosuch; echo silent", "silent\n", "", 0);
}

#[test]
fn exec_in_subshell() {
    check("(exec > sub.txt; echo inside); echo outside; read x < sub.txt; echo $x", "outside\ninside\n", "", 0);
}

#[test]
fn exec_stdin() {
    check("echo -e 'l1\\nl2' > in; exec < in; read a; read b; echo $b $a", "l2 l1\n", "", 0);
}

#[test]
fn exec_command() {
    check("exec echo replaced; echo never", "replaced\n", "", 0);
}

#[test]
fn exec_append() {
    check(
        "echo first > log; exec >> log; echo second; exec >&2; while read l; do echo $l; done < log",
        "",
        "first\nsecond\n",
        0,
    );
}

#[test]
fn exec_inside_a_redirected_command_is_refused() {
    let (out, err, code) = run("{ exec >f; echo x; } > g; echo $?");
    assert_eq!((out.as_str(), code), ("0\n", 0));
    assert!(err.contains("exec: redirections inside"), "{err}");
}

// ----- shopt -----

#[test]
fn shopt_nullglob() {
    check("for f in d/*.none; do echo \"[$f]\"; done; shopt -s nullglob; for f in d/*.none; do echo \"[$f]\"; done; echo end; a=(d/*.none); echo ${#a[@]}; shopt -u nullglob; echo d/*.none", "[d/*.none]\nend\n0\nd/*.none\n", "", 0);
}

#[test]
fn shopt_dotglob() {
    check(
        "cd d; shopt -s dotglob; echo *; shopt -u dotglob; echo *",
        ".hidden a.txt b.txt sub\na.txt b.txt sub\n",
        "",
        0,
    );
}

#[test]
fn shopt_query() {
    check("shopt -q nullglob; echo $?; shopt -s nullglob; shopt -q nullglob; echo $?", "1\n0\n", "", 0);
}

// ----- more edge cases -----

#[test]
fn ifs_empty_read_preserves() {
    check(
        "IFS= read -r l <<< '  a  b  '; echo \"[$l]\"; while IFS= read -r l; do echo \"[$l]\"; done <<< $'  x\\n\\ty '",
        "[  a  b  ]\n[  x]\n[\ty ]\n",
        "",
        0,
    );
}

#[test]
fn read_fewer_fields() {
    check("read a b c <<< 'one'; echo \"[$a][$b][$c]\"", "[one][][]\n", "", 0);
}

#[test]
fn empty_defaults_at() {
    check("set --; echo \"[${@:-none}]\"; a=(); echo \"[${a[@]:-empty}]\"", "[none]\n[empty]\n", "", 0);
}

#[test]
fn arith_increment_array_elem() {
    check("a=(1 2); (( a[1]++ )); echo ${a[@]}; declare -A m; (( m[x] += 5 )); echo ${m[x]}", "1 3\n5\n", "", 0);
}

#[test]
fn nested_arrays_in_loop() {
    check(
        "matrix=(\"1 2\" \"3 4\"); for row in \"${matrix[@]}\"; do for v in $row; do echo -n \"$v,\"; done; echo; done",
        "1,2,\n3,4,\n",
        "",
        0,
    );
}

#[test]
fn status_of_failed_redirect_in_if() {
    check(
        "if echo x > nodir/f 2>/dev/null; then echo ok; else echo failed; fi",
        "failed\n",
        "bash: line 1: nodir/f: No such file or directory\n",
        0,
    );
}

#[test]
fn var_with_spaces_in_test() {
    check("x='a b'; if [ \"$x\" = 'a b' ]; then echo eq; fi; [ $x = 'a b' ] 2>/dev/null; echo $?", "eq\n2\n", "", 0);
}

#[test]
fn dollar_brace_special() {
    check("set -- a b; echo ${#} ${#@} ${@: -1} ${!#}", "2 2 b b\n", "", 0);
}

#[test]
fn positional_beyond() {
    check("set -- a; echo \"[${5}]\" \"[${5:-d}]\"", "[] [d]\n", "", 0);
}

#[test]
fn unset_array_whole() {
    check("a=(1 2 3); unset a; echo ${#a[@]} \"[${a[@]}]\"", "0 []\n", "", 0);
}

#[test]
fn declare_array_append_mixed() {
    check("declare -a a; a+=(x); a+=(y z); echo ${a[@]} ${#a[@]}", "x y z 3\n", "", 0);
}

#[test]
fn string_repeat_loop() {
    check("s=''; for i in {1..3}; do s+='ab'; done; echo $s ${#s}", "ababab 6\n", "", 0);
}

#[test]
fn modify_loop_var_after() {
    check("for i in 1 2 3; do :; done; echo $i", "3\n", "", 0);
}

#[test]
fn case_modifier_in_pattern() {
    check("x=Hello; case ${x,,} in hello) echo lower-match;; esac", "lower-match\n", "", 0);
}

#[test]
fn arith_with_leading_zero_var() {
    check("x=08; echo $((10#$x)); y=010; echo $((y))", "8\n8\n", "", 0);
}

#[test]
fn arith_error_base() {
    check(
        "x=08; echo $((x)); echo after",
        "",
        "bash: line 1: 08: value too great for base (error token is \"08\")\n",
        1,
    );
}

// ----- limits, cancellation, write set, sessions -----

fn limited(limits: Limits) -> Shell {
    Shell::new(seeded(), ShellOptions { limits, ..options() })
}

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
fn write_set_lists_written_paths() {
    let storage = seeded();
    let mut shell = Shell::new(storage.clone(), options());
    let result =
        shell.run("echo a > /x; echo b >> d/y; echo c > /x; cat d/a.txt > /dev/null 2>&1; echo $(< d/a.txt)", None);
    assert_eq!(result.write_set, ["/d/y", "/x"]);
    assert_eq!(storage.read("/x").unwrap(), b"c\n");
    let result = shell.run("echo read only; read x < d/a.txt", None);
    assert!(result.write_set.is_empty());
}

#[test]
fn session_state_persists_and_resets() {
    let mut shell = Shell::new(seeded(), options());
    let result = shell.run("cd d; x=1; f() { echo f$1; }; set -- p q; set -e; export E=2", None);
    assert_eq!(result.exit_code, 0);
    let result = shell.run("pwd; echo $x $E $# $1; f 1; echo *.txt", None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "/d\n1 2 2 p\nf1\na.txt b.txt\n");
    // `exit` ends the run, not the session.
    let result = shell.run("exit 3", None);
    assert_eq!(result.exit_code, 3);
    let result = shell.run("echo $?; false; echo still here", None);
    // set -e persisted: `false` ends this run.
    assert_eq!(String::from_utf8_lossy(&result.stdout), "3\n");
    assert_eq!(result.exit_code, 1);
    shell.reset();
    let result = shell.run("pwd; echo \"[$x]\"; f 2>/dev/null || echo no f; false; echo on", None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "/\n[]\nno f\non\n");
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
fn compgen_lists_names() {
    let (out, _, code) = run("f() { :; }; compgen -c ec; compgen -A function; x1=1; compgen -v x1");
    assert_eq!((out.as_str(), code), ("echo\nf\nx1\n", 0));
}

#[test]
fn shell_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Shell>();
}

// `bash -c` runs one complete command at a time: those before a syntax
// error run, then the error ends the script with status 2.
#[test]
fn commands_before_a_syntax_error_run() {
    check(
        "echo start\necho a ) b\necho never",
        "start\n",
        "bash: -c: line 2: syntax error near unexpected token `)'\nbash: -c: line 2: `echo a ) b'\n",
        2,
    );
}

// An arithmetic error abandons the current top-level command (the rest of
// its line, the function it was in) and the script goes on with the next.
#[test]
fn an_arithmetic_error_abandons_only_its_command() {
    let (stdout, stderr, code) =
        run("echo $((1/0)); echo same-line\nf() { echo $((2/0)); echo in-f; }; f; echo after-f\necho \"next $?\"");
    assert_eq!(stdout, "next 1\n");
    assert_eq!(stderr.matches("division by 0").count(), 2, "{stderr}");
    assert_eq!(code, 0);
}

#[test]
fn return_outside_a_function_is_status_2_and_the_script_goes_on() {
    check("return 2>/dev/null; echo \"status $?\"", "status 2\n", "", 0);
}

// ----- streaming pipelines (issue 17) -----
// Expected outputs recorded with bash 5.2 and GNU coreutils, C locale.

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
fn dev_null_takes_any_amount() {
    // Past the 1 MiB output limit: /dev/null keeps nothing, so no limit applies.
    check("seq 1 300000 > /dev/null; echo $?", "0\n", "", 0);
    check("seq 1 300000 2>/dev/null >&2; echo $?", "0\n", "", 0);
    check("{ seq 1 300000; echo kept; } 2>&1 >/dev/null | wc -l", "0\n", "", 0);
    check("seq 1 300000 &>/dev/null; echo $?", "0\n", "", 0);
}

#[test]
fn small_writes_fit_in_the_pipe_even_when_nobody_reads() {
    check("echo hi | true; echo ${PIPESTATUS[@]}", "0 0\n", "", 0);
    check("seq 1 5 | head -n 1; echo ${PIPESTATUS[@]}", "1\n0 0\n", "", 0);
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
    assert!(started.elapsed() < std::time::Duration::from_secs(8), "{:?}", started.elapsed());
}

// ----- process substitution as arguments, lastpipe (issue 17) -----

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

#[test]
fn descriptors_three_to_nine_open_with_exec_and_per_command() {
    check("exec 3>/o; echo hi >&3; echo there >&3; exec 3>&-; cat /o", "hi\nthere\n", "", 0);
    check("echo a > /o; exec 3>>/o; echo more >&3; exec 3>&-; cat /o", "a\nmore\n", "", 0);
    check("printf 'l1\\nl2\\n' > /i; exec 3</i; read -u 3 a; read -u 3 b; echo \"$b $a\"; exec 3<&-", "l2 l1\n", "", 0);
    check("echo hi >&5; echo $?", "1\n", "bash: line 1: 5: Bad file descriptor\n", 0);
    check("read -u 4 x; echo $?", "1\n", "bash: line 1: read: 4: invalid file descriptor: Bad file descriptor\n", 0);
    check("{ echo out; echo err >&2; } 3>&1 1>&2 2>&3 | tr a-z A-Z", "ERR\n", "out\n", 0);
    check("{ echo to3 >&3; } 3>&1", "to3\n", "", 0);
    check("echo x 3>/f3 >&3; cat /f3", "x\n", "", 0);
    check("exec 3>&1; echo via3 >&3", "via3\n", "", 0);
    check("exec 3>/o; exec 3>&-; echo x >&3; echo $?", "1\n", "bash: line 1: 3: Bad file descriptor\n", 0);
    check("exec 4<&0; echo ok", "ok\n", "", 0);
}
