//! What a session snapshot carries of a storage, and how a storage is
//! forked: the in-memory part of a storage as plain data ([`LayerImage`]),
//! checked on the way back in.
//!
//! A [`MemoryStorage`] is carried whole; an [`Overlay`] or [`DryRun`]
//! carries its upper layer, whiteouts included, and refers to its lower
//! storage (a host folder, a read-only view), which is never copied. Every
//! other storage is referred to. The byte format around the image is the
//! shell's (`crate::shell::snapshot`, docs/SHELL.md "Snapshots").

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::memory::{Node, Tree};
use super::overlay::Upper;
use super::{normalize, parent, DryRun, MemoryStorage, Overlay, Storage};

/// Why a snapshot could not be made or restored. Each variant prints a
/// sentence that says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The bytes do not start with the snapshot magic.
    #[error("not a session snapshot (the bytes do not start with AIKIDOSS)")]
    NotASnapshot,
    /// Made by a newer (or an unknown older) format version.
    #[error("the snapshot has format version {found}; this build reads version {supported} only")]
    Version {
        /// The version the bytes declare.
        found: u32,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// Made by a build whose session state has other fields.
    #[error(
        "the snapshot was made by a build whose session state differs (layout {found:08x}, this build {expected:08x})"
    )]
    Layout {
        /// The layout fingerprint the bytes declare.
        found: u32,
        /// This build's.
        expected: u32,
    },
    /// Fewer or more bytes than the header declares.
    #[error("the snapshot is truncated or has bytes after its end ({found} bytes, the header declares {declared})")]
    Length {
        /// The bytes given.
        found: u64,
        /// The bytes the header declares.
        declared: u64,
    },
    /// The checksum does not match: the bytes were changed.
    #[error("the snapshot is corrupt: its checksum does not match")]
    Checksum,
    /// The bytes decode, but to something no session holds (a path that
    /// escapes, a name with a NUL byte, a count past a limit…).
    #[error("the snapshot is invalid: {0}")]
    Invalid(String),
    /// More than a limit allows (the storage's or the session's).
    #[error("the snapshot is too large: {0}")]
    TooLarge(String),
    /// The snapshot holds files of one kind of storage and the restore was
    /// given another.
    #[error("the snapshot holds {found}, but the storage to restore into is {given}")]
    StorageKind {
        /// What the snapshot holds.
        found: &'static str,
        /// What the restore was given.
        given: &'static str,
    },
}

/// The in-memory part of a storage as data: made by
/// [`SnapshotLayer::image`], loaded back by [`SnapshotLayer::load`].
/// Opaque: only the library makes and reads one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LayerImage(pub(crate) Image);

/// What a storage's image holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Image {
    /// Nothing: the storage is referred to (a host folder, a read-only
    /// view, mounts, a policy, or a storage of the caller's own).
    Referred,
    /// A memory storage, whole: every path but `/`, sorted.
    Memory {
        /// Its limits, for a restore that makes the storage anew.
        max_total_bytes: u64,
        /// As above.
        max_file_bytes: u64,
        /// Every entry but `/`, sorted by path.
        entries: Vec<Entry>,
    },
    /// An overlay's or a dry run's upper layer, whiteouts included.
    Overlay {
        /// Every upper entry, sorted by path.
        entries: Vec<Entry>,
    },
}

impl Image {
    /// What the image holds, in words for an error.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Image::Referred => "no files (its storage is referred to)",
            Image::Memory { .. } => "a memory storage",
            Image::Overlay { .. } => "an overlay's upper layer",
        }
    }
}

/// One path of an image.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) path: String,
    pub(crate) node: EntryNode,
}

/// A time as seconds and nanoseconds since 1970 (0 for an earlier time).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Stamp(u64, u32);

impl Stamp {
    fn of(time: SystemTime) -> Stamp {
        let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
        Stamp(since.as_secs(), since.subsec_nanos())
    }

    fn time(self) -> Result<SystemTime, SnapshotError> {
        if self.1 >= 1_000_000_000 {
            return Err(SnapshotError::Invalid("a time stamp has more than a second of nanoseconds".into()));
        }
        UNIX_EPOCH
            .checked_add(Duration::new(self.0, self.1))
            .ok_or_else(|| SnapshotError::Invalid("a time stamp is out of range".into()))
    }
}

/// A file's content, written as one byte string (not a byte at a time)
/// and shared, not copied, between an image and the storage it came from.
#[derive(Debug, Clone)]
pub(crate) struct Bytes(pub(crate) Arc<Vec<u8>>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            // The length was checked against the input by the format before
            // this copy: a hostile count cannot allocate more than it holds.
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(Arc::new(bytes.to_vec())))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(Arc::new(bytes)))
            }
        }
        deserializer.deserialize_bytes(Visitor)
    }
}

/// What is at a path of an image.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum EntryNode {
    File {
        data: Bytes,
        mode: u32,
        modified: Stamp,
    },
    /// `opaque`: an overlay's directory made where a lower one was deleted.
    Directory {
        mode: u32,
        opaque: bool,
        modified: Stamp,
    },
    Symlink {
        target: String,
        modified: Stamp,
    },
    /// An overlay's deletion of a lower path.
    Whiteout,
}

/// The snapshot side of a storage whose files live in memory: what a
/// session snapshot carries of it, how it is loaded back, and how a fork
/// copies it. [`Storage::snapshot_layer`] gives it; the library's
/// [`MemoryStorage`], [`Overlay`] and [`DryRun`] have one.
pub trait SnapshotLayer: Send + Sync {
    /// The files as data. File contents are shared with the storage, not
    /// copied (a later write to the storage copies its file first).
    fn image(&self) -> LayerImage;
    /// Replaces what the storage holds with `image`, after checking all of
    /// it (paths, names, sizes against the storage's limits); on error the
    /// storage is unchanged.
    fn load(&self, image: LayerImage) -> Result<(), SnapshotError>;
    /// A new storage with the same files that shares nothing mutable with
    /// this one: file contents are shared until either side writes them
    /// (copy on write); an overlay's lower storage is shared, as it is
    /// never written.
    fn fork(&self) -> Arc<dyn Storage>;
}

/// Checks a path of an image: absolute, normalised, no NUL byte, not `/`.
fn check_path(path: &str) -> Result<(), SnapshotError> {
    if path.contains('\0') {
        return Err(SnapshotError::Invalid(format!("the path {:?} holds a NUL byte", path)));
    }
    if path == "/" || normalize(path) != path {
        return Err(SnapshotError::Invalid(format!("the path {path:?} is not a normalised path under /")));
    }
    Ok(())
}

fn check_mode(mode: u32) -> Result<(), SnapshotError> {
    if mode > 0o7777 {
        return Err(SnapshotError::Invalid(format!("the mode {mode:o} has bits past 7777")));
    }
    Ok(())
}

/// Checks what every image must hold: sorted unique normalised paths,
/// each under a directory of the image (or `/`), no NUL in a symlink.
fn check_entries(entries: &[Entry], whiteouts: bool) -> Result<(), SnapshotError> {
    let mut directories: std::collections::HashSet<&str> = std::collections::HashSet::new();
    directories.insert("/");
    let mut previous: Option<&str> = None;
    for entry in entries {
        check_path(&entry.path)?;
        if previous.is_some_and(|previous| previous >= entry.path.as_str()) {
            return Err(SnapshotError::Invalid(format!("the path {:?} is out of order or repeated", entry.path)));
        }
        previous = Some(&entry.path);
        let (folder, _) = parent(&entry.path).expect("a normalised path other than / has a parent");
        if !directories.contains(folder) {
            return Err(SnapshotError::Invalid(format!("{:?} is not under a directory of the snapshot", entry.path)));
        }
        match &entry.node {
            EntryNode::File { mode, .. } => check_mode(*mode)?,
            EntryNode::Directory { mode, .. } => {
                check_mode(*mode)?;
                directories.insert(&entry.path);
            }
            EntryNode::Symlink { target, .. } if target.contains('\0') => {
                return Err(SnapshotError::Invalid(format!("the symlink {:?} holds a NUL byte", entry.path)));
            }
            EntryNode::Symlink { .. } => {}
            EntryNode::Whiteout if !whiteouts => {
                return Err(SnapshotError::Invalid("a memory storage holds a deletion marker".into()));
            }
            EntryNode::Whiteout => {}
        }
    }
    Ok(())
}

impl MemoryStorage {
    /// A new storage with the same files and limits, sharing nothing
    /// mutable with this one (contents are copied on their first write).
    pub fn fork(&self) -> MemoryStorage {
        let tree = self.lock();
        let copy = Tree { nodes: tree.nodes.clone(), total_bytes: tree.total_bytes };
        MemoryStorage { tree: std::sync::Mutex::new(copy), limits: self.limits }
    }

    /// A new storage holding a memory image, with the image's limits.
    #[cfg(feature = "shell")]
    pub(crate) fn from_image(image: Image) -> Result<MemoryStorage, SnapshotError> {
        let Image::Memory { max_total_bytes, max_file_bytes, .. } = &image else {
            return Err(SnapshotError::StorageKind { found: image.kind(), given: "a memory storage" });
        };
        let storage = MemoryStorage::new(super::MemoryLimits {
            max_total_bytes: *max_total_bytes,
            max_file_bytes: *max_file_bytes,
            ..super::MemoryLimits::default()
        });
        storage.load(LayerImage(image))?;
        Ok(storage)
    }
}

impl SnapshotLayer for MemoryStorage {
    fn image(&self) -> LayerImage {
        let tree = self.lock();
        let entries = tree
            .nodes
            .iter()
            .filter(|(path, _)| path.as_str() != "/")
            .map(|(path, node)| Entry {
                path: path.clone(),
                node: match node {
                    Node::File { data, mode, modified } => {
                        EntryNode::File { data: Bytes(data.clone()), mode: *mode, modified: Stamp::of(*modified) }
                    }
                    Node::Directory { mode, modified } => {
                        EntryNode::Directory { mode: *mode, opaque: false, modified: Stamp::of(*modified) }
                    }
                    Node::Symlink { target, modified } => {
                        EntryNode::Symlink { target: target.clone(), modified: Stamp::of(*modified) }
                    }
                },
            })
            .collect();
        LayerImage(Image::Memory {
            max_total_bytes: self.limits.max_total_bytes,
            max_file_bytes: self.limits.max_file_bytes,
            entries,
        })
    }

    fn load(&self, image: LayerImage) -> Result<(), SnapshotError> {
        let Image::Memory { entries, .. } = image.0 else {
            return Err(SnapshotError::StorageKind { found: image.0.kind(), given: "a memory storage" });
        };
        check_entries(&entries, false)?;
        let mut total: u64 = 0;
        for entry in &entries {
            if let EntryNode::File { data, .. } = &entry.node {
                let size = data.0.len() as u64;
                if size > self.limits.max_file_bytes {
                    return Err(SnapshotError::TooLarge(format!(
                        "{} holds {size} bytes, past the storage's limit of {} per file",
                        entry.path, self.limits.max_file_bytes
                    )));
                }
                total = total.saturating_add(size);
            }
        }
        if total > self.limits.max_total_bytes {
            return Err(SnapshotError::TooLarge(format!(
                "the files hold {total} bytes, past the storage's limit of {}",
                self.limits.max_total_bytes
            )));
        }
        let mut nodes = BTreeMap::new();
        nodes.insert("/".to_owned(), Node::directory());
        for Entry { path, node } in entries {
            let node = match node {
                EntryNode::File { data, mode, modified } => {
                    Node::File { data: data.0, mode, modified: modified.time()? }
                }
                EntryNode::Directory { mode, modified, .. } => Node::Directory { mode, modified: modified.time()? },
                EntryNode::Symlink { target, modified } => Node::Symlink { target, modified: modified.time()? },
                EntryNode::Whiteout => unreachable!("refused by check_entries"),
            };
            nodes.insert(path, node);
        }
        *self.lock() = Tree { nodes, total_bytes: total };
        Ok(())
    }

    fn fork(&self) -> Arc<dyn Storage> {
        Arc::new(MemoryStorage::fork(self))
    }
}

impl<L: Storage + 'static> Overlay<L> {
    /// A new overlay over the same lower storage with a copy of this one's
    /// upper layer: the two share nothing mutable (contents are copied on
    /// their first write; the lower storage is never written before commit).
    pub fn fork(&self) -> Overlay<L> {
        Overlay { lower: self.lower.clone(), upper: std::sync::Mutex::new(self.lock().clone()), limits: self.limits }
    }
}

impl<L: Storage + 'static> SnapshotLayer for Overlay<L> {
    fn image(&self) -> LayerImage {
        let upper = self.lock();
        let entries = upper
            .iter()
            .map(|(path, entry)| Entry {
                path: path.clone(),
                node: match entry {
                    Upper::File { data, mode, modified } => {
                        EntryNode::File { data: Bytes(data.clone()), mode: *mode, modified: Stamp::of(*modified) }
                    }
                    Upper::Directory { opaque, modified } => {
                        EntryNode::Directory { mode: 0o755, opaque: *opaque, modified: Stamp::of(*modified) }
                    }
                    Upper::Symlink { target, modified } => {
                        EntryNode::Symlink { target: target.clone(), modified: Stamp::of(*modified) }
                    }
                    Upper::Whiteout => EntryNode::Whiteout,
                },
            })
            .collect();
        LayerImage(Image::Overlay { entries })
    }

    fn load(&self, image: LayerImage) -> Result<(), SnapshotError> {
        let Image::Overlay { entries } = image.0 else {
            return Err(SnapshotError::StorageKind { found: image.0.kind(), given: "an overlay" });
        };
        // The upper layer of an overlay made from `/` down has an entry for
        // `/` itself when something was placed at the top.
        let root = entries.first().filter(|entry| entry.path == "/").is_some();
        let rest = if root { &entries[1..] } else { &entries[..] };
        check_entries(rest, true)?;
        let mut upper = BTreeMap::new();
        for Entry { path, node } in entries {
            let entry = match node {
                EntryNode::File { data, mode, modified } => {
                    Upper::File { data: data.0, mode, modified: modified.time()? }
                }
                EntryNode::Directory { opaque, modified, .. } => {
                    Upper::Directory { opaque, modified: modified.time()? }
                }
                EntryNode::Symlink { target, modified } => Upper::Symlink { target, modified: modified.time()? },
                EntryNode::Whiteout if path == "/" => {
                    return Err(SnapshotError::Invalid("the root cannot be deleted".into()));
                }
                EntryNode::Whiteout => Upper::Whiteout,
            };
            upper.insert(path, entry);
        }
        *self.lock() = upper;
        Ok(())
    }

    fn fork(&self) -> Arc<dyn Storage> {
        Arc::new(Overlay::fork(self))
    }
}

impl<L: Storage + 'static> DryRun<L> {
    /// A new dry run over the same lower storage with a copy of this one's
    /// recorded changes (see [`Overlay::fork`]).
    pub fn fork(&self) -> DryRun<L> {
        DryRun(self.0.fork())
    }
}

impl<L: Storage + 'static> SnapshotLayer for DryRun<L> {
    fn image(&self) -> LayerImage {
        self.0.image()
    }
    fn load(&self, image: LayerImage) -> Result<(), SnapshotError> {
        self.0.load(image)
    }
    fn fork(&self) -> Arc<dyn Storage> {
        Arc::new(DryRun::fork(self))
    }
}
