//! `Storage::read_range` and `Storage::open_read`, the piece-at-a-time
//! reads the shell's commands use for large files: on every storage
//! (memory, host folder, overlay, dry run, read-only, mounts, policy, and
//! the trait's default) a range, by path or of the file opened, is exactly
//! that slice of `read`, and a path `read` refuses is refused the same way.
#![cfg(feature = "storage")]

use std::fs;
use std::mem::discriminant;
use std::path::PathBuf;
use std::sync::Arc;

use aikido::storage::{
    Access, DirEntry, DryRun, HostDir, MemoryStorage, Metadata, Mounts, Overlay, PathPolicy, Policy, ReadOnly, Storage,
    StorageError,
};

/// A storage that implements only the required methods: `read_range` is
/// the trait's default.
struct Plain(MemoryStorage);

impl Storage for Plain {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        self.0.read(path)
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.0.write(path, data)
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.0.append(path, data)
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.0.stat(path)
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.0.lstat(path)
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        self.0.list(path)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.0.mkdir(path, parents)
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.0.remove(path, recursive)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.0.rename(from, to)
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.0.symlink(target, link)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.0.readlink(path)
    }
}

fn content() -> Vec<u8> {
    (0..300_000u32).map(|n| (n % 251) as u8).collect()
}

/// Fills a storage: /d/big (300,000 bytes), /d/small, /d/empty, /d/link
/// (a symlink to big), /secret/key.
fn fill(storage: &dyn Storage) {
    storage.mkdir("/d", true).unwrap();
    storage.mkdir("/secret", true).unwrap();
    storage.write("/d/big", &content()).unwrap();
    storage.write("/d/small", b"hello\n").unwrap();
    storage.write("/d/empty", b"").unwrap();
    storage.symlink("big", "/d/link").unwrap();
    storage.write("/secret/key", b"KEY").unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aikido-read-range-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every range of every file is the slice of `read`; errors are `read`'s.
fn check(name: &str, storage: &dyn Storage) {
    let ranges: &[(u64, usize)] = &[
        (0, 0),
        (0, 1),
        (0, 1 << 18),
        (1, 5),
        (65_536, 70_000),
        (299_999, 10),
        (300_000, 5),
        (1 << 40, 5),
        (u64::MAX, usize::MAX),
    ];
    for path in ["/d/big", "/d/small", "/d/empty", "/d/link", "/d/../d/big"] {
        let whole = storage.read(path).unwrap_or_else(|e| panic!("{name}: read {path}: {e}"));
        for &(offset, len) in ranges {
            let piece = storage.read_range(path, offset, len).unwrap_or_else(|e| panic!("{name}: {path}: {e}"));
            let start = usize::try_from(offset).unwrap_or(usize::MAX).min(whole.len());
            let end = start.saturating_add(len).min(whole.len());
            assert_eq!(piece, &whole[start..end], "{name}: {path} at {offset}+{len}");
            let opened = storage.open_read(path).unwrap_or_else(|e| panic!("{name}: open {path}: {e}"));
            assert_eq!(opened.size(), whole.len() as u64, "{name}: {path}: size");
            let piece = opened.read_at(offset, len).unwrap_or_else(|e| panic!("{name}: {path}: {e}"));
            assert_eq!(piece, &whole[start..end], "{name}: {path} opened, at {offset}+{len}");
        }
    }
    // Read in pieces end to end, as `cat` does.
    let mut joined = Vec::new();
    loop {
        let piece = storage.read_range("/d/big", joined.len() as u64, 65_536).unwrap();
        if piece.is_empty() {
            break;
        }
        joined.extend_from_slice(&piece);
    }
    assert_eq!(joined, content(), "{name}: pieces");
    for path in ["/d/missing", "/d", "/d/small/x", "/secret/key"] {
        let read = storage.read(path);
        let opened = storage.open_read(path).map(|file| file.read_at(0, 10).unwrap());
        match (&read, &opened) {
            (Ok(a), Ok(b)) => assert_eq!(&a[..a.len().min(10)], &b[..], "{name}: {path} opened"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}: {path} opened"),
            _ => panic!("{name}: {path}: read {read:?}, open_read {:?}", opened.map(|_| ())),
        }
        let range = storage.read_range(path, 0, 10);
        match (&read, &range) {
            (Ok(a), Ok(b)) => assert_eq!(&a[..a.len().min(10)], &b[..], "{name}: {path}"),
            (Err(a), Err(b)) => {
                assert_eq!(discriminant(a), discriminant(b), "{name}: {path}: {a} vs {b}");
                assert_eq!(a.to_string(), b.to_string(), "{name}: {path}");
            }
            _ => panic!("{name}: {path}: read {read:?}, read_range {range:?}"),
        }
    }
}

#[test]
fn every_storage_reads_the_same_ranges_as_read_and_refuses_what_read_refuses() {
    let memory = MemoryStorage::default();
    fill(&memory);
    check("memory", &memory);

    let plain = Plain(MemoryStorage::default());
    fill(&plain);
    check("default", &plain);

    let folder = scratch("host");
    let host = HostDir::new(&folder).unwrap();
    fill(&host);
    check("host", &host);
    check("read-only host", &ReadOnly(HostDir::new(&folder).unwrap()));

    // An overlay: files from the lower storage, files changed above it, a
    // file deleted above it.
    let overlay = Overlay::new(HostDir::new(&folder).unwrap());
    check("overlay, lower", &overlay);
    overlay.write("/d/small", b"changed\n").unwrap();
    overlay.remove("/secret/key", false).unwrap();
    check("overlay, upper", &overlay);
    assert_eq!(overlay.read_range("/d/small", 2, 3).unwrap(), b"ang");
    assert!(matches!(overlay.read_range("/secret/key", 0, 3), Err(StorageError::NotFound(_))));
    assert_eq!(fs::read(folder.join("secret/key")).unwrap(), b"KEY");

    let dry = DryRun::new(MemoryStorage::default());
    fill(&dry);
    check("dry run", &dry);

    let mounts = Mounts::new(Arc::new(MemoryStorage::default())).mount("/m", Arc::new(HostDir::new(&folder).unwrap()));
    fill(&mounts);
    check("mounts", &mounts);
    let piece = mounts.read_range("/m/d/big", 10, 4).unwrap();
    assert_eq!(piece, &content()[10..14]);
    assert!(matches!(mounts.read_range("/m/d/none", 0, 4), Err(StorageError::NotFound(p)) if p == "/m/d/none"));

    // A policy decides a range as it decides a read.
    let inner = MemoryStorage::default();
    fill(&inner);
    let policy = Policy::new(inner, PathPolicy::new().deny(Access::Read, "/secret/**"));
    check("policy", &policy);
    assert!(matches!(policy.read_range("/secret/key", 0, 3), Err(StorageError::PermissionDenied(_))));
    let _ = fs::remove_dir_all(&folder);
}
