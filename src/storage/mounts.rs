//! Storages composed at path prefixes.
//!
//! The longest prefix that covers a path wins, and each storage sees its
//! own paths (the mount point is its `/`). Symlinks are resolved here, at
//! the mount level, in the one namespace the caller sees: an absolute
//! target starts at the top `/`, a relative one at the link's folder, and
//! each component is looked up in the mount it belongs to. So every access
//! lands in the mount (and under the rules) of the path it resolves to:
//! `ln -s .git g; echo x > g/config` in `/w` writes through the mount at
//! `/w/.git` (read-only there, so it fails), never through `/w`'s own
//! folder. Resolution and access happen under one lock, so a session
//! swapping a symlink in between cannot make them differ; a storage is then
//! handed a real path (no symlink in it).
//!
//! A rename from one mount to another is refused with
//! [`StorageError::CrossDevice`], as `rename(2)` refuses across devices;
//! callers copy instead, as `mv` does. A mount point cannot be removed or
//! renamed, nor can a folder holding one ("Device or resource busy").

use std::sync::{Arc, RwLock};

use super::path::{normalize, resolve, Lookup};
use super::{asked, DirEntry, FileKind, Metadata, Storage, StorageError};

/// Storages mounted at prefixes over a root storage.
#[derive(Clone)]
pub struct Mounts {
    /// Longest prefix first; the root, `/`, is always last.
    table: Vec<(String, Arc<dyn Storage>)>,
    /// Held for reading while an operation resolves and acts, for writing
    /// while one changes something: no change through these mounts comes
    /// between a resolution and its access. Shared by clones.
    lock: Arc<RwLock<()>>,
}

impl Mounts {
    /// `root` at `/`, nothing else mounted.
    pub fn new(root: Arc<dyn Storage>) -> Self {
        Mounts { table: vec![("/".to_owned(), root)], lock: Arc::default() }
    }

    /// The same, with `storage` mounted at `prefix` (replacing what was
    /// mounted there).
    pub fn mount(mut self, prefix: &str, storage: Arc<dyn Storage>) -> Self {
        let prefix = normalize(prefix);
        self.table.retain(|(existing, _)| *existing != prefix);
        self.table.push((prefix, storage));
        self.table.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
        self
    }

    fn reading(&self) -> std::sync::RwLockReadGuard<'_, ()> {
        self.lock.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn writing(&self) -> std::sync::RwLockWriteGuard<'_, ()> {
        self.lock.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The mount covering the real path `path`: its prefix, its storage and
    /// the path inside it.
    fn route(&self, path: &str) -> (&str, &dyn Storage, String) {
        for (prefix, storage) in &self.table {
            let inner = if prefix == "/" {
                Some(path)
            } else if path == *prefix {
                Some("/")
            } else {
                path.strip_prefix(prefix.as_str()).filter(|rest| rest.starts_with('/'))
            };
            if let Some(inner) = inner {
                return (prefix, storage.as_ref(), inner.to_owned());
            }
        }
        unreachable!("the root mount covers every path")
    }

    /// What stands at a real path, asked of the mount it belongs to. A
    /// mount point, and a folder holding one, is a directory whatever the
    /// covering storage has there, so that mounts stay reachable.
    fn lookup(&self, real: &str) -> Result<Lookup, StorageError> {
        if self.is_mount_point(real) || self.holds_mount_point(real) {
            return Ok(Lookup::Directory);
        }
        let (_, storage, inner) = self.route(real);
        Ok(match storage.lstat(&inner) {
            Err(StorageError::NotFound(_) | StorageError::NotADirectory(_)) => Lookup::Missing,
            Err(error) => return Err(error),
            Ok(metadata) => match metadata.kind {
                FileKind::Directory => Lookup::Directory,
                FileKind::File => Lookup::File,
                FileKind::Symlink => Lookup::Symlink(storage.readlink(&inner)?),
            },
        })
    }

    /// The real path `path` names, symlinks followed across mounts.
    fn resolve(&self, path: &str, follow_last: bool) -> Result<String, StorageError> {
        resolve(path, follow_last, |real| self.lookup(real))
    }

    /// Resolves `path`, then runs `operation` on the mount its real path
    /// belongs to; errors name `path`.
    fn on<T>(
        &self,
        path: &str,
        follow_last: bool,
        operation: impl FnOnce(&dyn Storage, &str, &str) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        asked(
            path,
            self.resolve(path, follow_last).and_then(|real| {
                let (_, storage, inner) = self.route(&real);
                operation(storage, &inner, &real)
            }),
        )
    }

    fn is_mount_point(&self, path: &str) -> bool {
        path != "/" && self.table.iter().any(|(prefix, _)| prefix == path)
    }

    /// The entries of `directory` that mount points below it need: `mnt`
    /// in `/` for a mount at `/mnt/data`.
    fn mount_points_in(&self, directory: &str) -> Vec<String> {
        let below = if directory == "/" { "/".to_owned() } else { format!("{directory}/") };
        let mut names: Vec<String> = self
            .table
            .iter()
            .filter(|(prefix, _)| prefix != "/")
            .filter_map(|(prefix, _)| prefix.strip_prefix(below.as_str()))
            .filter_map(|rest| rest.split('/').next().map(str::to_owned))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Whether a mount point lies strictly under `directory`, which then
    /// exists even where the covering storage has nothing.
    fn holds_mount_point(&self, directory: &str) -> bool {
        !self.mount_points_in(directory).is_empty()
    }

    /// Refuses to remove or move a mount point or a folder holding one.
    fn movable(&self, real: &str) -> Result<(), StorageError> {
        if real == "/" || self.is_mount_point(real) || self.holds_mount_point(real) {
            Err(StorageError::Io { path: real.to_owned(), message: "Device or resource busy".to_owned() })
        } else {
            Ok(())
        }
    }

    /// A directory that exists only because a mount point lies under it.
    fn mount_parent(&self, real: &str, error: StorageError) -> Result<Metadata, StorageError> {
        match error {
            StorageError::NotFound(_) if self.holds_mount_point(real) => Ok(Metadata {
                kind: FileKind::Directory,
                size: 0,
                mode: 0o755,
                modified: std::time::SystemTime::UNIX_EPOCH,
            }),
            error => Err(error),
        }
    }
}

impl Storage for Mounts {
    /// The layer of the storage mounted at `/` (the others are referred
    /// to): a session over mounts keeps the files of its root storage.
    fn snapshot_layer(&self) -> Option<&dyn super::SnapshotLayer> {
        self.table.last().and_then(|(_, root)| root.snapshot_layer())
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let _held = self.reading();
        self.on(path, true, |storage, inner, _| storage.read(inner))
    }

    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        let _held = self.reading();
        self.on(path, true, |storage, inner, _| storage.read_range(inner, offset, len))
    }

    fn open_read(&self, path: &str) -> Result<std::sync::Arc<dyn super::OpenFile>, StorageError> {
        let _held = self.reading();
        self.on(path, true, |storage, inner, _| storage.open_read(inner))
    }

    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let _held = self.writing();
        self.on(path, true, |storage, inner, _| storage.write(inner, data))
    }

    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let _held = self.writing();
        self.on(path, true, |storage, inner, _| storage.append(inner, data))
    }

    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let _held = self.reading();
        self.on(path, true, |storage, inner, real| storage.stat(inner).or_else(|error| self.mount_parent(real, error)))
    }

    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let _held = self.reading();
        self.on(path, false, |storage, inner, real| {
            storage.lstat(inner).or_else(|error| self.mount_parent(real, error))
        })
    }

    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let _held = self.reading();
        self.on(path, true, |storage, inner, real| {
            let mut entries = match storage.list(inner) {
                Ok(entries) => entries,
                Err(StorageError::NotFound(_) | StorageError::NotADirectory(_)) if self.holds_mount_point(real) => {
                    Vec::new()
                }
                Err(error) => return Err(error),
            };
            for name in self.mount_points_in(real) {
                entries.retain(|entry| entry.name != name);
                entries.push(DirEntry { name, kind: FileKind::Directory });
            }
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(entries)
        })
    }

    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let _held = self.writing();
        if !parents {
            return self.on(path, false, |storage, inner, real| {
                if self.lookup(real)? != Lookup::Missing {
                    return Err(StorageError::AlreadyExists(real.to_owned()));
                }
                storage.mkdir(inner, false)
            });
        }
        // Each prefix in turn, resolved across mounts: folders that exist
        // (through symlinks too) are passed, missing ones made in the mount
        // they belong to.
        let target = normalize(path);
        let mut prefix = String::new();
        for part in target.split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            let made = self.resolve(&prefix, true).and_then(|real| match self.lookup(&real)? {
                Lookup::Directory => Ok(()),
                Lookup::Missing => {
                    let (_, storage, inner) = self.route(&real);
                    storage.mkdir(&inner, false)
                }
                _ => Err(StorageError::AlreadyExists(real)),
            });
            asked(path, made)?;
        }
        Ok(())
    }

    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        let _held = self.writing();
        self.on(path, false, |storage, inner, real| {
            self.movable(real)?;
            storage.remove(inner, recursive)
        })
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let _held = self.writing();
        let source = asked(from, self.resolve(from, false))?;
        let destination = asked(to, self.resolve(to, false))?;
        asked(from, self.movable(&source))?;
        asked(to, self.movable(&destination))?;
        let (from_prefix, storage, from_inner) = self.route(&source);
        let (to_prefix, _, to_inner) = self.route(&destination);
        if from_prefix != to_prefix {
            return Err(StorageError::CrossDevice(normalize(to)));
        }
        storage.rename(&from_inner, &to_inner).map_err(|error| {
            let at = if error.path() == to_inner { to } else { from };
            error.with_path(|_| normalize(at))
        })
    }

    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        let _held = self.writing();
        self.on(link, false, |storage, inner, real| {
            if self.is_mount_point(real) || self.holds_mount_point(real) {
                return Err(StorageError::AlreadyExists(real.to_owned()));
            }
            storage.symlink(target, inner)
        })
    }

    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        let _held = self.reading();
        self.on(path, false, |storage, inner, real| {
            if self.is_mount_point(real) {
                return Err(StorageError::InvalidArgument(real.to_owned()));
            }
            storage.readlink(inner)
        })
    }

    fn file_size_limit(&self, path: &str) -> Option<u64> {
        let (_, storage, inner) = self.route(&normalize(path));
        storage.file_size_limit(&inner)
    }

    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let _held = self.writing();
        self.on(path, true, |storage, inner, _| storage.set_mode(inner, mode))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{MemoryStorage, ReadOnly};

    fn mounts() -> (Arc<MemoryStorage>, Arc<MemoryStorage>, Mounts) {
        let root = Arc::new(MemoryStorage::default());
        let data = Arc::new(MemoryStorage::default());
        root.write("/top.txt", b"root").unwrap();
        data.write("/inside.txt", b"data").unwrap();
        let docs = MemoryStorage::default();
        docs.write("/manual.txt", b"docs").unwrap();
        let mounts = Mounts::new(root.clone())
            .mount("/mnt/data", data.clone())
            .mount("/mnt/data/docs", Arc::new(ReadOnly(docs)));
        (root, data, mounts)
    }

    #[test]
    fn the_longest_prefix_wins_and_paths_are_rewritten() {
        let (root, data, mounts) = mounts();
        assert_eq!(mounts.read("/top.txt").unwrap(), b"root");
        assert_eq!(mounts.read("/mnt/data/inside.txt").unwrap(), b"data");
        assert_eq!(mounts.read("/mnt/data/docs/manual.txt").unwrap(), b"docs");
        mounts.write("/mnt/data/new.txt", b"n").unwrap();
        assert_eq!(data.read("/new.txt").unwrap(), b"n");
        assert!(root.stat("/mnt").is_err(), "nothing was written into the root storage");
        assert_eq!(
            mounts.read("/mnt/data/missing").unwrap_err().to_string(),
            "/mnt/data/missing: No such file or directory"
        );
        assert_eq!(
            mounts.write("/mnt/data/docs/manual.txt", b"x").unwrap_err().to_string(),
            "/mnt/data/docs/manual.txt: Read-only file system"
        );
    }

    #[test]
    fn mount_points_are_listed_and_renames_across_mounts_are_refused() {
        let (_, _, mounts) = mounts();
        let names =
            |path: &str| -> Vec<String> { mounts.list(path).unwrap().into_iter().map(|entry| entry.name).collect() };
        assert_eq!(names("/"), ["mnt", "top.txt"]);
        assert_eq!(names("/mnt"), ["data"]);
        assert_eq!(names("/mnt/data"), ["docs", "inside.txt"]);
        assert_eq!(mounts.stat("/mnt").unwrap().kind, FileKind::Directory);
        assert_eq!(
            mounts.rename("/top.txt", "/mnt/data/top.txt").unwrap_err(),
            StorageError::CrossDevice("/mnt/data/top.txt".to_owned())
        );
        mounts.rename("/mnt/data/inside.txt", "/mnt/data/renamed.txt").unwrap();
        assert_eq!(mounts.read("/mnt/data/renamed.txt").unwrap(), b"data");
        assert_eq!(mounts.remove("/mnt/data", true).unwrap_err().to_string(), "/mnt/data: Device or resource busy");
        assert_eq!(mounts.remove("/mnt", true).unwrap_err().to_string(), "/mnt: Device or resource busy");
    }
}
