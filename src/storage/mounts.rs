//! Storages composed at path prefixes.
//!
//! The longest prefix that covers a path wins. Each storage sees its own
//! paths (the mount point is its `/`), and resolves its own symlinks in its
//! own namespace: a symlink never leads from one mount into another. A
//! rename from one mount to another is refused with
//! [`StorageError::CrossDevice`], as `rename(2)` refuses across devices;
//! callers copy instead, as `mv` does.

use std::sync::Arc;

use super::path::normalize;
use super::{DirEntry, FileKind, Metadata, Storage, StorageError};

/// Storages mounted at prefixes over a root storage.
#[derive(Clone)]
pub struct Mounts {
    /// Longest prefix first; the root, `/`, is always last.
    table: Vec<(String, Arc<dyn Storage>)>,
}

impl Mounts {
    /// `root` at `/`, nothing else mounted.
    pub fn new(root: Arc<dyn Storage>) -> Self {
        Mounts { table: vec![("/".to_owned(), root)] }
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

    /// The mount covering `path`: its prefix, its storage and the path inside it.
    fn route(&self, path: &str) -> (&str, &dyn Storage, String) {
        let path = normalize(path);
        for (prefix, storage) in &self.table {
            let inner = if prefix == "/" {
                Some(path.as_str())
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

    /// Runs `operation` on the storage covering `path`, with errors about
    /// paths under the mount point.
    fn on<T>(
        &self,
        path: &str,
        operation: impl FnOnce(&dyn Storage, &str) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        let (prefix, storage, inner) = self.route(path);
        operation(storage, &inner).map_err(|error| error.with_path(|inner| outer(prefix, inner)))
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
}

/// A mounted storage's path as the caller sees it.
fn outer(prefix: &str, inner: &str) -> String {
    match (prefix, inner) {
        ("/", inner) => inner.to_owned(),
        (prefix, "/") => prefix.to_owned(),
        (prefix, inner) => format!("{prefix}{inner}"),
    }
}

impl Storage for Mounts {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        self.on(path, |storage, inner| storage.read(inner))
    }

    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.on(path, |storage, inner| storage.write(inner, data))
    }

    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.on(path, |storage, inner| storage.append(inner, data))
    }

    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let path = normalize(path);
        self.on(&path, |storage, inner| storage.stat(inner)).or_else(|error| self.mount_parent(&path, error))
    }

    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let path = normalize(path);
        self.on(&path, |storage, inner| storage.lstat(inner)).or_else(|error| self.mount_parent(&path, error))
    }

    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let path = normalize(path);
        let mut entries = match self.on(&path, |storage, inner| storage.list(inner)) {
            Ok(entries) => entries,
            Err(StorageError::NotFound(_)) if self.holds_mount_point(&path) => Vec::new(),
            Err(error) => return Err(error),
        };
        for name in self.mount_points_in(&path) {
            entries.retain(|entry| entry.name != name);
            entries.push(DirEntry { name, kind: FileKind::Directory });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.on(path, |storage, inner| if inner == "/" && parents { Ok(()) } else { storage.mkdir(inner, parents) })
    }

    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.on(path, |storage, inner| storage.remove(inner, recursive))
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let (from_prefix, storage, from_inner) = self.route(from);
        let (to_prefix, _, to_inner) = self.route(to);
        if from_prefix != to_prefix {
            return Err(StorageError::CrossDevice(normalize(to)));
        }
        storage.rename(&from_inner, &to_inner).map_err(|error| error.with_path(|inner| outer(from_prefix, inner)))
    }

    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.on(link, |storage, inner| storage.symlink(target, inner))
    }

    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.on(path, |storage, inner| storage.readlink(inner))
    }

    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        self.on(path, |storage, inner| storage.set_mode(inner, mode))
    }
}

impl Mounts {
    /// A directory that exists only because a mount point lies under it.
    fn mount_parent(&self, path: &str, error: StorageError) -> Result<Metadata, StorageError> {
        match error {
            StorageError::NotFound(_) if self.holds_mount_point(path) => Ok(Metadata {
                kind: FileKind::Directory,
                size: 0,
                mode: 0o755,
                modified: std::time::SystemTime::UNIX_EPOCH,
            }),
            error => Err(error),
        }
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
        assert!(matches!(mounts.remove("/mnt/data", true), Err(StorageError::InvalidArgument(_))));
    }
}
