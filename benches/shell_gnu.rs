//! The shell against GNU bash and coreutils on a real tree (issue 17):
//! `/usr/include` served read-only through `HostDir` to one `Shell` (reused
//! from script to script, as the `bash` tool reuses its session), and the
//! same scripts run by `/bin/bash -c` with the tree as its working
//! directory, spawned as an agent's host shell would run them.
//!
//! The two sides are interleaved (ours, then GNU's, script by script, round
//! by round) and each figure is the median of the rounds. GNU's figure
//! includes its spawns (bash and each program of the script); the spawn of
//! `bash -c :` is measured in the same rounds and printed, and a second
//! ratio takes it off GNU's side. Each script's outputs are checked equal
//! first (sorted where the walk order differs: our listings go in name
//! order, GNU's in the directory's order).
//!
//! `AIKIDO_BENCH_TREE` serves another tree; `AIKIDO_BENCH_ROUNDS` sets the
//! rounds (default 7); `AIKIDO_BENCH_OURS_ONLY` runs our side once, for a
//! profiler (`strace -c`, `perf record`), and `AIKIDO_BENCH_SCRIPT` runs
//! that script on our side, once a round. Prints one tab-separated line per script: name,
//! ours in ms, GNU's in ms, ratio, ratio without bash's spawn; then
//! `spawn_ms` and `geomean`. `make bench` (scripts/bench.sh) reads them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::HostDir;

/// One measured script: its name, its text, and whether its lines are
/// compared sorted (a walk's order).
struct Script {
    name: &'static str,
    text: &'static str,
    sorted: bool,
}

const SCRIPTS: &[Script] = &[
    Script { name: "grep_r", text: "grep -r EXIT_SUCCESS .", sorted: true },
    Script { name: "grep_rl_include", text: "grep -rl --include='*.h' pthread_mutex_t .", sorted: true },
    Script { name: "find_name", text: "find . -name '*.h'", sorted: true },
    Script { name: "find_size", text: "find . -type f -size +40k", sorted: true },
    Script { name: "find_exec_grep", text: "find . -name '*.h' -exec grep -l EXIT_SUCCESS {} +", sorted: true },
    Script { name: "cat_wc", text: "cat $(find . -name '*.h') | wc -l", sorted: false },
    Script { name: "sort_uniq_c", text: "cat linux/*.h | sort | uniq -c | sort -rn | head -n 20", sorted: false },
    Script {
        name: "awk_sum",
        text: "awk '{ words += NF; bytes += length($0) } END { print NR, words, bytes }' linux/*.h",
        sorted: false,
    },
    Script { name: "seq_head", text: "seq 1 100000000 | head -n 2", sorted: false },
];

fn tree() -> PathBuf {
    std::env::var_os("AIKIDO_BENCH_TREE").map_or_else(|| PathBuf::from("/usr/include"), PathBuf::from)
}

/// GNU's stdout and status (a status of 1 is an answer: `find -exec grep
/// -l {} +` ends 1 when one batch has no match, in both shells).
fn gnu(tree: &Path, script: &str) -> (Vec<u8>, i32) {
    let output = Command::new("/bin/bash")
        .args(["-c", script])
        .current_dir(tree)
        .env("LC_ALL", "C")
        .output()
        .unwrap_or_else(|error| panic!("bash cannot run: {error}"));
    let status = output.status.code().unwrap_or(-1);
    assert!(status <= 1 && output.stderr.is_empty(), "bash -c {script:?} failed: {output:?}");
    (output.stdout, status)
}

fn ours(shell: &mut Shell, script: &str) -> (Vec<u8>, i32) {
    let result = shell.run(script, None);
    assert!(
        result.exit_code <= 1 && result.limit.is_none() && !result.truncated && result.stderr.is_empty(),
        "the shell failed on {script:?}: status {}, {}",
        result.exit_code,
        String::from_utf8_lossy(&result.stderr)
    );
    (result.stdout, result.exit_code)
}

fn lines(mut text: Vec<u8>, sorted: bool) -> Vec<u8> {
    if sorted {
        let mut lines: Vec<&[u8]> = text.split(|&byte| byte == b'\n').collect();
        lines.sort_unstable();
        text = lines.join(&b'\n');
    }
    text
}

fn ms(seconds: f64) -> f64 {
    seconds * 1000.0
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks scripts.
    let filter: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with('-')).collect();
    let rounds: usize = std::env::var("AIKIDO_BENCH_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(7).max(1);
    let tree = tree();
    let storage = HostDir::new(&tree).unwrap_or_else(|error| panic!("{}: {error}", tree.display())).read_only();
    let mut shell = Shell::new(Arc::new(storage), ShellOptions::default());
    let scripts: Vec<&Script> =
        SCRIPTS.iter().filter(|script| filter.is_empty() || filter.iter().any(|f| script.name.contains(f))).collect();

    // Profiling (`strace -c`, `perf record`): our side only, once each, or
    // the script AIKIDO_BENCH_SCRIPT names, which may be any.
    if let Ok(text) = std::env::var("AIKIDO_BENCH_SCRIPT") {
        for _ in 0..rounds {
            let start = Instant::now();
            let result = shell.run(&text, None);
            eprintln!(
                "{} bytes, status {}, {:.2} ms",
                result.stdout.len(),
                result.exit_code,
                ms(start.elapsed().as_secs_f64())
            );
        }
        return;
    }
    if std::env::var_os("AIKIDO_BENCH_OURS_ONLY").is_some() {
        for script in &scripts {
            let start = Instant::now();
            let (output, status) = ours(&mut shell, script.text);
            eprintln!(
                "{}: {} bytes, status {status}, {:.2} ms",
                script.name,
                output.len(),
                ms(start.elapsed().as_secs_f64())
            );
        }
        return;
    }
    for script in &scripts {
        let ((mine, my_status), (theirs, their_status)) = (ours(&mut shell, script.text), gnu(&tree, script.text));
        assert_eq!(my_status, their_status, "{}: the shell and GNU end {:?} differently", script.name, script.text);
        let (mine, theirs) = (lines(mine, script.sorted), lines(theirs, script.sorted));
        assert!(
            mine == theirs,
            "{}: the shell and GNU disagree on {:?}\nours ({} bytes): {}\nGNU ({} bytes): {}",
            script.name,
            script.text,
            mine.len(),
            String::from_utf8_lossy(&mine[..mine.len().min(600)]),
            theirs.len(),
            String::from_utf8_lossy(&theirs[..theirs.len().min(600)]),
        );
    }

    let mut times = vec![(Vec::new(), Vec::new()); scripts.len()];
    let mut spawns = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        gnu(&tree, ":");
        spawns.push(start.elapsed().as_secs_f64());
        for (script, (mine, theirs)) in scripts.iter().zip(&mut times) {
            let start = Instant::now();
            std::hint::black_box(ours(&mut shell, script.text));
            mine.push(start.elapsed().as_secs_f64());
            let start = Instant::now();
            std::hint::black_box(gnu(&tree, script.text));
            theirs.push(start.elapsed().as_secs_f64());
        }
    }

    let spawn = median(&mut spawns);
    println!("spawn_ms\t{:.3}", ms(spawn));
    eprintln!("tree {}, {rounds} rounds; `bash -c :` spawned: {:.2} ms", tree.display(), ms(spawn));
    eprintln!("{:<18} {:>10} {:>10} {:>7} {:>14}", "script", "ours ms", "GNU ms", "ratio", "w/o bash spawn");
    let (mut log_sum, mut log_sum_bare) = (0.0, 0.0);
    for (script, (mine, theirs)) in scripts.iter().zip(&mut times) {
        let (mine, theirs) = (median(mine), median(theirs));
        let ratio = mine / theirs;
        // Without bash's own spawn; never below a tenth of GNU's figure.
        let bare = mine / (theirs - spawn).max(theirs / 10.0);
        log_sum += ratio.ln();
        log_sum_bare += bare.ln();
        println!("{}\t{:.3}\t{:.3}\t{ratio:.3}\t{bare:.3}", script.name, ms(mine), ms(theirs));
        eprintln!("{:<18} {:>10.2} {:>10.2} {:>6.2}x {:>13.2}x", script.name, ms(mine), ms(theirs), ratio, bare);
    }
    let count = scripts.len() as f64;
    let (geomean, geomean_bare) = ((log_sum / count).exp(), (log_sum_bare / count).exp());
    println!("geomean\t{geomean:.3}\t{geomean_bare:.3}");
    eprintln!("geometric mean: {geomean:.2}x ({geomean_bare:.2}x without bash's spawn)");
}
