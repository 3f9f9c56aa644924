//! Process substitution as a command's argument: `<(cmd)` and `>(cmd)`
//! become `/dev/fd/63`, `/dev/fd/62`… as in bash, and a command that opens
//! that path (through [`Context::read`](super::command::Context::read), the
//! storage, or a redirection) reads what `cmd` wrote, or writes to `cmd`.
//!
//! Where this differs from bash, whose substitutions are processes running
//! beside the command:
//! - `<(cmd)` runs `cmd` to its end first (a subshell), and its output is
//!   kept, bounded by `max_output_bytes`: `cat <(yes)` ends at the output
//!   limit where bash's `head` would end at once.
//! - `>(cmd)` keeps what the command writes to the path and runs `cmd`
//!   with it as stdin once the command has ended, its stdout the shell's.
//! - The paths exist only for the command they are given to (and what it
//!   runs: a function, a pipeline in it); `ls /dev/fd` lists nothing.

use std::sync::{Arc, Mutex};

use brush_parser::ast;

use super::exec::{Flow, Interp};
use super::io::Input;
use crate::storage::{DirEntry, FileKind, Metadata, Storage, StorageError};

/// A substitution's path and what it holds.
#[derive(Clone)]
pub(crate) struct ProcFd {
    path: String,
    /// `<(cmd)`: `cmd`'s output.
    read: Option<Arc<[u8]>>,
    /// `>(cmd)`: what was written to the path, and `cmd`.
    written: Arc<Mutex<Vec<u8>>>,
    list: Option<Arc<ast::CompoundList>>,
}

impl Interp<'_> {
    /// Runs (`<`) or prepares (`>`) a substitution; returns its path.
    pub(crate) fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        sub: &ast::SubshellCommand,
    ) -> Result<String, Flow> {
        let number = 63usize.saturating_sub(self.io.proc_fds.len()).max(10);
        let path = format!("/dev/fd/{number}");
        let (read, list) = match kind {
            ast::ProcessSubstitutionKind::Read => {
                let (data, _) = self.capture(|s| s.run_list(&sub.list))?;
                (Some(Arc::from(data)), None)
            }
            ast::ProcessSubstitutionKind::Write => (None, Some(Arc::new(sub.list.clone()))),
        };
        self.io.proc_fds.push(ProcFd { path: path.clone(), read, written: Arc::default(), list });
        Ok(path)
    }

    /// The command has ended: each `>(cmd)` since `base` runs now, with
    /// what was written to its path as stdin.
    pub(crate) fn finish_process_substitutions(&mut self, base: usize) -> Result<(), Flow> {
        let fds = self.io.proc_fds.split_off(base.min(self.io.proc_fds.len()));
        for fd in fds {
            let Some(list) = fd.list else { continue };
            let data = std::mem::take(&mut *fd.written.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
            let saved = self.io.fd;
            let base_ins = self.io.ins.len();
            self.io.ins.push(Input::buffer(data));
            self.io.fd.input = self.io.ins.len() - 1;
            self.at.scopes += 1;
            let result = self.subshell_waiting(|s| s.run_list(&list));
            self.at.scopes -= 1;
            self.io.ins.truncate(base_ins);
            self.io.fd = saved;
            result?;
        }
        Ok(())
    }

    /// What a command's storage is while substitutions are open: their
    /// paths, then the run's storage.
    pub(crate) fn proc_fds(&self) -> Vec<ProcFd> {
        self.io.proc_fds.clone()
    }

    /// The bytes of substitution `path` for a redirection (`< "$1"`), if it is one.
    pub(crate) fn proc_fd_input(&self, path: &str) -> Option<Vec<u8>> {
        let fd = self.io.proc_fds.iter().find(|fd| fd.path == path)?;
        Some(fd.read.as_deref().map(<[u8]>::to_vec).unwrap_or_default())
    }
}

/// The run's storage with the substitutions' paths in front of it.
pub(crate) struct FdStorage<'a> {
    pub(crate) inner: &'a dyn Storage,
    pub(crate) fds: Vec<ProcFd>,
}

impl FdStorage<'_> {
    fn find(&self, path: &str) -> Option<&ProcFd> {
        if !path.starts_with("/dev/fd/") {
            return None;
        }
        self.fds.iter().find(|fd| fd.path == path)
    }

    fn write_to(fd: &ProcFd, data: &[u8], truncate: bool) -> Result<(), StorageError> {
        if fd.read.is_some() {
            return Err(StorageError::PermissionDenied(fd.path.clone()));
        }
        let mut written = fd.written.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if truncate && fd.list.is_none() {
            written.clear();
        }
        written.extend_from_slice(data);
        Ok(())
    }
}

impl Storage for FdStorage<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        match self.find(path) {
            Some(fd) => Ok(fd.read.as_deref().map(<[u8]>::to_vec).unwrap_or_default()),
            None => self.inner.read(path),
        }
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        match self.find(path) {
            Some(fd) => {
                let data = fd.read.as_deref().unwrap_or_default();
                let start = usize::try_from(offset).unwrap_or(usize::MAX).min(data.len());
                Ok(data[start..start.saturating_add(len).min(data.len())].to_vec())
            }
            None => self.inner.read_range(path, offset, len),
        }
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        match self.find(path) {
            Some(fd) => Self::write_to(fd, data, true),
            None => self.inner.write(path, data),
        }
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        match self.find(path) {
            Some(fd) => Self::write_to(fd, data, false),
            None => self.inner.append(path, data),
        }
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        match self.find(path) {
            Some(fd) => Ok(Metadata {
                kind: FileKind::File,
                size: fd.read.as_ref().map_or(0, |data| data.len() as u64),
                mode: 0o600,
                modified: std::time::SystemTime::UNIX_EPOCH,
            }),
            None => self.inner.stat(path),
        }
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        match self.find(path) {
            Some(_) => self.stat(path),
            None => self.inner.lstat(path),
        }
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        self.inner.list(path)
    }
    fn list_metadata(&self, path: &str) -> Result<Vec<(DirEntry, Metadata)>, StorageError> {
        self.inner.list_metadata(path)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.inner.mkdir(path, parents)
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.inner.remove(path, recursive)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.inner.rename(from, to)
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.inner.symlink(target, link)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.inner.readlink(path)
    }
    fn file_size_limit(&self, path: &str) -> Option<u64> {
        self.inner.file_size_limit(path)
    }
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        self.inner.set_mode(path, mode)
    }
}
