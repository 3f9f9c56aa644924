//! The builtins: echo, printf, read, declare, test and [[ ]], set/shopt, eval, source, getopts…

use super::*;

#[test]
fn simple_echo() {
    check("echo hi; echo a   b 'c  d'", "hi\na b c  d\n", "", 0);
}

#[test]
fn error_if_unset() {
    check("echo ${Z:?not set}; echo unreachable", "", "bash: line 1: Z: not set\n", 127);
}

#[test]
fn sparse_unset() {
    check("unset a; a[2]=x; a[0]=y; echo ${a[@]} ${#a[@]}; unset 'a[2]'; echo ${a[@]}", "y x 2\ny\n", "", 0);
}

#[test]
fn command_substitution() {
    check("x=$(echo hi; echo there); echo \"$x\"; y=`echo back`; echo $y; echo \"$(echo -e 'a\\n\\n\\n')\"end; x=`echo \\`echo nested\\``; echo $x $(echo $(echo deep))", "hi\nthere\nback\naend\nnested deep\n", "", 0);
}

#[test]
fn division_by_zero_command() {
    check("((1/0)); echo rc=$?", "rc=1\n", "bash: line 1: ((: 1/0: division by 0 (error token is \"0\")\n", 0);
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
fn read_backslashes() {
    check("read x <<< 'a\\tb'; echo \"$x\"; read -r x <<< 'a\\tb'; echo \"$x\"", "atb\na\\tb\n", "", 0);
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
fn temp_env() {
    check(
        "f() { echo $VAR $1; }; VAR=tmp f x; echo \"[${VAR-unset}]\"; x=1; x=2 eval 'echo $x'; echo $x",
        "tmp x\n[unset]\n2\n1\n",
        "",
        0,
    );
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
fn command_not_found() {
    check("nosuchcmd arg; echo $?", "127\n", "bash: line 1: nosuchcmd: command not found\n", 0);
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
fn string_compare_in_test() {
    check("[ abc \\< abd ] && echo less; [[ abc < abd ]] && echo less2", "less\nless2\n", "", 0);
}

#[test]
fn ifs_read_multiple() {
    check("echo 'a:b:c' | { IFS=: read -r x y z; echo $z $y $x; }", "c b a\n", "", 0);
}

#[test]
fn ifs_unset() {
    check("x='a  b'; unset IFS; echo $x; set -- $x; echo $#", "a b\n2\n", "", 0);
}

#[test]
fn glob_in_case_and_test() {
    check("f=x.txt; case $f in *.txt) echo txt;; esac; [[ $f == *.t?t ]] && echo match", "txt\nmatch\n", "", 0);
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
fn source_missing() {
    check("source nofile.sh; echo $?", "1\n", "bash: line 1: nofile.sh: No such file or directory\n", 0);
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
fn declare_i_arith() {
    check("declare -i x; x=5*2; echo $x; x+=1; echo $x", "10\n11\n", "", 0);
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
fn bash_c_positional() {
    check("bash -c 'echo $# $@' name a b", "2 a b\n", "", 0);
}

#[test]
fn bash_script_with_args() {
    check("echo 'echo $0 $1; exit 4' > s.sh; bash s.sh arg; echo $?", "s.sh arg\n4\n", "", 0);
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
fn append_to_unset() {
    check("unset z; z+=abc; echo $z", "abc\n", "", 0);
}

#[test]
fn check_file_exists() {
    check("if [ -f d/a.txt ]; then echo exists; fi; if [ ! -f d/zzz ]; then echo missing; fi; [ -d d/sub ] && echo subdir", "exists\nmissing\nsubdir\n", "", 0);
}

#[test]
fn readonly_and_declare_r() {
    check("declare -r C=1; C=2; echo no", "", "bash: line 1: C: readonly variable\n", 1);
}

#[test]
fn declare_dynamic_name() {
    check("name=foo; declare \"$name=bar\"; echo $foo; export \"X_$name=1\"; echo $X_foo", "bar\n1\n", "", 0);
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
fn read_from_string_multiple() {
    check("IFS=' ' read -r -a parts <<< 'a b  c'; echo ${#parts[@]} ${parts[2]}", "3 c\n", "", 0);
}

#[test]
fn command_not_found_in_cond() {
    check("if nosuch 2>/dev/null; then echo yes; else echo \"no $?\"; fi", "no 127\n", "", 0);
}

#[test]
fn glob_no_match_in_test() {
    check("if [ -e d/*.none ]; then echo yes; else echo no; fi", "no\n", "", 0);
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
fn only_comment() {
    check("# nothing", "", "", 0);
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
fn type_of_keyword_and_builtins() {
    check("type -t if read [ [[ 2>&1", "keyword\nbuiltin\nbuiltin\nkeyword\n", "", 0);
}

#[test]
fn getopts_silent() {
    check("f() { local OPTIND opt; while getopts ':a:' opt; do case $opt in a) echo a=$OPTARG;; :) echo missing $OPTARG;; \\?) echo bad $OPTARG;; esac; done; }; f -a 1 -x -a", "a=1\nbad x\nmissing a\n", "", 0);
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
fn var_with_spaces_in_test() {
    check("x='a b'; if [ \"$x\" = 'a b' ]; then echo eq; fi; [ $x = 'a b' ] 2>/dev/null; echo $?", "eq\n2\n", "", 0);
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
fn compgen_lists_names() {
    let (out, _, code) = run("f() { :; }; compgen -c ec; compgen -A function; x1=1; compgen -v x1");
    assert_eq!((out.as_str(), code), ("echo\nf\nx1\n", 0));
}

#[test]
fn shell_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Shell>();
}

/// `hash` checks that each name is a command (bash 5.2 with PATH holding
/// only the shell's commands, as the compat audit ran it).
#[test]
fn hash_reports_missing_commands() {
    check(
        "hash python3; echo $?; hash ls cat; echo $?; f(){ :; }; hash f ./x; echo $?; hash; hash -r; echo $?",
        "1\n0\n0\nhash: hash table empty\n0\n",
        "bash: line 1: hash: python3: not found\n",
        0,
    );
}

/// `mapfile` options bundled and attached, as bash's getopt reads them.
#[test]
fn mapfile_skip_and_count() {
    check(
        "printf '1\\n2\\n3\\n' | { mapfile -t -s1 -n1 a; echo \"${a[@]}\"; }; printf '1\\n2\\n3\\n' | { mapfile -ts1 b; echo \"${b[@]}\"; }; mapfile -x c",
        "2\n2 3\n",
        "bash: line 1: mapfile: -x: invalid option\nmapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n",
        2,
    );
}

/// A here-document the script's end cuts short takes the rest as its body,
/// with bash's warning.
#[test]
fn heredoc_cut_short_by_the_end() {
    check(
        "echo first\ncat <<EOF\na\nb",
        "first\na\nb\n",
        "bash: line 4: warning: here-document at line 2 delimited by end-of-file (wanted `EOF')\n",
        0,
    );
    check(
        "cat <<'EOF'\n$x\n",
        "$x\n",
        "bash: line 2: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n",
        0,
    );
}

/// `export -n` takes the export away; `export -f` prints nothing.
#[test]
fn export_n_and_f() {
    check(
        "export X=1 Y=2; export -n X; env | grep -c '^X='; env | grep '^Y='; f(){ echo fx; }; export -f f; bash -c f; export -f nope; echo $?; export -p | grep -c ' X'",
        "0\nY=2\nfx\n1\n0\n",
        "bash: line 1: export: nope: not a function\n",
        1,
    );
}

/// `set -o` lists every option bash has; `set +o` prints the commands.
#[test]
fn set_o_lists_and_plus_o_restores() {
    let (out, _, status) = run("set -e -o pipefail; set -o; set +o");
    assert_eq!(status, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 54, "{out}");
    assert_eq!(lines[0], "allexport      \toff");
    assert_eq!(lines[3], "errexit        \ton");
    assert_eq!(lines[10], "interactive-comments\ton");
    assert_eq!(lines[27], "set +o allexport");
    assert_eq!(lines[28], "set -o braceexpand");
    assert_eq!(lines[27 + 21], "set -o pipefail");
}
