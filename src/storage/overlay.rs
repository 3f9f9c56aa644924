//! A writable layer in memory over any lower storage, and the dry run built
//! on it.
//!
//! Reads see the upper layer where it has an entry and the lower storage
//! elsewhere. Every change goes to the upper layer; a deletion of something
//! the lower storage holds is a whiteout, an entry that hides the lower path
//! (and all under it) and never shows itself as a file. The lower storage is
//! not touched until [`Overlay::commit`].

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::path::{parent, resolve, Lookup};
use super::{DirEntry, FileKind, MemoryLimits, Metadata, Storage, StorageError};

/// An entry of the upper layer. A file's content is shared by the forks of
/// an overlay and copied on its first write.
#[derive(Debug, Clone)]
pub(super) enum Upper {
    File {
        data: Arc<Vec<u8>>,
        mode: u32,
        modified: SystemTime,
    },
    /// `opaque`: made where a deleted lower entry stood, so the lower
    /// directory's contents stay hidden.
    Directory {
        opaque: bool,
        modified: SystemTime,
    },
    Symlink {
        target: String,
        modified: SystemTime,
    },
    Whiteout,
}

/// How a path differs from the lower storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeKind {
    /// The lower storage has nothing there.
    Added,
    /// The lower storage has something else there.
    Modified,
    /// The lower storage's entry (and all under it) is gone.
    Deleted,
}

/// One entry of an overlay's diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The virtual path.
    pub path: String,
    /// Added, modified or deleted.
    pub kind: ChangeKind,
}

/// A writable memory layer over `lower`.
pub struct Overlay<L> {
    /// Shared with the overlay's forks, which never write to it.
    pub(super) lower: Arc<L>,
    pub(super) upper: Mutex<BTreeMap<String, Upper>>,
    /// Bounds on the upper layer: its files' bytes, and its entries.
    pub(super) limits: MemoryLimits,
}

/// The range of keys strictly under a directory.
fn under(directory: &str) -> (Bound<String>, Bound<String>) {
    if directory == "/" {
        (Bound::Excluded("/".to_owned()), Bound::Excluded("0".to_owned()))
    } else {
        (Bound::Included(format!("{directory}/")), Bound::Excluded(format!("{directory}0")))
    }
}

/// The lookup answer for what the lower storage has at a real path.
fn lower_lookup(lower: &impl Storage, real: &str) -> Result<Lookup, StorageError> {
    match lower.lstat(real) {
        Err(StorageError::NotFound(_) | StorageError::NotADirectory(_)) => Ok(Lookup::Missing),
        Err(error) => Err(error),
        Ok(metadata) => Ok(match metadata.kind {
            FileKind::Directory => Lookup::Directory,
            FileKind::File => Lookup::File,
            FileKind::Symlink => Lookup::Symlink(lower.readlink(real)?),
        }),
    }
}

impl<L: Storage> Overlay<L> {
    /// An overlay with an empty upper layer over `lower`, bounded by
    /// [`MemoryLimits::default`] (a write past it fails and changes nothing).
    pub fn new(lower: L) -> Self {
        Overlay::with_limits(lower, MemoryLimits::default())
    }

    /// An overlay whose upper layer is bounded by `limits`: the bytes of the
    /// files it holds, of any one of them, and how many entries it holds.
    pub fn with_limits(lower: L, limits: MemoryLimits) -> Self {
        Overlay { lower: Arc::new(lower), upper: Mutex::new(BTreeMap::new()), limits }
    }

    /// Whether the upper layer may hold a file of `new_len` bytes at `real`
    /// (replacing what it has there): counted over the whole layer, as
    /// writes are rare next to the work that makes them.
    fn check_room(&self, upper: &BTreeMap<String, Upper>, real: &str, new_len: u64) -> Result<(), StorageError> {
        if new_len > self.limits.max_file_bytes {
            return Err(StorageError::TooLarge { path: real.to_owned(), limit: self.limits.max_file_bytes });
        }
        let others: u64 = upper
            .iter()
            .filter(|(path, _)| path.as_str() != real)
            .map(|(_, entry)| match entry {
                Upper::File { data, .. } => data.len() as u64,
                _ => 0,
            })
            .sum();
        if others + new_len > self.limits.max_total_bytes {
            return Err(StorageError::TooLarge { path: real.to_owned(), limit: self.limits.max_total_bytes });
        }
        self.check_entry_room(upper, real)
    }

    /// Whether the upper layer may hold one more entry at `real` (a file, a
    /// directory, a symlink): [`MemoryLimits::max_files`] counts them all.
    fn check_entry_room(&self, upper: &BTreeMap<String, Upper>, real: &str) -> Result<(), StorageError> {
        if !upper.contains_key(real) && upper.len() as u64 >= self.limits.max_files {
            return Err(self.limits.too_many_files(real.to_owned()));
        }
        Ok(())
    }

    /// The lower storage, untouched until commit.
    pub fn lower(&self) -> &L {
        &self.lower
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Upper>> {
        self.upper.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether the lower storage shows through at `real`: no upper entry
    /// there, and no opaque directory or whiteout above it.
    fn lower_visible(upper: &BTreeMap<String, Upper>, real: &str) -> bool {
        let mut path = real;
        while let Some((directory, _)) = parent(path) {
            match upper.get(directory) {
                Some(Upper::Directory { opaque: true, .. } | Upper::Whiteout) => return false,
                _ => path = directory,
            }
        }
        true
    }

    fn lookup(&self, upper: &BTreeMap<String, Upper>, real: &str) -> Result<Lookup, StorageError> {
        match upper.get(real) {
            Some(Upper::File { .. }) => Ok(Lookup::File),
            Some(Upper::Directory { .. }) => Ok(Lookup::Directory),
            Some(Upper::Symlink { target, .. }) => Ok(Lookup::Symlink(target.clone())),
            Some(Upper::Whiteout) => Ok(Lookup::Missing),
            None if Self::lower_visible(upper, real) => lower_lookup(&self.lower, real),
            None => Ok(Lookup::Missing),
        }
    }

    fn resolve(&self, upper: &BTreeMap<String, Upper>, path: &str, follow_last: bool) -> Result<String, StorageError> {
        resolve(path, follow_last, |real| self.lookup(upper, real))
    }

    /// Makes sure every directory above `real` has an upper entry, so that
    /// an entry can be added under it.
    fn copy_up_parents(upper: &mut BTreeMap<String, Upper>, real: &str) {
        let mut directories = Vec::new();
        let mut path = real;
        while let Some((directory, _)) = parent(path) {
            directories.push(directory.to_owned());
            path = directory;
        }
        for directory in directories.into_iter().rev() {
            upper.entry(directory).or_insert(Upper::Directory { opaque: false, modified: SystemTime::now() });
        }
    }

    /// Puts `entry` at `real` in the upper layer.
    fn place(upper: &mut BTreeMap<String, Upper>, real: &str, entry: Upper) {
        Self::copy_up_parents(upper, real);
        upper.insert(real.to_owned(), entry);
    }

    fn read_real(&self, upper: &BTreeMap<String, Upper>, real: &str) -> Result<Vec<u8>, StorageError> {
        match upper.get(real) {
            Some(Upper::File { data, .. }) => Ok(data.to_vec()),
            Some(Upper::Directory { .. }) => Err(StorageError::IsADirectory(real.to_owned())),
            Some(_) => Err(StorageError::NotFound(real.to_owned())),
            None if Self::lower_visible(upper, real) => self.lower.read(real),
            None => Err(StorageError::NotFound(real.to_owned())),
        }
    }

    fn list_real(&self, upper: &BTreeMap<String, Upper>, real: &str) -> Result<Vec<DirEntry>, StorageError> {
        match self.lookup(upper, real)? {
            Lookup::Directory => {}
            Lookup::Missing => return Err(StorageError::NotFound(real.to_owned())),
            _ => return Err(StorageError::NotADirectory(real.to_owned())),
        }
        let mut entries: BTreeMap<String, FileKind> = BTreeMap::new();
        let opaque = matches!(upper.get(real), Some(Upper::Directory { opaque: true, .. }));
        if !opaque && Self::lower_visible(upper, real) && lower_lookup(&self.lower, real)? == Lookup::Directory {
            entries.extend(self.lower.list(real)?.into_iter().map(|entry| (entry.name, entry.kind)));
        }
        let prefix_len = if real == "/" { 1 } else { real.len() + 1 };
        for (key, entry) in upper.range(under(real)) {
            let name = &key[prefix_len..];
            if name.contains('/') {
                continue;
            }
            match entry {
                Upper::Whiteout => entries.remove(name),
                Upper::File { .. } => entries.insert(name.to_owned(), FileKind::File),
                Upper::Directory { .. } => entries.insert(name.to_owned(), FileKind::Directory),
                Upper::Symlink { .. } => entries.insert(name.to_owned(), FileKind::Symlink),
            };
        }
        Ok(entries.into_iter().map(|(name, kind)| DirEntry { name, kind }).collect())
    }

    fn metadata_real(&self, upper: &BTreeMap<String, Upper>, real: &str) -> Result<Metadata, StorageError> {
        match upper.get(real) {
            Some(Upper::File { data, mode, modified }) => {
                Ok(Metadata { kind: FileKind::File, size: data.len() as u64, mode: *mode, modified: *modified })
            }
            Some(Upper::Directory { modified, .. }) => {
                Ok(Metadata { kind: FileKind::Directory, size: 0, mode: 0o755, modified: *modified })
            }
            Some(Upper::Symlink { target, modified }) => {
                Ok(Metadata { kind: FileKind::Symlink, size: target.len() as u64, mode: 0o777, modified: *modified })
            }
            Some(Upper::Whiteout) => Err(StorageError::NotFound(real.to_owned())),
            None if Self::lower_visible(upper, real) => self.lower.lstat(real),
            None => Err(StorageError::NotFound(real.to_owned())),
        }
    }

    /// Removes `real` and everything under it from the merged view.
    fn delete(&self, upper: &mut BTreeMap<String, Upper>, real: &str) -> Result<(), StorageError> {
        let lower_has_it = Self::lower_visible(upper, real) && lower_lookup(&self.lower, real)? != Lookup::Missing;
        let doomed: Vec<String> = upper.range(under(real)).map(|(key, _)| key.clone()).collect();
        for key in doomed {
            upper.remove(&key);
        }
        if lower_has_it || matches!(upper.get(real), Some(Upper::Directory { opaque: true, .. })) {
            Self::place(upper, real, Upper::Whiteout);
        } else {
            upper.remove(real);
        }
        Ok(())
    }

    /// Copies the merged entry at `from` (and all under it) to `to`.
    fn copy(&self, upper: &mut BTreeMap<String, Upper>, from: &str, to: &str) -> Result<(), StorageError> {
        let entry = match self.lookup(upper, from)? {
            Lookup::Missing => return Err(StorageError::NotFound(from.to_owned())),
            Lookup::File => {
                let metadata = self.metadata_real(upper, from)?;
                self.check_room(upper, to, metadata.size)?;
                let mode = metadata.mode;
                Upper::File { data: Arc::new(self.read_real(upper, from)?), mode, modified: SystemTime::now() }
            }
            Lookup::Symlink(target) => Upper::Symlink { target, modified: SystemTime::now() },
            Lookup::Directory => Upper::Directory { opaque: true, modified: SystemTime::now() },
        };
        let is_directory = matches!(entry, Upper::Directory { .. });
        Self::place(upper, to, entry);
        if is_directory {
            for child in self.list_real(upper, from)? {
                let join = |base: &str| {
                    if base == "/" {
                        format!("/{}", child.name)
                    } else {
                        format!("{base}/{}", child.name)
                    }
                };
                self.copy(upper, &join(from), &join(to))?;
            }
        }
        Ok(())
    }

    /// What differs from the lower storage, sorted by path. A deleted
    /// directory is one entry; what was under it is implied.
    pub fn diff(&self) -> Result<Vec<Change>, StorageError> {
        let upper = self.lock();
        let mut changes = Vec::new();
        for (path, entry) in upper.iter() {
            let lower = lower_lookup(&self.lower, path)?;
            let kind = match (entry, &lower) {
                (Upper::Whiteout, Lookup::Missing) => continue,
                (Upper::Whiteout, _) => ChangeKind::Deleted,
                (_, Lookup::Missing) => ChangeKind::Added,
                (Upper::Directory { opaque, .. }, Lookup::Directory) => {
                    if *opaque {
                        // Lower entries the opaque directory hides, and the
                        // upper layer does not replace, are deleted.
                        for child in self.lower.list(path)? {
                            let child_path =
                                if path == "/" { format!("/{}", child.name) } else { format!("{path}/{}", child.name) };
                            if !upper.contains_key(&child_path) {
                                changes.push(Change { path: child_path, kind: ChangeKind::Deleted });
                            }
                        }
                    }
                    continue;
                }
                (Upper::File { data, .. }, Lookup::File) if **data == self.lower.read(path)? => continue,
                (Upper::Symlink { target, .. }, Lookup::Symlink(lower_target)) if target == lower_target => continue,
                _ => ChangeKind::Modified,
            };
            changes.push(Change { path: path.clone(), kind });
        }
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(changes)
    }

    /// Applies the upper layer to the lower storage and empties it. Stops at
    /// the first error of the lower storage, leaving the upper layer whole so
    /// that nothing is lost.
    pub fn commit(&self) -> Result<(), StorageError> {
        let mut upper = self.lock();
        for (path, entry) in upper.iter() {
            let lower = lower_lookup(&self.lower, path)?;
            let replace = match entry {
                Upper::Directory { opaque, .. } => *opaque || !matches!(lower, Lookup::Directory | Lookup::Missing),
                Upper::File { .. } => !matches!(lower, Lookup::File | Lookup::Missing),
                _ => lower != Lookup::Missing,
            };
            if replace && lower != Lookup::Missing && path != "/" {
                self.lower.remove(path, true)?;
            }
            match entry {
                Upper::Whiteout => {}
                Upper::Directory { .. } => self.lower.mkdir(path, true)?,
                Upper::File { data, .. } => self.lower.write(path, data)?,
                Upper::Symlink { target, .. } => self.lower.symlink(target, path)?,
            }
        }
        upper.clear();
        Ok(())
    }

    /// Drops every change; the merged view is the lower storage again.
    pub fn discard(&self) {
        self.lock().clear();
    }
}

impl<L: Storage> Overlay<L> {
    fn raw_read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        self.read_real(&upper, &real)
    }

    /// A piece of a file: from the upper layer, or read in its piece from
    /// the lower storage when the upper layer does not hide it.
    fn raw_read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        match upper.get(&real) {
            Some(Upper::File { data, .. }) => Ok(super::range_of(data, offset, len).to_vec()),
            None if Self::lower_visible(&upper, &real) => self.lower.read_range(&real, offset, len),
            _ => self.read_real(&upper, &real).map(|data| super::range_of(&data, offset, len).to_vec()),
        }
    }

    /// A file opened from the layer that holds it: the lower storage's own
    /// handle when the upper layer does not hide it, else a copy of the
    /// upper layer's content (one version either way).
    fn raw_open_read(&self, path: &str) -> Result<std::sync::Arc<dyn super::OpenFile>, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        match upper.get(&real) {
            None if Self::lower_visible(&upper, &real) => self.lower.open_read(&real),
            _ => Ok(std::sync::Arc::new(super::Snapshot(std::sync::Arc::new(self.read_real(&upper, &real)?)))),
        }
    }

    fn raw_write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        let mode = match self.lookup(&upper, &real)? {
            Lookup::Directory => return Err(StorageError::IsADirectory(real)),
            Lookup::Missing => 0o644,
            _ => self.metadata_real(&upper, &real)?.mode,
        };
        self.check_room(&upper, &real, data.len() as u64)?;
        Self::place(
            &mut upper,
            &real,
            Upper::File { data: Arc::new(data.to_vec()), mode, modified: SystemTime::now() },
        );
        Ok(())
    }

    fn raw_append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        let (mut content, mode) = match self.lookup(&upper, &real)? {
            Lookup::Directory => return Err(StorageError::IsADirectory(real)),
            Lookup::Missing => (Vec::new(), 0o644),
            _ => {
                let metadata = self.metadata_real(&upper, &real)?;
                // Checked before the old content is read and copied.
                self.check_room(&upper, &real, metadata.size + data.len() as u64)?;
                (self.read_real(&upper, &real)?, metadata.mode)
            }
        };
        self.check_room(&upper, &real, content.len() as u64 + data.len() as u64)?;
        content.extend_from_slice(data);
        Self::place(&mut upper, &real, Upper::File { data: Arc::new(content), mode, modified: SystemTime::now() });
        Ok(())
    }

    fn raw_stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        self.metadata_real(&upper, &real)
    }

    fn raw_lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, false)?;
        self.metadata_real(&upper, &real)
    }

    fn raw_list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        self.list_real(&upper, &real)
    }

    fn raw_mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let target = super::path::normalize(path);
        let mut prefixes = Vec::new();
        let mut prefix = String::new();
        for part in target.split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            prefixes.push(prefix.clone());
        }
        if !parents {
            prefixes = prefixes.split_off(prefixes.len().saturating_sub(1));
        }
        for (index, prefix) in prefixes.iter().enumerate() {
            let is_target = index + 1 == prefixes.len();
            let real = self.resolve(&upper, prefix, parents || !is_target)?;
            match self.lookup(&upper, &real)? {
                Lookup::Directory if parents => {}
                Lookup::Missing => {
                    self.check_entry_room(&upper, &real)?;
                    let opaque = matches!(upper.get(&real), Some(Upper::Whiteout));
                    Self::place(&mut upper, &real, Upper::Directory { opaque, modified: SystemTime::now() });
                }
                _ => return Err(StorageError::AlreadyExists(real)),
            }
        }
        Ok(())
    }

    fn raw_remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let real = self.resolve(&upper, path, false)?;
        if real == "/" {
            return Err(StorageError::InvalidArgument(real));
        }
        match self.lookup(&upper, &real)? {
            Lookup::Missing => return Err(StorageError::NotFound(real)),
            Lookup::Directory if !recursive && !self.list_real(&upper, &real)?.is_empty() => {
                return Err(StorageError::NotEmpty(real))
            }
            _ => {}
        }
        self.delete(&mut upper, &real)
    }

    /// A rename; an error comes with whether it is about the destination.
    fn raw_rename(&self, from: &str, to: &str) -> Result<(), (StorageError, bool)> {
        let mut upper = self.lock();
        let source = self.resolve(&upper, from, false).map_err(|error| (error, false))?;
        let destination = self.resolve(&upper, to, false).map_err(|error| (error, true))?;
        let result = self.rename_real(&mut upper, &source, &destination);
        result.map_err(|error| {
            let about_destination = error.path() == destination && source != destination;
            (error, about_destination)
        })
    }

    fn rename_real(
        &self,
        upper: &mut BTreeMap<String, Upper>,
        source: &str,
        destination: &str,
    ) -> Result<(), StorageError> {
        let (source, destination) = (source.to_owned(), destination.to_owned());
        if source == "/" || destination.starts_with(&format!("{source}/")) {
            return Err(StorageError::InvalidArgument(destination));
        }
        let source_kind = self.lookup(upper, &source)?;
        if source_kind == Lookup::Missing {
            return Err(StorageError::NotFound(source));
        }
        if source == destination {
            return Ok(());
        }
        // As Linux does: a directory cannot be replaced by something inside it.
        if source.starts_with(&format!("{destination}/")) {
            return Err(StorageError::NotEmpty(destination));
        }
        match (self.lookup(upper, &destination)?, source_kind == Lookup::Directory) {
            (Lookup::Directory, false) => return Err(StorageError::IsADirectory(destination)),
            (Lookup::Directory, true) if !self.list_real(upper, &destination)?.is_empty() => {
                return Err(StorageError::NotEmpty(destination))
            }
            (Lookup::File | Lookup::Symlink(_), true) => return Err(StorageError::NotADirectory(destination)),
            (Lookup::Missing, _) => {}
            _ => self.delete(upper, &destination)?,
        }
        self.copy(upper, &source, &destination)?;
        self.delete(upper, &source)
    }

    fn raw_symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let real = self.resolve(&upper, link, false)?;
        if self.lookup(&upper, &real)? != Lookup::Missing {
            return Err(StorageError::AlreadyExists(real));
        }
        self.check_entry_room(&upper, &real)?;
        Self::place(&mut upper, &real, Upper::Symlink { target: target.to_owned(), modified: SystemTime::now() });
        Ok(())
    }

    fn raw_readlink(&self, path: &str) -> Result<String, StorageError> {
        let upper = self.lock();
        let real = self.resolve(&upper, path, false)?;
        match self.lookup(&upper, &real)? {
            Lookup::Symlink(target) => Ok(target),
            Lookup::Missing => Err(StorageError::NotFound(real)),
            _ => Err(StorageError::InvalidArgument(real)),
        }
    }

    /// Files only: a file's mode is copied up with its content. The
    /// overlay's directories have no mode of their own (`Operation not
    /// supported`).
    fn raw_set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let mut upper = self.lock();
        let real = self.resolve(&upper, path, true)?;
        match self.lookup(&upper, &real)? {
            Lookup::Missing => Err(StorageError::NotFound(real)),
            Lookup::Directory => Err(StorageError::Io { path: real, message: "Operation not supported".to_owned() }),
            _ => {
                let data = self.read_real(&upper, &real)?;
                let modified = self.metadata_real(&upper, &real)?.modified;
                Self::place(&mut upper, &real, Upper::File { data: Arc::new(data), mode: mode & 0o7777, modified });
                Ok(())
            }
        }
    }
}

/// The operations above, with errors naming the path asked for.
impl<L: Storage + 'static> Storage for Overlay<L> {
    super::storage_from_raw_operations!();
    fn snapshot_layer(&self) -> Option<&dyn super::SnapshotLayer> {
        Some(self)
    }
}

/// An overlay whose changes are recorded and never applied: run a script
/// against it, then read [`DryRun::write_set`] to see what it would have
/// created, changed or deleted.
pub struct DryRun<L>(pub(super) Overlay<L>);

impl<L: Storage> DryRun<L> {
    /// A dry run over `lower`, which it never changes.
    pub fn new(lower: L) -> Self {
        DryRun(Overlay::new(lower))
    }

    /// Each path the changes touched, and whether it would be created
    /// ([`ChangeKind::Added`]), changed or deleted.
    pub fn write_set(&self) -> Result<Vec<Change>, StorageError> {
        self.0.diff()
    }
}

impl<L: Storage + 'static> Storage for DryRun<L> {
    super::forward_storage!(|this| this.0);
    fn snapshot_layer(&self) -> Option<&dyn super::SnapshotLayer> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    fn lower() -> MemoryStorage {
        let lower = MemoryStorage::default();
        lower.mkdir("/src/deep", true).unwrap();
        lower.write("/src/main.rs", b"fn main() {}").unwrap();
        lower.write("/src/deep/util.rs", b"// util").unwrap();
        lower.write("/README", b"readme").unwrap();
        lower
    }

    /// Every path and file content of a storage, for comparing trees.
    fn snapshot(storage: &impl Storage) -> Vec<(String, Option<Vec<u8>>)> {
        fn walk(storage: &impl Storage, directory: &str, out: &mut Vec<(String, Option<Vec<u8>>)>) {
            for entry in storage.list(directory).unwrap() {
                let path =
                    if directory == "/" { format!("/{}", entry.name) } else { format!("{directory}/{}", entry.name) };
                match entry.kind {
                    FileKind::Directory => {
                        out.push((path.clone(), None));
                        walk(storage, &path, out);
                    }
                    FileKind::File => out.push((path.clone(), Some(storage.read(&path).unwrap()))),
                    FileKind::Symlink => out.push((path.clone(), Some(storage.readlink(&path).unwrap().into_bytes()))),
                }
            }
        }
        let mut out = Vec::new();
        walk(storage, "/", &mut out);
        out
    }

    #[test]
    fn directories_and_symlinks_count_against_max_files() {
        let limits = MemoryLimits { max_files: 4, ..MemoryLimits::default() };
        let overlay = Overlay::with_limits(MemoryStorage::default(), limits);
        let made = (0..10).take_while(|index| overlay.mkdir(&format!("/d{index}"), false).is_ok()).count();
        assert!((1..=4).contains(&made), "{made} directories made under max_files 4");
        assert!(overlay.lock().len() <= 4);
        let refused = |error: StorageError| error.to_string().contains("max_files");
        assert!(overlay.mkdir("/more", false).is_err_and(refused));
        assert!(overlay.mkdir("/more/and/more", true).is_err_and(refused));
        assert!(overlay.symlink("/d0", "/link").is_err_and(refused));
        assert!(overlay.write("/file", b"x").is_err_and(refused));
        // What is there may still change, and a removal makes room again.
        assert!(overlay.mkdir("/d0", true).is_ok());
        overlay.remove("/d0", false).unwrap();
        overlay.symlink("/d1", "/d0").unwrap();
    }

    #[test]
    fn changes_stay_in_the_upper_layer_until_commit() {
        let overlay = Overlay::new(lower());
        let before = snapshot(overlay.lower());
        overlay.write("/src/main.rs", b"fn main() { run() }").unwrap();
        overlay.write("/src/deep/new.rs", b"new").unwrap();
        overlay.remove("/README", false).unwrap();
        overlay.append("/notes", b"n").unwrap();
        assert_eq!(snapshot(overlay.lower()), before, "the lower storage changed before commit");
        assert_eq!(overlay.read("/src/main.rs").unwrap(), b"fn main() { run() }");
        assert!(matches!(overlay.read("/README"), Err(StorageError::NotFound(_))));
        let names: Vec<String> = overlay.list("/").unwrap().into_iter().map(|entry| entry.name).collect();
        assert_eq!(names, ["notes", "src"], "a whiteout never shows as a file");
        assert_eq!(
            overlay.diff().unwrap(),
            [
                Change { path: "/README".into(), kind: ChangeKind::Deleted },
                Change { path: "/notes".into(), kind: ChangeKind::Added },
                Change { path: "/src/deep/new.rs".into(), kind: ChangeKind::Added },
                Change { path: "/src/main.rs".into(), kind: ChangeKind::Modified },
            ]
        );
        let merged = snapshot(&overlay);
        overlay.commit().unwrap();
        assert_eq!(snapshot(overlay.lower()), merged, "commit makes the lower storage what the overlay showed");
        assert_eq!(overlay.diff().unwrap(), []);
    }

    #[test]
    fn discard_drops_every_change() {
        let overlay = Overlay::new(lower());
        let before = snapshot(&overlay);
        overlay.remove("/src", true).unwrap();
        overlay.mkdir("/src", false).unwrap();
        assert_eq!(overlay.list("/src").unwrap(), [], "a directory made over a deleted one hides the old contents");
        overlay.discard();
        assert_eq!(snapshot(&overlay), before);
    }

    #[test]
    fn a_directory_deleted_and_made_again_commits_as_empty() {
        let overlay = Overlay::new(lower());
        overlay.remove("/src", true).unwrap();
        overlay.mkdir("/src/deep", true).unwrap();
        overlay.write("/src/deep/only.rs", b"only").unwrap();
        assert_eq!(
            overlay.diff().unwrap(),
            [
                Change { path: "/src/deep/only.rs".into(), kind: ChangeKind::Added },
                Change { path: "/src/main.rs".into(), kind: ChangeKind::Deleted },
            ]
        );
        let merged = snapshot(&overlay);
        overlay.commit().unwrap();
        assert_eq!(snapshot(overlay.lower()), merged);
    }

    #[test]
    fn renames_move_whole_trees_across_layers() {
        let overlay = Overlay::new(lower());
        overlay.rename("/src", "/lib").unwrap();
        assert_eq!(overlay.read("/lib/deep/util.rs").unwrap(), b"// util");
        assert!(matches!(overlay.stat("/src"), Err(StorageError::NotFound(_))));
        assert_eq!(overlay.lower().read("/src/main.rs").unwrap(), b"fn main() {}");
        let merged = snapshot(&overlay);
        overlay.commit().unwrap();
        assert_eq!(snapshot(overlay.lower()), merged);
    }

    #[test]
    fn a_dry_run_reports_its_write_set_and_changes_nothing() {
        let dry_run = DryRun::new(lower());
        let before = snapshot(&dry_run.0.lower);
        dry_run.write("/README", b"changed").unwrap();
        dry_run.mkdir("/build", false).unwrap();
        dry_run.remove("/src/deep", true).unwrap();
        assert_eq!(
            dry_run.write_set().unwrap(),
            [
                Change { path: "/README".into(), kind: ChangeKind::Modified },
                Change { path: "/build".into(), kind: ChangeKind::Added },
                Change { path: "/src/deep".into(), kind: ChangeKind::Deleted },
            ]
        );
        assert_eq!(snapshot(&dry_run.0.lower), before);
    }
}
