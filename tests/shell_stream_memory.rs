//! Commands over a large file in a host folder hold a piece of it, not the
//! file (issue 17: "`cat` of a 1 GiB file through `wc -l` keeps the
//! process's memory bounded"). Each script runs in a child process of this
//! test binary, which prints its peak resident set (`VmHWM`) before and
//! after; the growth must stay far below the file's size. The figures for
//! a 1 GiB file are in docs/PERFORMANCE.md ("Streaming large files", and
//! "Streaming the line tools" for nl, fold, paste, tac and base64).
#![cfg(feature = "shell")]

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::HostDir;
use common::vm_hwm_kib;

/// The file: 192 MiB of 64-byte lines, the last one `last line`.
const LINES: u64 = 3 << 20;
const SIZE: u64 = LINES * 64;

/// Each script and what it prints over the file.
fn scripts() -> Vec<(&'static str, String)> {
    vec![
        ("cat big | wc -l", format!("{LINES}\n")),
        ("wc -l big", format!("{LINES} big\n")),
        ("wc -c big", format!("{SIZE} big\n")),
        ("head -n 2 big | cut -c1-10", "line 00000\nline 00000\n".to_string()),
        ("tail -n 1 big", format!("{}\n", last_line())),
        ("tail -c 10 big", format!("{}\n", &last_line()[54..])),
        ("grep -c 'last' big", "1\n".to_string()),
        ("grep 'last' big | wc -c", "64\n".to_string()),
        ("cut -c1-4 big | uniq -c", format!("{LINES:7} line\n")),
        ("cat big | sed -n '$p'", format!("{}\n", last_line())),
        ("sed -n '2p;$p' big | cut -c1-10", format!("line 00000\n{}\n", &last_line()[..10])),
        ("awk 'END { print NR }' big", format!("{LINES}\n")),
        ("cat big | awk 'END { print NR }'", format!("{LINES}\n")),
        ("rev big | rev | tail -n 1", format!("{}\n", last_line())),
        ("wc -l <(cat big)", format!("{LINES} /dev/fd/63\n")),
        ("nl big | tail -n 1", format!("{LINES:>6}\t{}\n", last_line())),
        ("fold -w 40 big | tail -n 2", format!("{}\n{}\n", &last_line()[..40], &last_line()[40..])),
        ("paste big big | wc -l", format!("{LINES}\n")),
        ("paste -s -d '' big | wc -c", format!("{}\n", SIZE - LINES + 1)),
        ("tac big | head -n 1", format!("{}\n", last_line())),
        ("tac big | tail -n 1 | cut -c1-10", "line 00000\n".to_string()),
        ("base64 -w 0 big | wc -c", format!("{}\n", SIZE.div_ceil(3) * 4)),
        ("split -b 64m big p. && wc -c p.ac && rm p.*", "67108864 p.ac\n".to_string()),
        // The checksums' correctness is the unit tests'; here, their memory.
        ("md5sum big | wc -c", "38\n".to_string()),
        ("cat big | sha1sum | wc -c", "44\n".to_string()),
    ]
}

fn last_line() -> String {
    format!("{:<63}", "line 99999 last")
}

/// Runs one script over the folder `AIKIDO_STREAM_DIR` and prints its
/// output and `VmHWM` before and after; does nothing in an ordinary test
/// run. `AIKIDO_STREAM_SCRIPT` is an index into [`scripts`], or a script's
/// text (for measuring by hand, docs/PERFORMANCE.md).
#[test]
fn stream_child() {
    let (Ok(which), Ok(dir)) = (std::env::var("AIKIDO_STREAM_SCRIPT"), std::env::var("AIKIDO_STREAM_DIR")) else {
        return;
    };
    let script = match which.parse::<usize>() {
        Ok(index) => scripts()[index].0.to_string(),
        Err(_) => which,
    };
    // This measures memory, not speed: under a loaded machine (six builds
    // on two cores) the default 10 s would stop the slower scripts.
    let mut options = ShellOptions::default();
    options.limits.max_duration = std::time::Duration::from_secs(300);
    let mut shell = Shell::new(Arc::new(HostDir::new(&dir).unwrap()), options);
    let before = vm_hwm_kib();
    let started = Instant::now();
    let result = shell.run(&script, None);
    let elapsed = started.elapsed();
    let after = vm_hwm_kib();
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    println!("STREAM {before} {after} {} {stdout:?}", result.exit_code);
    println!("TIME {elapsed:?}");
    eprintln!("{}", String::from_utf8_lossy(&result.stderr));
}

#[test]
fn commands_over_a_large_host_file_keep_the_peak_resident_set_small() {
    if std::env::var("AIKIDO_STREAM_SCRIPT").is_ok() || !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let dir: PathBuf = std::env::temp_dir().join(format!("aikido-stream-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    {
        let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(dir.join("big")).unwrap());
        let line = format!("{:<63}\n", "line 00000");
        for _ in 0..LINES - 1 {
            file.write_all(line.as_bytes()).unwrap();
        }
        writeln!(file, "{}", last_line()).unwrap();
    }
    assert_eq!(std::fs::metadata(dir.join("big")).unwrap().len(), SIZE);
    let exe = std::env::current_exe().unwrap();
    let mut failures = Vec::new();
    for (index, (script, expected)) in scripts().iter().enumerate() {
        let started = Instant::now();
        let output = std::process::Command::new(&exe)
            .args(["--exact", "stream_child", "--nocapture", "--test-threads=1"])
            .env("AIKIDO_STREAM_SCRIPT", index.to_string())
            .env("AIKIDO_STREAM_DIR", &dir)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let Some(line) = stdout.lines().find_map(|line| line.find("STREAM ").map(|at| &line[at..])) else {
            failures.push(format!("{script}: no report: {stdout} {}", String::from_utf8_lossy(&output.stderr)));
            continue;
        };
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let (before, after, status) = (fields[1].parse::<u64>().unwrap(), fields[2].parse::<u64>().unwrap(), fields[3]);
        let printed = fields[4];
        eprintln!(
            "{script}: peak VmHWM {} MiB (baseline {} MiB) over a {} MiB file, {:?}",
            after >> 10,
            before >> 10,
            SIZE >> 20,
            started.elapsed()
        );
        if status != "0" || printed != format!("{expected:?}") {
            failures.push(format!("{script}: status {status}, printed {printed}, expected {expected:?}"));
        }
        // The file is 192 MiB; a reader holds a piece of 256 KiB and a pipe
        // 64 KiB. 48 MiB leaves room for the allocator and the threads.
        if after.saturating_sub(before) > 48 << 10 {
            failures.push(format!("{script}: the peak grew by {} MiB", (after - before) >> 10));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// `sed -i` over a large host file reads it a piece at a time and writes
/// the result to a temporary file beside it, which then replaces it (as
/// GNU sed does): the peak stays far below the file's size (reading it
/// whole and building the result whole took twice the file), the file is
/// edited from its first line to its last, its mode is kept, and no
/// temporary file is left behind.
#[test]
fn sed_in_place_over_a_large_host_file_streams_it() {
    use std::os::unix::fs::PermissionsExt;
    const SED_LINES: u64 = 3 << 19;
    if std::env::var("AIKIDO_STREAM_SCRIPT").is_ok() || !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let dir: PathBuf = std::env::temp_dir().join(format!("aikido-sed-in-place-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big");
    {
        let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&big).unwrap());
        let line = format!("{:<63}\n", "line 00000");
        for _ in 0..SED_LINES - 1 {
            file.write_all(line.as_bytes()).unwrap();
        }
        writeln!(file, "{}", last_line()).unwrap();
    }
    std::fs::set_permissions(&big, std::fs::Permissions::from_mode(0o640)).unwrap();
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "stream_child", "--nocapture", "--test-threads=1"])
        .env("AIKIDO_STREAM_SCRIPT", "sed -i -e 's/^line/LINE/' -e '$s/last/LAST/' big && echo done")
        .env("AIKIDO_STREAM_DIR", &dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report = stdout.lines().find_map(|line| line.find("STREAM ").map(|at| line[at..].to_string()));
    let text = std::fs::read(&big).unwrap();
    let mode = std::fs::metadata(&big).unwrap().permissions().mode() & 0o777;
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);

    let report = report.unwrap_or_else(|| panic!("no report: {stdout} {}", String::from_utf8_lossy(&output.stderr)));
    let fields: Vec<&str> = report.splitn(5, ' ').collect();
    let (before, after) = (fields[1].parse::<u64>().unwrap(), fields[2].parse::<u64>().unwrap());
    assert_eq!((fields[3], fields[4]), ("0", "\"done\\n\""), "{stdout}");
    assert_eq!(text.len() as u64, SED_LINES * 64);
    assert!(text.starts_with(b"LINE 00000 "), "{:?}", String::from_utf8_lossy(&text[..64]));
    assert_eq!(&text[text.len() - 64..], format!("{:<63}\n", "LINE 99999 LAST").as_bytes());
    assert_eq!(text.windows(5).filter(|w| w == b"line ").count(), 0);
    assert_eq!(mode, 0o640);
    assert_eq!(left, ["big"]);
    eprintln!(
        "sed -i: peak VmHWM {} MiB (baseline {} MiB) over a {} MiB file",
        after >> 10,
        before >> 10,
        text.len() >> 20
    );
    assert!(after.saturating_sub(before) < 48 << 10, "the peak grew by {} MiB", (after - before) >> 10);
}
