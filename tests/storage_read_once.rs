//! A file read in pieces reads one version of it: a reader opens it once
//! (`Storage::open_read`) and every piece comes from that version, however
//! the path is replaced or removed meanwhile. Directly on each storage, and
//! through the shell's commands (`cat`, `md5sum`, `wc`, `< FILE`) racing a
//! writer, on memory and on a host folder: every result is one version's
//! output, or an error with a non-zero status; never a mix of versions and
//! never a short read that says nothing.
#![cfg(all(feature = "storage", feature = "shell"))]

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::{
    Access, DryRun, HostDir, MemoryStorage, Mounts, Overlay, PathPolicy, Policy, ReadOnly, Storage, StorageError,
};

/// Bytes of each version: several of the shell's 256 KiB pieces.
const SIZE: usize = 1_200_000;

/// Version `tag`: lines of one letter, a length of its own per version.
fn version(tag: u8, extra: usize) -> Vec<u8> {
    let line = [tag; 63].iter().copied().chain(std::iter::once(b'\n')).collect::<Vec<u8>>();
    line.iter().copied().cycle().take(SIZE + extra * 64).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aikido-read-once-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Opens `/f`, reads its first piece, has `change` replace or remove the
/// path, and reads the rest: the whole is the first version, or (a host
/// file written in place) a read fails.
fn reads_the_version_opened(name: &str, storage: &dyn Storage, change: &dyn Fn(&dyn Storage)) {
    let old = version(b'a', 0);
    storage.write("/f", &old).unwrap();
    let file = storage.open_read("/f").unwrap();
    let mut read = file.read_at(0, 100_000).unwrap();
    change(storage);
    let rest = file.read_at(read.len() as u64, usize::MAX);
    match rest {
        Ok(rest) => {
            read.extend_from_slice(&rest);
            assert!(read == old, "{name}: read {} bytes that are not the version opened", read.len());
        }
        Err(error) => assert!(error.to_string().contains("changed"), "{name}: {error}"),
    }
}

fn replace(storage: &dyn Storage) {
    storage.write("/f", &version(b'b', 1)).unwrap();
}

fn replace_by_rename(storage: &dyn Storage) {
    storage.write("/f.new", &version(b'b', 1)).unwrap();
    storage.rename("/f.new", "/f").unwrap();
}

fn remove(storage: &dyn Storage) {
    storage.remove("/f", false).unwrap();
}

fn append(storage: &dyn Storage) {
    storage.append("/f", b"more\n").unwrap();
}

#[test]
fn an_open_file_reads_the_version_it_opened_on_every_storage() {
    #[allow(clippy::type_complexity)] // a table of named changes, read once below
    let changes: [(&str, &dyn Fn(&dyn Storage)); 4] =
        [("write", &replace), ("rename", &replace_by_rename), ("remove", &remove), ("append", &append)];
    let folder = scratch("direct");
    for (change_name, change) in changes {
        let storages: Vec<(&str, Box<dyn Storage>)> = vec![
            ("memory", Box::new(MemoryStorage::default())),
            ("host", Box::new(HostDir::new(&folder).unwrap())),
            ("host, walk", Box::new(HostDir::new(&folder).unwrap().without_openat2())),
            ("overlay over host", Box::new(Overlay::new(HostDir::new(&folder).unwrap()))),
            ("dry run", Box::new(DryRun::new(MemoryStorage::default()))),
            ("mounts", Box::new(Mounts::new(Arc::new(MemoryStorage::default())))),
            ("policy", Box::new(Policy::new(MemoryStorage::default(), PathPolicy::new()))),
        ];
        for (name, storage) in &storages {
            reads_the_version_opened(&format!("{name}, {change_name}"), storage.as_ref(), change);
            let _ = storage.remove("/f", false);
        }
    }
    // A memory file opened and then replaced: the reader's version, exactly.
    let memory = MemoryStorage::default();
    memory.write("/f", b"one").unwrap();
    let file = memory.open_read("/f").unwrap();
    memory.write("/f", b"two, longer").unwrap();
    assert_eq!(file.read_at(0, 100).unwrap(), b"one");
    assert_eq!(file.size(), 3);
    let _ = fs::remove_dir_all(&folder);
}

#[test]
fn opening_checks_what_reading_checks() {
    let inner = MemoryStorage::default();
    inner.mkdir("/secret", false).unwrap();
    inner.write("/secret/key", b"KEY").unwrap();
    let policy = Policy::new(inner, PathPolicy::new().deny(Access::Read, "/secret/**"));
    assert!(matches!(policy.open_read("/secret/key").map(|_| ()), Err(StorageError::PermissionDenied(_))));
    let read_only = ReadOnly(MemoryStorage::default());
    assert!(matches!(read_only.open_read("/none").map(|_| ()), Err(StorageError::NotFound(p)) if p == "/none"));
    assert!(matches!(read_only.open_read("/").map(|_| ()), Err(StorageError::IsADirectory(_))));
    // A symlink leading out of a host folder is refused at the open.
    let folder = scratch("escape");
    std::os::unix::fs::symlink("/etc/passwd", folder.join("out")).unwrap();
    let host = HostDir::new(&folder).unwrap();
    assert!(host.open_read("/out").is_err(), "a symlink out of the folder was opened");
    assert!(host.open_read("/../../etc/passwd").is_err());
    let _ = fs::remove_dir_all(&folder);
}

/// The scripts that race the writer, each alone in a run.
const SCRIPTS: [&str; 5] = ["cat /f | md5sum", "md5sum /f", "wc -c < /f", "wc -lc /f", "cat < /f | sha256sum"];

/// What `script` prints for each version of `/f`, run over a storage that
/// holds only that version.
fn outputs(script: &str, versions: &[Vec<u8>]) -> Vec<Vec<u8>> {
    versions
        .iter()
        .map(|content| {
            let storage = Arc::new(MemoryStorage::default());
            storage.write("/f", content).unwrap();
            let result = Shell::new(storage, ShellOptions::default()).run(&format!("set -o pipefail; {script}"), None);
            assert_eq!(result.exit_code, 0, "{script}: {}", String::from_utf8_lossy(&result.stderr));
            result.stdout
        })
        .collect()
}

/// Runs each script `rounds` times while a thread keeps changing `/f`
/// (with `change`, given the round): every run prints one version's output
/// with status 0, or fails with a message and a non-zero status.
fn race(name: &str, storage: Arc<dyn Storage>, change: fn(&dyn Storage, usize), rounds: usize) {
    let versions = [version(b'a', 0), version(b'b', 1)];
    storage.write("/f", &versions[0]).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (storage, stop) = (storage.clone(), stop.clone());
        thread::spawn(move || {
            let mut round = 0;
            while !stop.load(Ordering::Relaxed) {
                change(storage.as_ref(), round);
                round += 1;
                thread::yield_now();
            }
            round
        })
    };
    let mut failures = 0;
    for script in SCRIPTS {
        let expected = outputs(script, &versions);
        for _ in 0..rounds {
            let mut shell = Shell::new(storage.clone(), ShellOptions::default());
            let result = shell.run(&format!("set -o pipefail; {script}"), None);
            if result.exit_code == 0 {
                assert!(
                    expected.contains(&result.stdout),
                    "{name}: `{script}` printed {:?}, the output of no version (stderr {:?})",
                    String::from_utf8_lossy(&result.stdout),
                    String::from_utf8_lossy(&result.stderr)
                );
            } else {
                failures += 1;
                if failures < 4 {
                    eprintln!("{name}: `{script}`: {}", String::from_utf8_lossy(&result.stderr));
                }
                assert!(
                    !result.stderr.is_empty(),
                    "{name}: `{script}` failed with {} and no message",
                    result.exit_code
                );
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let changes = writer.join().unwrap();
    assert!(changes > 0, "{name}: the writer never ran");
    eprintln!("{name}: {} runs, {failures} failed with a message, {changes} changes", rounds * SCRIPTS.len());
}

/// Replaces `/f` with the other version, or removes it and puts it back.
fn write_or_remove(storage: &dyn Storage, round: usize) {
    let content = version(if round.is_multiple_of(2) { b'b' } else { b'a' }, (round % 2) ^ 1);
    match round % 5 {
        4 => {
            let _ = storage.remove("/f", false);
            let _ = storage.write("/f", &content);
        }
        _ => {
            let _ = storage.write("/f", &content);
        }
    }
}

/// Replaces `/f` as a careful host writer does (a new file renamed over
/// it), or removes it and puts it back.
fn rename_or_remove(storage: &dyn Storage, round: usize) {
    let content = version(if round.is_multiple_of(2) { b'b' } else { b'a' }, (round % 2) ^ 1);
    if round % 5 == 4 {
        let _ = storage.remove("/f", false);
    }
    let _ = storage.write("/f.new", &content);
    let _ = storage.rename("/f.new", "/f");
}

#[test]
fn commands_racing_a_writer_on_memory_read_one_version() {
    race("memory", Arc::new(MemoryStorage::default()), write_or_remove, 12);
    race("overlay", Arc::new(Overlay::new(MemoryStorage::default())), write_or_remove, 6);
}

#[test]
fn commands_racing_a_writer_on_a_host_folder_read_one_version() {
    let folder = scratch("race");
    race("host", Arc::new(HostDir::new(&folder).unwrap()), rename_or_remove, 12);
    let _ = fs::remove_dir_all(&folder);
}
