//! Differential test of the storages: random sequences of operations run on
//! a memory storage, on a host directory over a temporary folder, and on an
//! overlay over another host directory. Each operation must give the same
//! result everywhere (the same value, or an error of the same kind), the
//! final trees must be equal, and the overlay's lower folder must be
//! untouched until commit, and equal to the others after it.
#![cfg(feature = "storage")]

use std::fs;
use std::mem::discriminant;
use std::path::PathBuf;

use aikido::storage::{FileKind, HostDir, MemoryStorage, Overlay, Storage, StorageError};

/// xorshift64*: a small deterministic generator, so a failing seed replays.
struct Random(u64);
impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const PATHS: &[&str] = &["/a", "/a/b", "/a/b/c", "/a/x", "/d", "/d/e", "/f", "/a/../d/g", "/l", "/l/b"];
// Relative targets that stay inside wherever the link stands: a host
// directory refuses absolute ones and ones climbing above its root (see
// tests/storage_security.rs), which memory storages keep.
const TARGETS: &[&str] = &["a", "a/b", "./d", "missing", "l"];

#[derive(Debug, PartialEq)]
enum Outcome {
    Done,
    Bytes(Vec<u8>),
    Names(Vec<(String, FileKind)>),
    Kind(FileKind, u64),
    Failed(std::mem::Discriminant<StorageError>),
}

fn outcome<T>(result: Result<T, StorageError>, value: impl FnOnce(T) -> Outcome) -> Outcome {
    match result {
        Ok(inner) => value(inner),
        Err(error) => Outcome::Failed(discriminant(&error)),
    }
}

/// One random operation, described so a failure can be replayed by eye.
fn operate(storage: &dyn Storage, random: &mut Random) -> (String, Outcome) {
    let path = random.pick(PATHS);
    let other = random.pick(PATHS);
    let data = format!("{}", random.next() % 1000).into_bytes();
    match random.next() % 11 {
        0 | 1 => (format!("write {path}"), outcome(storage.write(path, &data), |()| Outcome::Done)),
        2 => (format!("append {path}"), outcome(storage.append(path, &data), |()| Outcome::Done)),
        3 => (format!("read {path}"), outcome(storage.read(path), Outcome::Bytes)),
        4 => (format!("mkdir -p {path}"), outcome(storage.mkdir(path, true), |()| Outcome::Done)),
        5 => (format!("mkdir {path}"), outcome(storage.mkdir(path, false), |()| Outcome::Done)),
        6 => {
            let recursive = random.next().is_multiple_of(2);
            (format!("remove {path} {recursive}"), outcome(storage.remove(path, recursive), |()| Outcome::Done))
        }
        7 => (format!("rename {path} {other}"), outcome(storage.rename(path, other), |()| Outcome::Done)),
        8 => {
            let target = random.pick(TARGETS);
            (format!("symlink {target} {path}"), outcome(storage.symlink(target, path), |()| Outcome::Done))
        }
        9 => (
            format!("list {path}"),
            outcome(storage.list(path), |entries| {
                Outcome::Names(entries.into_iter().map(|entry| (entry.name, entry.kind)).collect())
            }),
        ),
        _ => (
            format!("lstat {path}"),
            outcome(storage.lstat(path), |meta| {
                Outcome::Kind(meta.kind, if meta.kind == FileKind::Directory { 0 } else { meta.size })
            }),
        ),
    }
}

/// Every path under `/` with its content (files) or target (symlinks).
fn tree(storage: &dyn Storage) -> Vec<(String, FileKind, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec!["/".to_owned()];
    while let Some(directory) = pending.pop() {
        for entry in storage.list(&directory).unwrap() {
            let path =
                if directory == "/" { format!("/{}", entry.name) } else { format!("{directory}/{}", entry.name) };
            let content = match entry.kind {
                FileKind::File => storage.read(&path).unwrap(),
                FileKind::Symlink => storage.readlink(&path).unwrap().into_bytes(),
                FileKind::Directory => {
                    pending.push(path.clone());
                    Vec::new()
                }
            };
            out.push((path, entry.kind, content));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("aikido-differential-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&path);
    fs::create_dir_all(&path).unwrap();
    path
}

#[test]
fn memory_host_directory_and_overlay_agree_on_random_operations() {
    let host_root = scratch("host");
    let lower_root = scratch("lower");
    let sequences = 300;
    for seed in 1..=sequences {
        for root in [&host_root, &lower_root] {
            fs::remove_dir_all(root).unwrap();
            fs::create_dir(root).unwrap();
        }
        let memory = MemoryStorage::default();
        let host = HostDir::new(&host_root).unwrap();
        let overlay = Overlay::new(HostDir::new(&lower_root).unwrap());
        let storages: [(&str, &dyn Storage); 3] = [("memory", &memory), ("host", &host), ("overlay", &overlay)];
        let mut log = Vec::new();
        for step in 0..40 {
            let mut outcomes = Vec::new();
            for (name, storage) in storages {
                // The same generator state for each storage: the same operation.
                let mut random = Random(seed * 7919 + step);
                let (operation, result) = operate(storage, &mut random);
                outcomes.push((name, operation, result));
            }
            log.push(outcomes[0].1.clone());
            let (_, _, expected) = &outcomes[0];
            for (name, _, result) in &outcomes[1..] {
                assert_eq!(result, expected, "seed {seed}: {name} differs from memory after:\n{}", log.join("\n"));
            }
        }
        let expected = tree(&memory);
        assert_eq!(tree(&host), expected, "seed {seed}: host tree differs:\n{}", log.join("\n"));
        assert_eq!(tree(&overlay), expected, "seed {seed}: overlay tree differs:\n{}", log.join("\n"));
        assert_eq!(fs::read_dir(&lower_root).unwrap().count(), 0, "seed {seed}: the lower folder changed");
        overlay.commit().unwrap();
        assert_eq!(tree(overlay.lower()), expected, "seed {seed}: commit differs:\n{}", log.join("\n"));
    }
    fs::remove_dir_all(&host_root).unwrap();
    fs::remove_dir_all(&lower_root).unwrap();
}

#[test]
fn a_policy_over_a_host_directory_refuses_and_leaves_the_disk_as_it_was() {
    use aikido::storage::{Access, PathPolicy, Policy};
    let root = scratch("policy");
    fs::create_dir_all(root.join("work/secrets")).unwrap();
    fs::write(root.join("work/secrets/key"), "hunter2").unwrap();
    fs::write(root.join("work/notes.txt"), "notes").unwrap();
    std::os::unix::fs::symlink("/work/secrets/key", root.join("work/shortcut")).unwrap();
    let policy = PathPolicy::new().allow(Access::Write, "/work/*.txt").deny(Access::Read, "/work/secrets/**");
    let storage = Policy::new(HostDir::new(&root).unwrap(), policy);
    let before = tree(&HostDir::new(&root).unwrap());

    let refusals: Vec<Result<(), StorageError>> = vec![
        storage.read("/work/secrets/key").map(drop),
        storage.read("/work/shortcut").map(drop),
        storage.write("/work/shortcut", b"x"),
        storage.write("/work/new.md", b"x"),
        storage.remove("/work/secrets", true),
        storage.rename("/work/notes.txt", "/work/secrets/notes.txt"),
        storage.mkdir("/work/sub", true),
        storage.symlink("/etc", "/work/link"),
    ];
    for refusal in refusals {
        assert!(matches!(refusal, Err(StorageError::PermissionDenied(_))), "{refusal:?}");
    }
    assert_eq!(tree(&HostDir::new(&root).unwrap()), before, "a refused access changed the disk");
    storage.write("/work/notes.txt", b"allowed").unwrap();
    assert_eq!(fs::read_to_string(root.join("work/notes.txt")).unwrap(), "allowed");
    fs::remove_dir_all(&root).unwrap();
}
