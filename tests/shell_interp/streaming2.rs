//! Commands that read their input a line or a piece at a time (issue 17,
//! "pipelines stream… memory bounded"): an endless writer into `nl`,
//! `fold`, `paste`, `rev`, `base64` ends as soon as `head` has its lines,
//! with bash's output and `PIPESTATUS` (recorded with bash 5.2 and GNU
//! coreutils 9.1). Before, each read all of its stdin and the run ended at
//! the output or memory limit. `tac` of a pipe is whole by nature: it ends
//! at the memory budget.

use super::*;

#[test]
fn nl_streams() {
    check("yes | nl | head -n 2; echo ${PIPESTATUS[@]}", "     1\ty\n     2\ty\n141 141 0\n", "", 0);
    check("yes | nl -ba -w3 -s: | head -n 2", "  1:y\n  2:y\n", "", 0);
    // Numbering goes on from a file into stdin.
    check("yes | nl d/a.txt - | head -n 3", "     1\tA\n     2\ty\n     3\ty\n", "", 0);
}

#[test]
fn fold_streams() {
    check("yes abcdef | fold -w 4 | head -n 2; echo ${PIPESTATUS[@]}", "abcd\nef\n141 141 0\n", "", 0);
    // One endless line, folded as it comes.
    check("yes | tr -d '\\n' | fold -w 3 | head -n 2", "yyy\nyyy\n", "", 0);
    check("yes 'a b c' | fold -s -w 3 | head -n 3", "a \nb c\na \n", "", 0);
}

#[test]
fn paste_streams() {
    check("yes | paste - - | head -n 2; echo ${PIPESTATUS[@]}", "y\ty\ny\ty\n141 141 0\n", "", 0);
    check("yes | paste -d, - d/a.txt | head -n 2", "y,A\ny,\n", "", 0);
    // -s: one endless line, written as it grows.
    check("yes | paste -s | head -c 10; echo", "y\ty\ty\ty\ty\t\n", "", 0);
}

#[test]
fn rev_and_base64_stream() {
    check("yes abc | rev | head -n 2; echo ${PIPESTATUS[@]}", "cba\ncba\n141 141 0\n", "", 0);
    let line = "eQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5CnkKeQp5";
    check("yes | base64 | head -n 1", &format!("{line}\n"), "", 0);
    check("yes | base64 | base64 -d | head -n 2; echo ${PIPESTATUS[@]}", "y\ny\n141 141 141 0\n", "", 0);
}

#[test]
fn tac_of_an_endless_pipe_ends_at_the_memory_budget() {
    let result = limited(Limits { max_memory_bytes: 1 << 20, ..Limits::default() }).run("yes | tac", None);
    assert_eq!(result.limit, Some(LimitHit::Memory), "{}", String::from_utf8_lossy(&result.stderr));
    // A file is read from its end, a piece at a time.
    check("printf 'a\\nb\\nc' > f; tac f; tac -b f; echo; tac -s b f; echo", "cb\na\n\nc\nba\n\nca\nb\n", "", 0);
}

#[test]
fn split_writes_its_files_as_the_input_comes() {
    // 4 MB through a 1 MiB budget: before, split read all of stdin first.
    let mut shell = limited(Limits { max_memory_bytes: 1 << 20, ..Limits::default() });
    let result = shell.run("yes | head -n 2000000 | split -l 500000 - p; wc -l pa?", None);
    assert_eq!(result.limit, None, "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(
        String::from_utf8_lossy(&result.stdout),
        " 500000 paa\n 500000 pab\n 500000 pac\n 500000 pad\n2000000 total\n"
    );
}
