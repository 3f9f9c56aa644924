//! The shell corpus: every script of `tests/shell_corpus/scripts/` runs in our
//! shell over a `MemoryStorage` seeded from `tests/shell_corpus/seed/`, and
//! its exit code, stdout and final tree are compared with what real bash
//! did (`tests/shell_corpus/expected/`, written by
//! `scripts/shell-corpus-record.sh`). See `tests/shell_corpus/README.md`.
//!
//! Fails on any divergence not listed in `known_divergences.txt`, and on any
//! listed script that now matches. `SHELL_CORPUS=text` runs only the scripts
//! whose name contains `text`.
#![cfg(feature = "shell")]

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};

#[allow(dead_code)]
#[path = "shell_corpus/tree.rs"]
mod tree;

/// What bash did with one script.
#[derive(Debug, PartialEq, Eq)]
struct Expectation {
    exit_code: i32,
    stdout: Vec<u8>,
    tree: Vec<String>,
}

/// Parses an expectation file: `exit: N`, `stdout: L bytes`, `--- stdout`,
/// exactly L bytes (plus one newline when they do not end with one),
/// `--- tree`, then one manifest line per path. An optional first line
/// `hand-written: reason` marks an expectation the recorder leaves alone.
fn parse_expectation(text: &[u8]) -> Result<Expectation, String> {
    let mut rest = text;
    let mut line = || -> Result<String, String> {
        let end = rest.iter().position(|&b| b == b'\n').ok_or("unexpected end of file")?;
        let l = String::from_utf8(rest[..end].to_vec()).map_err(|_| "header is not UTF-8")?;
        rest = &rest[end + 1..];
        Ok(l)
    };
    let mut first = line()?;
    if first.starts_with("hand-written:") {
        first = line()?;
    }
    let exit_code = first
        .strip_prefix("exit: ")
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("expected `exit: N`, found {first:?}"))?;
    let second = line()?;
    let length: usize = second
        .strip_prefix("stdout: ")
        .and_then(|s| s.strip_suffix(" bytes"))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("expected `stdout: L bytes`, found {second:?}"))?;
    let marker = line()?;
    if marker != "--- stdout" {
        return Err(format!("expected `--- stdout`, found {marker:?}"));
    }
    if rest.len() < length {
        return Err("stdout is shorter than its header says".into());
    }
    let stdout = rest[..length].to_vec();
    rest = &rest[length..];
    if !stdout.is_empty() && !stdout.ends_with(b"\n") {
        rest = rest.strip_prefix(b"\n").ok_or("missing the newline after an unterminated stdout")?;
    }
    let rest = std::str::from_utf8(rest).map_err(|_| "tree is not UTF-8")?;
    let tree_text = rest.strip_prefix("--- tree\n").ok_or("expected `--- tree` after stdout")?;
    let tree = tree_text.lines().map(str::to_string).collect();
    Ok(Expectation { exit_code, stdout, tree })
}

type PanicHook = dyn Fn(&panic::PanicHookInfo<'_>) + Send + Sync + 'static;

thread_local! {
    /// The last panic's message and location, caught by our hook.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Whether this thread runs the corpus (the hook keeps quiet only there).
    static IN_CORPUS: Cell<bool> = const { Cell::new(false) };
}

/// Runs one script the way the recorder ran bash: cwd at the seed's root,
/// HOME at the root, LC_ALL=C, default limits. A panic becomes an error.
fn run_script(seed: &Path, script: &str) -> Result<(Expectation, Vec<u8>), String> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    tree::seed(storage.as_ref(), seed).map_err(|e| format!("seeding failed: {e}"))?;
    let mut options = ShellOptions { cwd: "/".to_string(), ..ShellOptions::default() };
    options.env.retain(|(name, _)| name != "HOME" && name != "LC_ALL");
    options.env.push(("HOME".to_string(), "/".to_string()));
    options.env.push(("LC_ALL".to_string(), "C".to_string()));
    let shared: Arc<dyn Storage> = storage.clone();
    let result = panic::catch_unwind(AssertUnwindSafe(|| Shell::new(shared, options).run(script, None)));
    let result = result.map_err(|payload| {
        let caught = PANIC.with(|p| p.borrow_mut().take());
        caught.unwrap_or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string())
        })
    });
    let result = result.map_err(|message| format!("panicked: {message}"))?;
    let tree = tree::manifest(storage.as_ref()).map_err(|e| format!("reading the final tree failed: {e}"))?;
    Ok((Expectation { exit_code: result.exit_code, stdout: result.stdout, tree }, result.stderr))
}

/// The first line where two outputs differ, for the report.
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let e: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split(|&b| b == b'\n').collect();
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            let show = |l: Option<&&[u8]>| match l {
                Some(l) => format!("{:?}", String::from_utf8_lossy(l)),
                None => "(end of output)".to_string(),
            };
            return format!("first difference at line {}: expected {}, got {}", i + 1, show(x), show(y));
        }
    }
    "same lines".to_string()
}

/// Indents an output for the report, cut to a readable size.
fn excerpt(bytes: &[u8], max_lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for l in lines.iter().take(max_lines) {
        let _ = writeln!(out, "      | {l}");
    }
    if lines.len() > max_lines {
        let _ = writeln!(out, "      | … ({} more lines)", lines.len() - max_lines);
    }
    if out.is_empty() {
        out.push_str("      (empty)\n");
    }
    out
}

/// What differs between bash's recording and our run, empty when they match.
fn compare(expected: &Expectation, actual: &Expectation, stderr: &[u8]) -> String {
    let mut report = String::new();
    if expected.exit_code != actual.exit_code {
        let _ = writeln!(report, "  exit code: expected {}, got {}", expected.exit_code, actual.exit_code);
    }
    if expected.stdout != actual.stdout {
        let _ = writeln!(report, "  stdout: {}", first_difference(&expected.stdout, &actual.stdout));
        let _ = write!(report, "    expected:\n{}", excerpt(&expected.stdout, 12));
        let _ = write!(report, "    got:\n{}", excerpt(&actual.stdout, 12));
    }
    if expected.tree != actual.tree {
        let only_expected: Vec<&String> = expected.tree.iter().filter(|l| !actual.tree.contains(l)).collect();
        let only_actual: Vec<&String> = actual.tree.iter().filter(|l| !expected.tree.contains(l)).collect();
        let _ = writeln!(
            report,
            "  tree: {} lines only in bash's, {} only in ours",
            only_expected.len(),
            only_actual.len()
        );
        for l in only_expected.iter().take(8) {
            let _ = writeln!(report, "    - {l}");
        }
        for l in only_actual.iter().take(8) {
            let _ = writeln!(report, "    + {l}");
        }
    }
    if !report.is_empty() && !stderr.is_empty() {
        let _ = write!(report, "    our stderr:\n{}", excerpt(stderr, 6));
    }
    report
}

/// `NNN-name: reason` lines; blank lines and `#` comments are skipped.
fn known_divergences(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, reason) = line.split_once(':').ok_or_else(|| format!("line {}: expected `name: reason`", i + 1))?;
        if reason.trim().is_empty() {
            return Err(format!("line {}: {} has no reason", i + 1, name.trim()));
        }
        out.insert(name.trim().trim_end_matches(".sh").to_string(), reason.trim().to_string());
    }
    Ok(out)
}

#[test]
fn corpus_matches_bash() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/shell_corpus");
    let seed = root.join("seed");
    let filter = std::env::var("SHELL_CORPUS").unwrap_or_default();
    let known = known_divergences(&fs::read_to_string(root.join("known_divergences.txt")).unwrap_or_default())
        .unwrap_or_else(|e| panic!("known_divergences.txt: {e}"));

    let mut names: Vec<String> = fs::read_dir(root.join("scripts"))
        .expect("tests/shell_corpus/scripts")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".sh").map(str::to_string))
        .collect();
    names.sort();
    let stale: Vec<&String> = known.keys().filter(|k| !names.contains(k)).collect();
    names.retain(|n| n.contains(&filter));

    // On this thread our hook keeps panic messages for the report instead
    // of printing each; other threads (other tests) get the usual hook.
    let previous_hook: Arc<PanicHook> = Arc::from(panic::take_hook());
    let chained = previous_hook.clone();
    IN_CORPUS.with(|c| c.set(true));
    panic::set_hook(Box::new(move |info| {
        if !IN_CORPUS.with(Cell::get) {
            return chained(info);
        }
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{location}")));
    }));

    let (mut matched, mut unexpected, mut known_failures, mut now_matching) = (0, Vec::new(), 0, Vec::new());
    for name in &names {
        let script = fs::read_to_string(root.join("scripts").join(format!("{name}.sh"))).expect("script");
        let report = match fs::read(root.join("expected").join(format!("{name}.out")))
            .map_err(|e| format!("  no expectation ({e}): run scripts/shell-corpus-record.sh {name}\n"))
            .and_then(|text| parse_expectation(&text).map_err(|e| format!("  bad expectation file: {e}\n")))
        {
            Err(report) => report,
            Ok(expected) => match run_script(&seed, &script) {
                Err(problem) => format!("  {problem}\n"),
                Ok((actual, stderr)) => compare(&expected, &actual, &stderr),
            },
        };
        match (report.is_empty(), known.get(name)) {
            (true, None) => matched += 1,
            (true, Some(_)) => {
                matched += 1;
                now_matching.push(name.clone());
            }
            (false, Some(_)) => known_failures += 1,
            (false, None) => unexpected.push((name.clone(), report)),
        }
    }
    IN_CORPUS.with(|c| c.set(false));
    let _ = panic::take_hook();
    panic::set_hook(Box::new(move |info| previous_hook(info)));

    for (name, report) in &unexpected {
        eprintln!("DIFFERS {name}\n{report}");
    }
    for name in &now_matching {
        eprintln!("NOW MATCHES {name}: remove it from known_divergences.txt");
    }
    for name in &stale {
        eprintln!("STALE {name}: listed in known_divergences.txt, but there is no such script");
    }
    eprintln!(
        "corpus: {matched} of {} match ({known_failures} known divergences, {} unexpected)",
        names.len(),
        unexpected.len()
    );
    assert!(
        unexpected.is_empty() && now_matching.is_empty() && (stale.is_empty() || !filter.is_empty()),
        "the shell corpus differs from bash: see the report above"
    );
}

#[test]
fn expectation_format_round_trips() {
    let text = b"exit: 3\nstdout: 5 bytes\n--- stdout\na\nb c\n--- tree\nd src\nf src/a b.py 0 cbf29ce484222325\n";
    let parsed = parse_expectation(text).expect("parses");
    assert_eq!(parsed.exit_code, 3);
    assert_eq!(parsed.stdout, b"a\nb c");
    assert_eq!(parsed.tree, ["d src", "f src/a b.py 0 cbf29ce484222325"]);
    let empty = parse_expectation(b"hand-written: jq 1.7\nexit: 0\nstdout: 0 bytes\n--- stdout\n--- tree\n").unwrap();
    assert!(empty.stdout.is_empty() && empty.tree.is_empty());
    assert!(parse_expectation(b"exit: 0\nstdout: 9 bytes\n--- stdout\nabc\n--- tree\n").is_err());
    assert_eq!(tree::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(tree::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
}

#[test]
fn every_recording_parses_and_every_script_has_one() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/shell_corpus");
    let mut count = 0;
    for entry in fs::read_dir(root.join("scripts")).expect("scripts") {
        let name = entry.expect("entry").file_name().into_string().expect("UTF-8 name");
        let stem = name.strip_suffix(".sh").unwrap_or_else(|| panic!("{name}: not a .sh script"));
        let text = fs::read(root.join("expected").join(format!("{stem}.out")))
            .unwrap_or_else(|e| panic!("{stem}: no expectation: {e}"));
        parse_expectation(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        count += 1;
    }
    assert!(count >= 300, "the issue asks for at least 300 scripts, found {count}");
}

#[test]
fn the_seed_manifest_matches_the_recorder() {
    // The recorder's manifest of the untouched seed is the tree of any
    // script that changes nothing; this one only prints.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/shell_corpus");
    let storage = MemoryStorage::new(Default::default());
    tree::seed(&storage, &root.join("seed")).expect("seed");
    let text = fs::read(root.join("expected/001-quoting-single-double.out")).expect("recording");
    assert_eq!(tree::manifest(&storage).expect("manifest"), parse_expectation(&text).expect("parses").tree);
}

#[test]
fn seed_then_dump_gives_the_same_tree() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/shell_corpus/seed");
    let storage = MemoryStorage::new(Default::default());
    tree::seed(&storage, &root).expect("seed");
    let out = std::env::temp_dir().join(format!("aikido-shell-corpus-dump-{}", std::process::id()));
    let _ = fs::remove_dir_all(&out);
    tree::dump(&storage, &out).expect("dump");
    assert!(tree::dump(&storage, &out).is_err(), "a non-empty target is refused");
    let again = MemoryStorage::new(Default::default());
    tree::seed(&again, &out).expect("seed from the dump");
    let _ = fs::remove_dir_all(&out);
    assert_eq!(tree::manifest(&storage).expect("manifest"), tree::manifest(&again).expect("manifest"));
}
