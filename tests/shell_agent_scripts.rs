//! The bash features agents' scripts lean on (issue 17, third part):
//! namerefs, `trap … ERR`, extglob and the other `shopt` pattern options,
//! `bash -n`/`bash FILE`/`bash -c`, awk's commands through the shell. Each
//! expected stdout, stderr and status was taken from GNU bash 5.2
//! (`env -i LC_ALL=C bash -c`) on the same files; the corpus scripts
//! 740 and up record the longer cases.

mod common;

use std::sync::Arc;

use aikido::shell::ShellOptions;
use aikido::storage::{MemoryStorage, Storage};

fn storage() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/d/sub/deep", true).unwrap();
    storage.write("/d/a.txt", b"A\n").unwrap();
    storage.write("/d/b.log", b"B\n").unwrap();
    storage.write("/d/.hidden", b"H\n").unwrap();
    storage.write("/d/sub/c.txt", b"C\n").unwrap();
    storage.write("/d/sub/deep/e.txt", b"E\n").unwrap();
    storage
}

/// Runs a script in a fresh shell: (stdout, stderr, status).
fn run(script: &str) -> (String, String, i32) {
    let options = ShellOptions { env: vec![("HOME".to_string(), "/".to_string())], ..ShellOptions::default() };
    common::shell::run_in(storage(), options, script)
}

fn check(script: &str, stdout: &str, stderr: &str, code: i32) {
    common::shell::expect(script, run(script), stdout, stderr, code);
}

// ----- namerefs -----

#[test]
fn nameref_reads_and_writes_the_target() {
    check("x=1; declare -n r=x; r=2; echo \"$x $r ${!r}\"", "2 2 x\n", "", 0);
}

#[test]
fn nameref_to_an_array_and_an_element() {
    check(
        "a=(1 2 3); declare -n ra=a; ra[1]=B; ra+=(4); echo \"${ra[@]} ${#ra[@]} ${!ra[@]}\"\n\
         declare -n e='a[0]'; e=Z; echo \"$e ${a[*]}\"",
        "1 B 3 4 4 0 1 2 3\nZ Z B 3 4\n",
        "",
        0,
    );
}

#[test]
fn local_nameref_passes_arrays_by_name() {
    check(
        "f() { local -n arr=$1; arr+=(new); echo \"in: ${#arr[@]}\"; }\nlist=(p q); f list; echo \"${list[@]}\"; declare -p arr 2>&1",
        "in: 3\np q new\nbash: line 2: declare: arr: not found\n",
        "",
        1,
    );
}

#[test]
fn nameref_self_reference_and_bad_name_are_refused() {
    check(
        "declare -n s=s; echo $?; declare -n b=1x; echo $?; local -n q=x",
        "1\n1\n",
        "bash: line 1: declare: s: nameref variable self references not allowed\n\
         bash: line 1: declare: `1x': invalid variable name for name reference\n\
         bash: line 1: local: can only be used in a function\n",
        1,
    );
}

#[test]
fn circular_nameref_warns_and_abandons_the_assignment_line() {
    check(
        "declare -n c1=c2; declare -n c2=c1; echo \"[$c1]\"\nc1=5; echo not-here\necho \"st=$?\"",
        "[]\nst=1\n",
        "bash: line 1: warning: c1: circular name reference\nbash: line 2: warning: c1: circular name reference\n",
        0,
    );
}

#[test]
fn unset_goes_through_the_reference_and_unset_n_removes_it() {
    check(
        "x=1; declare -n r=x; unset r; echo \"${x-gone}\"; x=2; unset -n r; echo \"$x ${r-none}\"",
        "gone\n2 none\n",
        "",
        0,
    );
}

// ----- trap ERR / RETURN, trap -p -----

#[test]
fn err_trap_fires_where_set_e_would_act() {
    check(
        "trap 'echo \"ERR $? line $LINENO\"' ERR\nfalse\nif false; then :; fi\nfalse || true\n! false\n{ false; }\ng() { return 3; }\ng\nx=$(false)",
        "ERR 1 line 2\nERR 1 line 6\nERR 3 line 8\nERR 1 line 9\n",
        "",
        1,
    );
}

#[test]
fn err_trap_reaches_functions_only_under_set_e_capital() {
    check(
        "trap 'echo trapped' ERR\nf() { false; echo in-f; }\nf\nset -E\nf\necho $-",
        "in-f\ntrapped\nin-f\nhBEc\n",
        "",
        0,
    );
}

#[test]
fn errexit_inside_a_function_ends_before_an_uninherited_err_trap() {
    check("set -e; trap 'echo trapped $?' ERR; f() { false; }; f; echo no", "", "", 1);
    check("set -eE; trap 'echo trapped $?' ERR; f() { false; }; f; echo no", "trapped 1\n", "", 1);
}

#[test]
fn return_trap_and_trap_p() {
    check(
        "trap 'echo ret $?' RETURN\nf() { return 4; }\nf; echo \"f gave $?\"\nset -T\nf\ntrap 'echo e' ERR; trap '' INT\ntrap -p\ntrap -p ERR INT\ntrap - ERR INT RETURN\ntrap -p",
        "f gave 4\nret 0\ntrap -- '' SIGINT\ntrap -- 'echo e' ERR\ntrap -- 'echo ret $?' RETURN\ntrap -- 'echo e' ERR\ntrap -- '' SIGINT\n",
        "",
        0,
    );
}

// ----- bash -n, bash FILE -----

#[test]
fn bash_n_checks_a_file_and_runs_nothing() {
    check(
        "printf 'echo ran > ran.txt\\nexit 4\\n' > ok.sh; bash -n ok.sh; echo \"ok $?\"; ls ran.txt 2>&1; bash ok.sh; echo \"ran $?\"; cat ran.txt",
        "ok 0\nls: cannot access 'ran.txt': No such file or directory\nran 4\nran\n",
        "",
        0,
    );
}

#[test]
fn bash_n_reports_a_syntax_error_with_the_file_name() {
    let (out, err, status) = run(
        "printf 'echo ran > ran.txt\\nif then\\n' > bad.sh; bash -n bad.sh; echo \"st $?\"; ls ran.txt 2>/dev/null",
    );
    assert_eq!(out, "st 2\n");
    assert!(err.starts_with("bad.sh: line 2: syntax error"), "{err}");
    assert_eq!(status, 2, "ls finds no ran.txt");
}
