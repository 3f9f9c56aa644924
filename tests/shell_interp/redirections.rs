//! Redirections: files, here-documents and here-strings, descriptors, exec, /dev paths.

use super::*;

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
fn noclobber() {
    check(
        "echo a > f; set -C; echo b > f; echo $?; echo c >| f; read x < f; echo $x",
        "1\nc\n",
        "bash: line 1: f: cannot overwrite existing file\n",
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
fn function_with_redirect_body() {
    check("f() { echo body; } 2>&1; f", "body\n", "", 0);
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
fn sh_heredoc_script() {
    check("sh <<'EOF'\necho from stdin script $((1+2))\nEOF", "from stdin script 3\n", "", 0);
}

#[test]
fn heredoc_in_cmdsub() {
    check("x=$(while read l; do echo \"<$l>\"; done <<EOF\nin sub\nEOF\n); echo \"$x\"", "<in sub>\n", "", 0);
}

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
fn status_of_failed_redirect_in_if() {
    check(
        "if echo x > nodir/f 2>/dev/null; then echo ok; else echo failed; fi",
        "failed\n",
        "bash: line 1: nodir/f: No such file or directory\n",
        0,
    );
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
fn dev_null_takes_any_amount() {
    // Past the 1 MiB output limit: /dev/null keeps nothing, so no limit applies.
    check("seq 1 300000 > /dev/null; echo $?", "0\n", "", 0);
    check("seq 1 300000 2>/dev/null >&2; echo $?", "0\n", "", 0);
    check("{ seq 1 300000; echo kept; } 2>&1 >/dev/null | wc -l", "0\n", "", 0);
    check("seq 1 300000 &>/dev/null; echo $?", "0\n", "", 0);
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

/// `set -x` traces a command before its redirections apply, and an
/// assignment before a command on a line of its own.
#[test]
fn xtrace_goes_out_before_the_redirections() {
    check("set -x; echo hi 2>&1; x=1 true; set +x", "hi\n", "+ echo hi\n+ x=1\n+ true\n+ set +x\n", 0);
}
