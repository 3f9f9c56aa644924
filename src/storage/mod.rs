//! Virtual file storage: the place an agent's file tools and its shell
//! (`crate::shell`, which runs every command over a [`Storage`]) act on, so
//! that overlays, dry runs, mounts and path policy apply to every access.
//!
//! Every path is a virtual path: absolute, `/`-separated, normalised by
//! [`normalize`], and `..` never climbs above `/`. Errors are typed and
//! print as a shell would (`/a/b: No such file or directory`).
//!
//! One trait, [`Storage`], and its implementations, which compose: a
//! [`MemoryStorage`] or a [`HostDir`] at the bottom; an [`Overlay`] (with
//! `diff`, `commit`, `discard`) or a [`DryRun`] (its `write_set`) over any
//! storage; [`Mounts`] joining storages at path prefixes; [`ReadOnly`] and
//! [`Policy`] (glob allow/deny rules per [`Access`]) in front of any.
//! [`register_file_tools`] gives a registry the five file tools over one.
//! The C functions are `aikido_storage_*` in `crate::ffi`. This module uses
//! the core (for the file tools) and never the shell nor the C layer.

mod host;
mod memory;
mod mounts;
mod overlay;
mod path;
mod pieces;
mod policy;
mod read_only;
mod snapshot;
mod tools;

pub use host::HostDir;
pub use memory::{MemoryLimits, MemoryStorage, DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES};
pub use mounts::Mounts;
pub use overlay::{Change, ChangeKind, DryRun, Overlay};
pub use path::{join, normalize, parent};
pub use pieces::Pieces;
pub use policy::{glob_matches, Access, PathPolicy, Policy};
pub use read_only::ReadOnly;
#[cfg(feature = "shell")]
pub(crate) use snapshot::Image;
pub use snapshot::{LayerImage, SnapshotError, SnapshotLayer};
pub use tools::{register_file_tools, DEFAULT_READ_LINES};

use std::sync::Arc;
use std::time::SystemTime;

/// What a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link (only [`Storage::lstat`] reports this kind).
    Symlink,
}

/// What `stat` tells about a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata {
    /// File, directory or symlink.
    pub kind: FileKind,
    /// Bytes in a file, the target's length for a symlink, 0 for a directory.
    pub size: u64,
    /// Unix permission bits, e.g. `0o644`.
    pub mode: u32,
    /// When the content last changed.
    pub modified: SystemTime,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name, without its directory.
    pub name: String,
    /// What it is (a symlink is listed as a symlink, not followed).
    pub kind: FileKind,
}

/// Why a storage operation failed. Each variant carries the virtual path at
/// fault and prints the way a shell would.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StorageError {
    /// ENOENT.
    #[error("{0}: No such file or directory")]
    NotFound(String),
    /// EISDIR: a file operation on a directory.
    #[error("{0}: Is a directory")]
    IsADirectory(String),
    /// ENOTDIR: a path component, or a directory operation's target, is not a directory.
    #[error("{0}: Not a directory")]
    NotADirectory(String),
    /// ENOTEMPTY.
    #[error("{0}: Directory not empty")]
    NotEmpty(String),
    /// EEXIST.
    #[error("{0}: File exists")]
    AlreadyExists(String),
    /// EACCES: a path policy, or the root of a host directory, forbids it.
    #[error("{0}: Permission denied")]
    PermissionDenied(String),
    /// EROFS: the storage is read-only.
    #[error("{0}: Read-only file system")]
    ReadOnly(String),
    /// EFBIG / ENOSPC: a size limit would be passed.
    #[error("{path}: File too large (the limit is {limit} bytes)")]
    TooLarge {
        /// The file that would grow.
        path: String,
        /// The limit it would pass.
        limit: u64,
    },
    /// ELOOP: symlinks nest too deep or loop.
    #[error("{0}: Too many levels of symbolic links")]
    SymlinkLoop(String),
    /// EINVAL: e.g. moving a directory into itself, or removing `/`.
    #[error("{0}: Invalid argument")]
    InvalidArgument(String),
    /// EXDEV: a rename from one mounted storage to another.
    #[error("{0}: Invalid cross-device link")]
    CrossDevice(String),
    /// Any other failure of a backing store (a host file system's I/O error).
    #[error("{path}: {message}")]
    Io {
        /// The path at fault.
        path: String,
        /// What the backing store said.
        message: String,
    },
}

/// The layers above the storage (the C functions, the file tools) see a
/// storage failure as the core's generic one, with the storage's message.
impl From<StorageError> for crate::error::Error {
    fn from(error: StorageError) -> Self {
        crate::error::Error::OperationFailed { message: error.to_string() }
    }
}

/// The path inside any storage error, borrowed as the error is (shared or
/// mutable): one list of the variants for both accessors below.
macro_rules! path_of {
    ($error:expr) => {
        match $error {
            StorageError::NotFound(path)
            | StorageError::IsADirectory(path)
            | StorageError::NotADirectory(path)
            | StorageError::NotEmpty(path)
            | StorageError::AlreadyExists(path)
            | StorageError::PermissionDenied(path)
            | StorageError::ReadOnly(path)
            | StorageError::SymlinkLoop(path)
            | StorageError::InvalidArgument(path)
            | StorageError::CrossDevice(path)
            | StorageError::TooLarge { path, .. }
            | StorageError::Io { path, .. } => path,
        }
    };
}

impl StorageError {
    /// The path the error is about.
    pub fn path(&self) -> &str {
        path_of!(self)
    }

    /// The same error about another path: a mounted storage's paths are
    /// shown to the caller under the mount point.
    pub(crate) fn with_path(mut self, rewrite: impl FnOnce(&str) -> String) -> Self {
        let new = rewrite(self.path());
        *path_of!(&mut self) = new;
        self
    }
}

/// `result` with every error naming `path`, the path asked for (normalised),
/// as a shell names it: `/no/such/file: No such file or directory`, not the
/// first missing folder nor where a symlink led.
pub(crate) fn asked<T>(path: &str, result: Result<T, StorageError>) -> Result<T, StorageError> {
    result.map_err(|error| error.with_path(|_| normalize(path)))
}

/// The part of `data` that [`Storage::read_range`] returns: up to `len`
/// bytes from `offset`, clipped to the data.
pub(crate) fn range_of(data: &[u8], offset: u64, len: usize) -> &[u8] {
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(data.len());
    let end = start.saturating_add(len).min(data.len());
    &data[start..end]
}

/// A file opened once for reading ([`Storage::open_read`]): every read is
/// of the one version of the content it had when it was opened, however the
/// path changes meanwhile (replaced, removed, renamed), as a descriptor of
/// an open file is. A read that cannot give that version fails (the host
/// file was changed in place under it) and never returns bytes of another.
pub trait OpenFile: Send + Sync {
    /// Up to `len` bytes from byte `offset`: fewer at the end, none from
    /// past it.
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, StorageError>;
    /// The bytes of the version opened (0 for a pipe, which has no size).
    fn size(&self) -> u64;
}

/// An [`OpenFile`] over content held in memory: what a storage that keeps
/// files in memory hands out (sharing the buffer, not copying it), and the
/// default of [`Storage::open_read`] (the whole file, read once).
#[derive(Debug, Clone)]
pub struct Snapshot(pub Arc<Vec<u8>>);

impl OpenFile for Snapshot {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        Ok(range_of(&self.0, offset, len).to_vec())
    }
    fn size(&self) -> u64 {
        self.0.len() as u64
    }
}

/// A file system over virtual paths. Implementations are safe to share
/// between threads; each operation is atomic with respect to the others on
/// the same storage.
pub trait Storage: Send + Sync {
    /// The whole content of a file (symlinks followed).
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError>;
    /// Up to `len` bytes of a file from byte `offset`: fewer at its end,
    /// none from past it (symlinks followed). For reading a large file in
    /// pieces, so a reader holds one piece at a time. The path is resolved
    /// and checked as [`read`](Storage::read) does it, on every call; its
    /// errors are `read`'s. The default reads the whole file and slices it:
    /// correct for any storage, bounded only for those that implement it.
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        let data = self.read(path)?;
        Ok(range_of(&data, offset, len).to_vec())
    }
    /// Opens a file for reading at offsets (symlinks followed): the path is
    /// resolved and checked once, as [`read`](Storage::read) does it, with
    /// `read`'s errors; then every [`OpenFile::read_at`] reads the version
    /// opened. For reading a file in pieces, so that a reader holds one
    /// piece at a time and never mixes two versions of a file replaced
    /// while it reads. The default reads the whole file now: correct for
    /// any storage, bounded only for those that implement it.
    fn open_read(&self, path: &str) -> Result<Arc<dyn OpenFile>, StorageError> {
        Ok(Arc::new(Snapshot(Arc::new(self.read(path)?))))
    }
    /// Creates or replaces a file; its directory must exist.
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError>;
    /// Appends to a file, creating it when absent.
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError>;
    /// Metadata, symlinks followed.
    fn stat(&self, path: &str) -> Result<Metadata, StorageError>;
    /// Metadata of the path itself, a final symlink not followed.
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError>;
    /// The entries of a directory, sorted by name.
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError>;
    /// The entries of a directory, sorted by name, each with its metadata
    /// as [`lstat`](Storage::lstat) gives it (a symlink's own); an entry
    /// that cannot be stat'ed (gone since the listing) is left out. The
    /// default calls `list` and then `lstat` on each entry; a storage that
    /// can stat from the directory's handle does it in one pass (`find`'s
    /// walk uses it).
    fn list_metadata(&self, path: &str) -> Result<Vec<(DirEntry, Metadata)>, StorageError> {
        let entries = self.list(path)?;
        let base = normalize(path);
        Ok(entries
            .into_iter()
            .filter_map(|entry| {
                let metadata = self.lstat(&join(&base, &entry.name)).ok()?;
                Some((entry, metadata))
            })
            .collect())
    }
    /// Creates a directory; with `parents`, creates missing parents too and
    /// accepts an existing directory.
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError>;
    /// Removes a file, a symlink or an empty directory; with `recursive`, a
    /// directory and everything under it.
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError>;
    /// Moves a file, symlink or directory, replacing a file at `to`.
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError>;
    /// Creates a symlink at `link` pointing at `target` (kept as written).
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError>;
    /// The target of a symlink, as written.
    fn readlink(&self, path: &str) -> Result<String, StorageError>;
    /// The most bytes the file at `path` could hold after a write, when the
    /// storage has a limit (`None`: no limit). Tools that build a file's
    /// new content check it first, so they never build what cannot be kept.
    fn file_size_limit(&self, path: &str) -> Option<u64> {
        let _ = path;
        None
    }
    /// Sets the permission bits (`0o7777`) of a file or directory, symlinks
    /// followed, as chmod(2). The default, for a storage that keeps no
    /// modes, refuses with `Operation not supported` once the path exists.
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let _ = mode;
        self.stat(path)?;
        Err(StorageError::Io { path: normalize(path), message: "Operation not supported".to_owned() })
    }
    /// The snapshot side of a storage whose files live in memory (a
    /// [`MemoryStorage`], an [`Overlay`]'s or a [`DryRun`]'s upper layer):
    /// what a session snapshot carries and how a fork copies it. `None`
    /// (the default) for a storage that is referred to and never copied: a
    /// [`HostDir`], a [`ReadOnly`] view, a [`Policy`]; [`Mounts`] gives
    /// the layer of the storage mounted at `/`.
    fn snapshot_layer(&self) -> Option<&dyn SnapshotLayer> {
        None
    }
}

/// Implements every required [`Storage`] method and `set_mode` by calling
/// the type's own `raw_*` method of the same name and naming the path asked
/// for in its errors ([`asked`]); `raw_rename` tells which of its two paths
/// an error is about. For the storages that resolve paths themselves.
macro_rules! storage_from_raw_operations {
    () => {
        fn read(&self, path: &str) -> Result<Vec<u8>, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_read(path))
        }
        fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_read_range(path, offset, len))
        }
        fn open_read(
            &self,
            path: &str,
        ) -> Result<std::sync::Arc<dyn $crate::storage::OpenFile>, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_open_read(path))
        }
        fn write(&self, path: &str, data: &[u8]) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_write(path, data))
        }
        fn append(&self, path: &str, data: &[u8]) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_append(path, data))
        }
        fn stat(&self, path: &str) -> Result<$crate::storage::Metadata, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_stat(path))
        }
        fn lstat(&self, path: &str) -> Result<$crate::storage::Metadata, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_lstat(path))
        }
        fn list(&self, path: &str) -> Result<Vec<$crate::storage::DirEntry>, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_list(path))
        }
        fn mkdir(&self, path: &str, parents: bool) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_mkdir(path, parents))
        }
        fn remove(&self, path: &str, recursive: bool) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_remove(path, recursive))
        }
        fn rename(&self, from: &str, to: &str) -> Result<(), $crate::storage::StorageError> {
            self.raw_rename(from, to).map_err(|(error, about_destination)| {
                let at = if about_destination { to } else { from };
                error.with_path(|_| $crate::storage::normalize(at))
            })
        }
        fn symlink(&self, target: &str, link: &str) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(link, self.raw_symlink(target, link))
        }
        fn readlink(&self, path: &str) -> Result<String, $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_readlink(path))
        }
        fn set_mode(&self, path: &str, mode: u32) -> Result<(), $crate::storage::StorageError> {
            $crate::storage::asked(path, self.raw_set_mode(path, mode))
        }
    };
}

pub(crate) use storage_from_raw_operations;

/// Implements every [`Storage`] method by calling it on `$inner`, an
/// expression of `$this` (the wrapper): for wrappers that change nothing.
macro_rules! forward_storage {
    (|$this:ident| $inner:expr) => {
        fn read(&self, path: &str) -> Result<Vec<u8>, $crate::storage::StorageError> {
            let $this = self;
            $inner.read(path)
        }
        fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, $crate::storage::StorageError> {
            let $this = self;
            $inner.read_range(path, offset, len)
        }
        fn open_read(
            &self,
            path: &str,
        ) -> Result<std::sync::Arc<dyn $crate::storage::OpenFile>, $crate::storage::StorageError> {
            let $this = self;
            $inner.open_read(path)
        }
        fn write(&self, path: &str, data: &[u8]) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.write(path, data)
        }
        fn append(&self, path: &str, data: &[u8]) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.append(path, data)
        }
        fn stat(&self, path: &str) -> Result<$crate::storage::Metadata, $crate::storage::StorageError> {
            let $this = self;
            $inner.stat(path)
        }
        fn lstat(&self, path: &str) -> Result<$crate::storage::Metadata, $crate::storage::StorageError> {
            let $this = self;
            $inner.lstat(path)
        }
        fn list(&self, path: &str) -> Result<Vec<$crate::storage::DirEntry>, $crate::storage::StorageError> {
            let $this = self;
            $inner.list(path)
        }
        fn mkdir(&self, path: &str, parents: bool) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.mkdir(path, parents)
        }
        fn remove(&self, path: &str, recursive: bool) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.remove(path, recursive)
        }
        fn rename(&self, from: &str, to: &str) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.rename(from, to)
        }
        fn symlink(&self, target: &str, link: &str) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.symlink(target, link)
        }
        fn readlink(&self, path: &str) -> Result<String, $crate::storage::StorageError> {
            let $this = self;
            $inner.readlink(path)
        }
        fn file_size_limit(&self, path: &str) -> Option<u64> {
            let $this = self;
            $inner.file_size_limit(path)
        }
        fn set_mode(&self, path: &str, mode: u32) -> Result<(), $crate::storage::StorageError> {
            let $this = self;
            $inner.set_mode(path, mode)
        }
    };
}
pub(crate) use forward_storage;

/// A shared storage is a storage: wrappers and mounts hold their inner
/// storages as `Arc<dyn Storage>`.
impl<T: Storage + ?Sized> Storage for std::sync::Arc<T> {
    forward_storage!(|this| (**this));
    fn snapshot_layer(&self) -> Option<&dyn SnapshotLayer> {
        (**self).snapshot_layer()
    }
}
