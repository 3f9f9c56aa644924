//! A wrapper that lets reads through and refuses every change.

use super::path::normalize;
use super::{DirEntry, Metadata, Storage, StorageError};

/// Any storage, read-only: every write, mkdir, remove, rename or symlink
/// fails with [`StorageError::ReadOnly`] and changes nothing.
#[derive(Debug, Clone, Default)]
pub struct ReadOnly<S>(pub S);

fn refuse<T>(path: &str) -> Result<T, StorageError> {
    Err(StorageError::ReadOnly(normalize(path)))
}

impl<S: Storage> Storage for ReadOnly<S> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        self.0.read(path)
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        self.0.read_range(path, offset, len)
    }
    fn open_read(&self, path: &str) -> Result<std::sync::Arc<dyn super::OpenFile>, StorageError> {
        self.0.open_read(path)
    }
    fn write(&self, path: &str, _data: &[u8]) -> Result<(), StorageError> {
        refuse(path)
    }
    fn append(&self, path: &str, _data: &[u8]) -> Result<(), StorageError> {
        refuse(path)
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
    fn list_metadata(&self, path: &str) -> Result<Vec<(DirEntry, Metadata)>, StorageError> {
        self.0.list_metadata(path)
    }
    fn mkdir(&self, path: &str, _parents: bool) -> Result<(), StorageError> {
        refuse(path)
    }
    fn remove(&self, path: &str, _recursive: bool) -> Result<(), StorageError> {
        refuse(path)
    }
    fn rename(&self, from: &str, _to: &str) -> Result<(), StorageError> {
        refuse(from)
    }
    fn symlink(&self, _target: &str, link: &str) -> Result<(), StorageError> {
        refuse(link)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.0.readlink(path)
    }
    fn file_size_limit(&self, path: &str) -> Option<u64> {
        self.0.file_size_limit(path)
    }
    fn set_mode(&self, path: &str, _mode: u32) -> Result<(), StorageError> {
        refuse(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    #[test]
    fn reads_pass_and_every_change_is_refused() {
        let inner = MemoryStorage::default();
        inner.write("/kept", b"data").unwrap();
        let storage = ReadOnly(inner);
        assert_eq!(storage.read("/kept").unwrap(), b"data");
        assert_eq!(storage.write("kept", b"x").unwrap_err().to_string(), "/kept: Read-only file system");
        assert!(matches!(storage.remove("/kept", true), Err(StorageError::ReadOnly(_))));
        assert!(matches!(storage.mkdir("/d", true), Err(StorageError::ReadOnly(_))));
        assert_eq!(storage.0.read("/kept").unwrap(), b"data");
        assert_eq!(storage.list("/").unwrap().len(), 1);
    }
}
