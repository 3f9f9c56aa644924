//! Control flow and statuses: if/case/loops, functions, errexit/nounset, traps, exit and return, line numbers.

use super::*;

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
fn arith_command_status() {
    check("(( 0 )); echo $?; (( 5 )); echo $?; x=3; (( x > 2 )) && echo big", "1\n0\nbig\n", "", 0);
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
fn read_eof_status() {
    check("read x <<< ''; echo $? \"[$x]\"; printf_missing=1; read -d , x <<< 'a,b'; echo $? $x", "0 []\n0 a\n", "", 0);
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
fn exit_status_of_assignment_cmdsub() {
    check("x=$(exit 7); echo $?", "7\n", "", 0);
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
fn let_status() {
    check("let 'x = 0'; echo $?; let x++; echo $? $x", "1\n1 1\n", "", 0);
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
fn read_multiple_lines_loop_fields() {
    check("printf_missing=1; while IFS=: read -r user rest; do echo \"$user -> $rest\"; done <<'EOF'\nroot:x:0\nbob:y:1\nEOF", "root -> x:0\nbob -> y:1\n", "", 0);
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
fn unset_function_and_var() {
    check("x=1; f() { :; }; unset x f; echo ${x-u}; type -t f; echo $?", "u\n1\n", "", 0);
}

#[test]
fn declare_global_in_function() {
    check("f() { declare -g G=1; declare L=2; }; f; echo ${G-u} ${L-u}", "1 u\n", "", 0);
}

#[test]
fn readonly_in_function() {
    check("readonly X=1; f() { X=2; }; f; echo after $X", "", "environment: line 1: X: readonly variable\n", 1);
}

#[test]
fn sh_c_set_e() {
    check("sh -c 'set -e; false; echo no'; echo $?", "1\n", "", 0);
}

#[test]
fn subshell_cd() {
    check("(cd d && echo in ${PWD##*/}); [ -d d ] && echo back", "in d\nback\n", "", 0);
}

#[test]
fn assignment_only_status() {
    check("x=1; echo $?; false; x=2; echo $?", "0\n0\n", "", 0);
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
fn case_in_loop_with_options() {
    check("for arg in -v --name=x file; do case $arg in -v) echo verbose;; --name=*) echo \"name=${arg#*=}\";; -*) echo unknown;; *) echo \"positional $arg\";; esac; done", "verbose\nname=x\npositional file\n", "", 0);
}

#[test]
fn while_shift_args() {
    check("set -- -a 1 -b 2 rest; while [ $# -gt 0 ]; do case $1 in -a) A=$2; shift 2;; -b) B=$2; shift 2;; *) break;; esac; done; echo $A $B $1", "1 2 rest\n", "", 0);
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
fn subshell_exit_code() {
    check("(exit 42); echo $?; ( false ) || echo failed", "42\nfailed\n", "", 0);
}

#[test]
fn brace_group_status() {
    check("{ false; }; echo $?; { true; false; true; }; echo $?", "1\n0\n", "", 0);
}

#[test]
fn unset_in_loop() {
    check("for v in A B; do declare $v=1; done; echo $A $B; unset A; echo ${A:-gone}", "1 1\ngone\n", "", 0);
}

#[test]
fn local_in_recursion() {
    check("f() { local n=$1; if [ $n -gt 0 ]; then f $((n-1)); fi; echo $n; }; f 3", "0\n1\n2\n3\n", "", 0);
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
fn exit_code_propagation() {
    check("f() { return 3; }; if ! f; then echo \"failed with $?\"; fi", "failed with 0\n", "", 0);
}

#[test]
fn last_status_in_trap_exit() {
    check("trap 'echo exit=$?' EXIT; (exit 7)", "exit=7\n", "", 7);
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
fn empty_script_status() {
    check("", "", "", 0);
}

#[test]
fn true_false_chain() {
    check("true; echo $?; false; echo $?; :; echo $?", "0\n1\n0\n", "", 0);
}

#[test]
fn case_with_brackets_and_quotes() {
    check("for c in 'a' '1' '-' ' '; do case \"$c\" in [a-z]) echo letter;; [0-9]) echo digit;; -) echo dash;; ' ') echo space;; esac; done", "letter\ndigit\ndash\nspace\n", "", 0);
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
fn source_defines_functions() {
    check("echo 'lib_f() { echo lib $1; }' > lib.sh; . lib.sh; lib_f x", "lib x\n", "", 0);
}

#[test]
fn bash_inline_script_errexit() {
    check("bash -e -c 'echo a; false; echo b'; echo rc=$?", "a\nrc=1\n", "", 0);
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
fn nested_arrays_in_loop() {
    check(
        "matrix=(\"1 2\" \"3 4\"); for row in \"${matrix[@]}\"; do for v in $row; do echo -n \"$v,\"; done; echo; done",
        "1,2,\n3,4,\n",
        "",
        0,
    );
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
