//! Bash compatibility fixes of the second audit (issue 17): messages of
//! builtins and expansions, `set -x` around redirections and inside
//! substitutions, a failed assignment's message. Expectations recorded
//! from bash 5.2 (`env -i LC_ALL=C bash -c`).

use super::*;

#[test]
fn printf_messages_say_where() {
    check("printf '%d\\n' abc", "0\n", "bash: line 1: printf: abc: invalid number\n", 1);
    check("printf", "", "printf: usage: printf [-v var] format [arguments]\n", 2);
    check("f() { printf '%d' x; }\nf", "0", "environment: line 1: printf: x: invalid number\n", 1);
    // `printf -v` said it already.
    check("printf -v v '%d' x; echo $v", "0\n", "bash: line 1: printf: x: invalid number\n", 0);
}

#[test]
fn bad_substitution_has_its_line() {
    check("x=1\necho ${x.y}\necho after", "after\n", "bash: line 2: ${x.y}: bad substitution\n", 0);
}

#[test]
fn unbound_positional_named_as_written() {
    check("set -u; echo \"$1\"", "", "bash: line 1: $1: unbound variable\n", 127);
    check("set -u; echo ${2}", "", "bash: line 1: 2: unbound variable\n", 127);
    check("set -u; set -- a; echo $1", "a\n", "", 0);
}

#[test]
fn arithmetic_errors_in_bash_words() {
    check("echo $((1 +))", "", "bash: line 1: 1 +: syntax error: operand expected (error token is \"+\")\n", 1);
    check(
        "echo $((1 ? 2))",
        "",
        "bash: line 1: 1 ? 2: `:' expected for conditional expression (error token is \"2\")\n",
        1,
    );
    check(
        "((1 = 2)); echo $?",
        "1\n",
        "bash: line 1: ((: 1 = 2: attempted assignment to non-variable (error token is \"= 2\")\n",
        0,
    );
}

#[test]
fn xtrace_before_redirections() {
    check("set -x; x=1 echo c 2>/dev/null", "c\n", "+ x=1\n+ echo c\n", 0);
    check("set -x; x=$(echo in) 2>/dev/null; echo $x", "in\n", "++ echo in\n+ x=in\n+ echo in\n", 0);
    check("set -x; echo $(echo $(echo b))", "b\n", "+++ echo b\n++ echo b\n+ echo b\n", 0);
}

#[test]
fn failed_assignment_message_on_the_shells_stderr() {
    check("readonly R=1\nR=2 2>/dev/null\necho next", "next\n", "bash: line 2: R: readonly variable\n", 0);
    check("readonly R=1; R=2 true 2>/dev/null; echo $?", "0\n", "bash: line 1: R: readonly variable\n", 0);
    // The assignment is made before the redirection fails.
    check("x=1 >/no/f; echo \"$? $x\"", "1 1\n", "bash: line 1: /no/f: No such file or directory\n", 0);
}

#[test]
fn ended_jobs_leave_the_table() {
    // bash: a job that ended is gone after the next foreground command;
    // `wait PID` still has its status.
    check(
        "(exit 3) & p=$!\nfor i in $(seq 600); do true & done\nsleep 0.5\njobs\nwait $p; echo \"status $?\"",
        "status 3\n",
        "",
        0,
    );
    // Nor does `wait -n` see it.
    check("(exit 3) &\nsleep 0.5\njobs; wait -n; echo $?", "127\n", "", 0);
}
