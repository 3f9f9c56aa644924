//! A storage held in memory, with limits on its total size and on each file.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::path::{normalize, resolve, Lookup};
use super::{DirEntry, FileKind, Metadata, OpenFile, Snapshot, Storage, StorageError};

/// How big a [`MemoryStorage`] (or an [`Overlay`](super::Overlay)'s upper
/// layer) may grow. The default, [`MemoryLimits::default`], keeps one
/// storage from exhausting the machine: [`DEFAULT_MAX_TOTAL_BYTES`] and
/// [`DEFAULT_MAX_FILES`]; [`MemoryLimits::UNLIMITED`] has no bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimits {
    /// The bytes of all files together.
    pub max_total_bytes: u64,
    /// The bytes of any one file.
    pub max_file_bytes: u64,
    /// Entries (files, folders, symlinks) the storage holds, `/` aside.
    pub max_files: u64,
}

/// The default [`MemoryLimits::max_total_bytes`]: 512 MiB.
pub const DEFAULT_MAX_TOTAL_BYTES: u64 = 512 << 20;

/// The default [`MemoryLimits::max_files`]: 100,000 entries.
pub const DEFAULT_MAX_FILES: u64 = 100_000;

impl MemoryLimits {
    /// No bound at all: for a storage whose caller bounds it otherwise.
    pub const UNLIMITED: MemoryLimits =
        MemoryLimits { max_total_bytes: u64::MAX, max_file_bytes: u64::MAX, max_files: u64::MAX };

    /// The error of an entry that would pass [`MemoryLimits::max_files`].
    pub(crate) fn too_many_files(&self, path: String) -> StorageError {
        StorageError::Io {
            path,
            message: format!("No space left on device (the storage's limit is {} files: max_files)", self.max_files),
        }
    }
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
            max_file_bytes: u64::MAX,
            max_files: DEFAULT_MAX_FILES,
        }
    }
}

/// A node of the tree. A file's content is shared by the forks of a
/// storage (`MemoryStorage::fork`) and copied on its first write.
#[derive(Debug, Clone)]
pub(super) enum Node {
    /// The content is shared with the readers that opened it
    /// ([`Storage::open_read`]): a write replaces the buffer, and an append
    /// while one is open copies it first, so each reader keeps its version.
    File {
        data: Arc<Vec<u8>>,
        mode: u32,
        modified: SystemTime,
    },
    Directory {
        mode: u32,
        modified: SystemTime,
    },
    Symlink {
        target: String,
        modified: SystemTime,
    },
}

impl Node {
    pub(super) fn directory() -> Node {
        Node::Directory { mode: 0o755, modified: SystemTime::now() }
    }

    fn metadata(&self) -> Metadata {
        match self {
            Node::File { data, mode, modified } => {
                Metadata { kind: FileKind::File, size: data.len() as u64, mode: *mode, modified: *modified }
            }
            Node::Directory { mode, modified } => {
                Metadata { kind: FileKind::Directory, size: 0, mode: *mode, modified: *modified }
            }
            Node::Symlink { target, modified } => {
                Metadata { kind: FileKind::Symlink, size: target.len() as u64, mode: 0o777, modified: *modified }
            }
        }
    }

    fn file_bytes(&self) -> u64 {
        match self {
            Node::File { data, .. } => data.len() as u64,
            _ => 0,
        }
    }
}

/// The tree: every node by its normalised path, so that a directory's
/// contents are one range of keys.
pub(super) struct Tree {
    pub(super) nodes: BTreeMap<String, Node>,
    pub(super) total_bytes: u64,
}

/// The range of keys strictly under a directory, and the prefix they share:
/// `/a/` up to `/a0` (`0` follows `/`).
fn descendants(directory: &str) -> ((Bound<String>, Bound<String>), String) {
    if directory == "/" {
        ((Bound::Excluded("/".to_owned()), Bound::Excluded("0".to_owned())), "/".to_owned())
    } else {
        let prefix = format!("{directory}/");
        ((Bound::Included(prefix.clone()), Bound::Excluded(format!("{directory}0"))), prefix)
    }
}

impl Tree {
    /// The real path `path` names; see [`resolve`].
    fn resolve(&self, path: &str, follow_last: bool) -> Result<String, StorageError> {
        // Keys are real paths, and every key's ancestors are directories
        // (a rename moves a whole subtree, a removal takes it away): a path
        // that is a key, or whose parent is a directory's key, is its own
        // real path unless it is a symlink to follow. This spares the walk
        // from the root, which costs the depth squared on deep trees.
        let normalized = super::normalize(path);
        match self.nodes.get(&normalized) {
            Some(Node::Symlink { .. }) if follow_last => {}
            Some(_) => return Ok(normalized),
            None => {
                let parent = super::parent(&normalized).map(|(parent, _)| parent);
                if parent.is_some_and(|parent| matches!(self.nodes.get(parent), Some(Node::Directory { .. }))) {
                    return Ok(normalized);
                }
            }
        }
        resolve(path, follow_last, |real| {
            Ok(match self.nodes.get(real) {
                None => Lookup::Missing,
                Some(Node::Directory { .. }) => Lookup::Directory,
                Some(Node::File { .. }) => Lookup::File,
                Some(Node::Symlink { target, .. }) => Lookup::Symlink(target.clone()),
            })
        })
    }

    fn node(&self, path: &str) -> Result<&Node, StorageError> {
        self.nodes.get(path).ok_or_else(|| StorageError::NotFound(path.to_owned()))
    }

    fn has_children(&self, directory: &str) -> bool {
        self.nodes.range(descendants(directory).0).next().is_some()
    }

    /// The paths of a directory and everything under it.
    fn subtree(&self, directory: &str) -> Vec<String> {
        let under = self.nodes.range(descendants(directory).0).map(|(key, _)| key.clone());
        std::iter::once(directory.to_owned()).chain(under).collect()
    }
}

/// A storage held in memory. Cheap to create; everything is lost when it is
/// dropped. A write that would pass a limit fails with
/// [`StorageError::TooLarge`] and changes nothing.
pub struct MemoryStorage {
    pub(super) tree: Mutex<Tree>,
    pub(super) limits: MemoryLimits,
}

impl Default for MemoryStorage {
    fn default() -> Self {
        MemoryStorage::new(MemoryLimits::default())
    }
}

impl MemoryStorage {
    /// An empty storage (only `/`) with these limits.
    pub fn new(limits: MemoryLimits) -> Self {
        let nodes = BTreeMap::from([("/".to_owned(), Node::directory())]);
        MemoryStorage { tree: Mutex::new(Tree { nodes, total_bytes: 0 }), limits }
    }

    /// The bytes all files hold together.
    pub fn total_bytes(&self) -> u64 {
        self.lock().total_bytes
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Tree> {
        // A panic cannot leave the tree half-changed: every change is one
        // map operation after all checks.
        self.tree.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes `data` as the content of the file at `path` (after what it
    /// holds, with `append`), keeping an existing file's mode. Limits are
    /// checked before anything is copied; an append extends the file in
    /// place, so appending in a loop stays linear.
    fn put(&self, path: &str, data: &[u8], append: bool) -> Result<(), StorageError> {
        let mut tree = self.lock();
        let real = tree.resolve(path, true)?;
        let old_len = match tree.nodes.get(&real) {
            Some(Node::File { data, .. }) => data.len() as u64,
            Some(Node::Directory { .. }) => return Err(StorageError::IsADirectory(real)),
            Some(Node::Symlink { .. }) => unreachable!("resolve follows a final symlink"),
            None if real == "/" => return Err(StorageError::IsADirectory(real)),
            None if tree.nodes.len() as u64 > self.limits.max_files => return Err(self.limits.too_many_files(real)),
            None => 0,
        };
        let new_len = if append { old_len + data.len() as u64 } else { data.len() as u64 };
        if new_len > self.limits.max_file_bytes {
            return Err(StorageError::TooLarge { path: real, limit: self.limits.max_file_bytes });
        }
        let total = tree.total_bytes - old_len + new_len;
        if total > self.limits.max_total_bytes {
            return Err(StorageError::TooLarge { path: real, limit: self.limits.max_total_bytes });
        }
        tree.total_bytes = total;
        let now = SystemTime::now();
        match tree.nodes.get_mut(&real) {
            Some(Node::File { data: existing, modified, .. }) => {
                if append {
                    // In place unless a fork or an open reader shares the content.
                    Arc::make_mut(existing).extend_from_slice(data);
                } else {
                    // A fresh buffer, so that a shrinking file gives memory back.
                    *existing = Arc::new(data.to_vec());
                }
                *modified = now;
            }
            _ => {
                tree.nodes.insert(real, Node::File { data: Arc::new(data.to_vec()), mode: 0o644, modified: now });
            }
        }
        Ok(())
    }
}

impl MemoryStorage {
    fn raw_read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, true)?;
        match tree.node(&real)? {
            Node::File { data, .. } => Ok(data.to_vec()),
            _ => Err(StorageError::IsADirectory(real)),
        }
    }

    /// The file's current buffer, shared: a later write or append makes a
    /// new one, so the reader keeps this version.
    fn raw_open_read(&self, path: &str) -> Result<Arc<dyn OpenFile>, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, true)?;
        match tree.node(&real)? {
            Node::File { data, .. } => Ok(Arc::new(Snapshot(data.clone()))),
            _ => Err(StorageError::IsADirectory(real)),
        }
    }

    fn raw_read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, true)?;
        match tree.node(&real)? {
            Node::File { data, .. } => Ok(super::range_of(data, offset, len).to_vec()),
            _ => Err(StorageError::IsADirectory(real)),
        }
    }

    fn raw_write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, false)
    }

    fn raw_append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, true)
    }

    fn raw_stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, true)?;
        Ok(tree.node(&real)?.metadata())
    }

    fn raw_lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, false)?;
        Ok(tree.node(&real)?.metadata())
    }

    fn raw_list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, true)?;
        if !matches!(tree.node(&real)?, Node::Directory { .. }) {
            return Err(StorageError::NotADirectory(real));
        }
        // The children, in key order; a child's own subtree (`P/c/…`, all
        // keys before `P/c0`) is skipped in one seek rather than walked, so
        // listing a folder costs its children, not all its descendants.
        let ((mut from, end), prefix) = descendants(&real);
        let mut entries = Vec::new();
        loop {
            let mut skip_to = None;
            for (key, node) in tree.nodes.range((from, end.clone())) {
                let name = &key[prefix.len()..];
                match name.find('/') {
                    None => entries.push(DirEntry { name: name.to_owned(), kind: node.metadata().kind }),
                    Some(slash) => {
                        skip_to = Some(format!("{prefix}{}0", &name[..slash]));
                        break;
                    }
                }
            }
            match skip_to {
                Some(key) => from = Bound::Included(key),
                None => break,
            }
        }
        Ok(entries)
    }

    fn raw_mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let mut tree = self.lock();
        let target = normalize(path);
        if !parents {
            let real = tree.resolve(&target, false)?;
            if tree.nodes.contains_key(&real) {
                return Err(StorageError::AlreadyExists(real));
            }
            if tree.nodes.len() as u64 > self.limits.max_files {
                return Err(self.limits.too_many_files(real));
            }
            tree.nodes.insert(real, Node::directory());
            return Ok(());
        }
        // Each prefix in turn: existing directories (through symlinks) are
        // fine, missing ones are made, anything else stops the walk. The
        // real path of the prefix so far is kept: the next level is
        // one name below it unless that name is a symlink, so resolving
        // every prefix from the root (cubic in the depth) is needed only
        // past symlinks.
        let mut prefix = String::new();
        let mut real = String::new();
        for part in target.split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            if !real.ends_with('/') {
                real.push('/');
            }
            real.push_str(part);
            if matches!(tree.nodes.get(&real), Some(Node::Symlink { .. })) || part == ".." || part == "." {
                real = tree.resolve(&prefix, true)?;
            }
            match tree.nodes.get(&real) {
                Some(Node::Directory { .. }) => {}
                Some(_) => return Err(StorageError::AlreadyExists(real)),
                None if tree.nodes.len() as u64 > self.limits.max_files => {
                    return Err(self.limits.too_many_files(real))
                }
                None => {
                    tree.nodes.insert(real.clone(), Node::directory());
                }
            }
        }
        Ok(())
    }

    fn raw_remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        let mut tree = self.lock();
        let real = tree.resolve(path, false)?;
        if real == "/" {
            return Err(StorageError::InvalidArgument(real));
        }
        let is_directory = matches!(tree.node(&real)?, Node::Directory { .. });
        if is_directory && !recursive && tree.has_children(&real) {
            return Err(StorageError::NotEmpty(real));
        }
        for key in tree.subtree(&real) {
            if let Some(node) = tree.nodes.remove(&key) {
                tree.total_bytes -= node.file_bytes();
            }
        }
        Ok(())
    }

    /// A rename; an error comes with whether it is about the destination.
    fn raw_rename(&self, from: &str, to: &str) -> Result<(), (StorageError, bool)> {
        let mut tree = self.lock();
        let source = tree.resolve(from, false).map_err(|error| (error, false))?;
        let destination = tree.resolve(to, false).map_err(|error| (error, true))?;
        let result = Self::rename_real(&mut tree, &source, &destination);
        result.map_err(|error| {
            let about_destination = error.path() == destination && source != destination;
            (error, about_destination)
        })
    }

    fn rename_real(tree: &mut Tree, source: &str, destination: &str) -> Result<(), StorageError> {
        let (source, destination) = (source.to_owned(), destination.to_owned());
        if source == "/" {
            return Err(StorageError::InvalidArgument(source));
        }
        let source_is_directory = matches!(tree.node(&source)?, Node::Directory { .. });
        if source == destination {
            return Ok(());
        }
        if destination.starts_with(&format!("{source}/")) {
            return Err(StorageError::InvalidArgument(destination));
        }
        // As Linux does: a directory cannot be replaced by something inside it.
        if source.starts_with(&format!("{destination}/")) {
            return Err(StorageError::NotEmpty(destination));
        }
        match tree.nodes.get(&destination) {
            Some(Node::Directory { .. }) if !source_is_directory => {
                return Err(StorageError::IsADirectory(destination))
            }
            Some(Node::Directory { .. }) if tree.has_children(&destination) => {
                return Err(StorageError::NotEmpty(destination))
            }
            Some(Node::File { .. } | Node::Symlink { .. }) if source_is_directory => {
                return Err(StorageError::NotADirectory(destination))
            }
            Some(replaced) => {
                tree.total_bytes -= replaced.file_bytes();
                tree.nodes.remove(&destination);
            }
            None => {}
        }
        for key in tree.subtree(&source) {
            let node = tree.nodes.remove(&key).expect("the subtree was just listed");
            tree.nodes.insert(format!("{destination}{}", &key[source.len()..]), node);
        }
        Ok(())
    }

    fn raw_symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        let mut tree = self.lock();
        let real = tree.resolve(link, false)?;
        if tree.nodes.contains_key(&real) {
            return Err(StorageError::AlreadyExists(real));
        }
        if tree.nodes.len() as u64 > self.limits.max_files {
            return Err(self.limits.too_many_files(real));
        }
        tree.nodes.insert(real, Node::Symlink { target: target.to_owned(), modified: SystemTime::now() });
        Ok(())
    }

    fn raw_readlink(&self, path: &str) -> Result<String, StorageError> {
        let tree = self.lock();
        let real = tree.resolve(path, false)?;
        match tree.node(&real)? {
            Node::Symlink { target, .. } => Ok(target.clone()),
            _ => Err(StorageError::InvalidArgument(real)),
        }
    }

    fn raw_set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let mut tree = self.lock();
        let real = tree.resolve(path, true)?;
        tree.node(&real)?;
        match tree.nodes.get_mut(&real) {
            Some(Node::File { mode: bits, .. } | Node::Directory { mode: bits, .. }) => {
                *bits = mode & 0o7777;
                Ok(())
            }
            _ => Err(StorageError::NotFound(real)),
        }
    }
}

/// The operations above, with errors naming the path asked for.
impl Storage for MemoryStorage {
    super::storage_from_raw_operations!();
    fn snapshot_layer(&self) -> Option<&dyn super::SnapshotLayer> {
        Some(self)
    }
    fn file_size_limit(&self, _path: &str) -> Option<u64> {
        let limit = self.limits.max_file_bytes.min(self.limits.max_total_bytes);
        (limit != u64::MAX).then_some(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage() -> MemoryStorage {
        let storage = MemoryStorage::default();
        storage.mkdir("/project/src", true).unwrap();
        storage.write("/project/src/main.rs", b"fn main() {}\n").unwrap();
        storage.write("/project/README", b"hello").unwrap();
        storage
    }

    #[test]
    fn files_are_written_read_appended_and_listed() {
        let storage = storage();
        storage.append("/project/README", b", world").unwrap();
        storage.append("/project/new.txt", b"made").unwrap();
        assert_eq!(storage.read("project/./src/../README").unwrap(), b"hello, world");
        let names: Vec<(String, FileKind)> =
            storage.list("/project").unwrap().into_iter().map(|entry| (entry.name, entry.kind)).collect();
        assert_eq!(
            names,
            [
                ("README".to_owned(), FileKind::File),
                ("new.txt".to_owned(), FileKind::File),
                ("src".to_owned(), FileKind::Directory)
            ]
        );
        assert_eq!(storage.stat("/project/README").unwrap().size, 12);
        assert_eq!(storage.stat("/project/README").unwrap().mode, 0o644);
        assert_eq!(storage.total_bytes(), 12 + 4 + 13);
    }

    #[test]
    fn errors_are_the_ones_a_shell_prints() {
        let storage = storage();
        let cases: Vec<(Result<(), StorageError>, &str)> = vec![
            (storage.read("/nope").map(drop), "/nope: No such file or directory"),
            (storage.read("/project").map(drop), "/project: Is a directory"),
            (storage.read("/project/README/x").map(drop), "/project/README/x: Not a directory"),
            (storage.write("/missing/file", b"").map(drop), "/missing/file: No such file or directory"),
            (storage.list("/project/README").map(drop), "/project/README: Not a directory"),
            (storage.mkdir("/project", false), "/project: File exists"),
            (storage.remove("/project", false), "/project: Directory not empty"),
            (storage.remove("/", true), "/: Invalid argument"),
            (storage.rename("/project", "/project/src/inside"), "/project/src/inside: Invalid argument"),
            (storage.readlink("/project/README").map(drop), "/project/README: Invalid argument"),
        ];
        for (result, message) in cases {
            assert_eq!(result.unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn directories_are_made_removed_and_renamed_with_their_contents() {
        let storage = storage();
        storage.mkdir("/a/b/c", true).unwrap();
        storage.mkdir("/a/b/c", true).unwrap();
        storage.rename("/project", "/a/b/c/moved").unwrap();
        assert_eq!(storage.read("/a/b/c/moved/src/main.rs").unwrap(), b"fn main() {}\n");
        assert!(matches!(storage.stat("/project"), Err(StorageError::NotFound(_))));
        storage.remove("/a", true).unwrap();
        assert_eq!(storage.list("/").unwrap(), []);
        assert_eq!(storage.total_bytes(), 0);
    }

    #[test]
    fn symlinks_are_followed_and_loops_are_caught() {
        let storage = storage();
        storage.symlink("project/src", "/code").unwrap();
        storage.symlink("../README", "/project/src/readme-link").unwrap();
        assert_eq!(storage.read("/code/main.rs").unwrap(), b"fn main() {}\n");
        assert_eq!(storage.read("/code/readme-link").unwrap(), b"hello");
        assert_eq!(storage.lstat("/code").unwrap().kind, FileKind::Symlink);
        assert_eq!(storage.stat("/code").unwrap().kind, FileKind::Directory);
        assert_eq!(storage.readlink("/code").unwrap(), "project/src");
        storage.write("/code/written-through-link", b"x").unwrap();
        assert_eq!(storage.read("/project/src/written-through-link").unwrap(), b"x");
        storage.symlink("/loop-b", "/loop-a").unwrap();
        storage.symlink("/loop-a", "/loop-b").unwrap();
        assert_eq!(storage.read("/loop-a").unwrap_err().to_string(), "/loop-a: Too many levels of symbolic links");
        // Removing a link removes the link, not what it points at.
        storage.remove("/code", false).unwrap();
        assert!(storage.stat("/project/src/main.rs").is_ok());
    }

    #[test]
    fn limits_refuse_growth_and_change_nothing() {
        let storage = MemoryStorage::new(MemoryLimits { max_total_bytes: 10, max_file_bytes: 6, max_files: 100 });
        storage.write("/a", b"123456").unwrap();
        assert_eq!(
            storage.write("/b", b"1234567").unwrap_err(),
            StorageError::TooLarge { path: "/b".into(), limit: 6 }
        );
        storage.write("/b", b"1234").unwrap();
        let error = storage.append("/b", b"5").unwrap_err();
        assert_eq!(error.to_string(), "/b: File too large (the limit is 10 bytes)");
        assert_eq!(storage.read("/b").unwrap(), b"1234");
        storage.write("/a", b"1").unwrap();
        storage.append("/b", b"56").unwrap();
        assert_eq!(storage.total_bytes(), 7);
    }
}
