//! A storage over a real folder of the host.
//!
//! Nothing can reach outside the root: paths are normalised (so `..` stops
//! at `/`), and symlinks are followed by the shared resolver in the virtual
//! namespace, never by the host: a link planted inside the root that points
//! at `/etc` means the root's own `etc`. Operations then act on a path with
//! no symlink left in it, and open files with `O_NOFOLLOW`, so a final
//! component swapped for a symlink meanwhile is refused, not followed.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::path::{normalize, resolve, Lookup};
use super::{DirEntry, FileKind, Metadata, Storage, StorageError};

/// A storage rooted at a folder of the host, optionally read-only.
#[derive(Debug, Clone)]
pub struct HostDir {
    root: PathBuf,
    read_only: bool,
}

/// The storage error for a host I/O error at a virtual path.
fn host_error(path: &str, error: io::Error) -> StorageError {
    let path = path.to_owned();
    match error.raw_os_error() {
        Some(libc::ENOENT) => StorageError::NotFound(path),
        Some(libc::EISDIR) => StorageError::IsADirectory(path),
        Some(libc::ENOTDIR) => StorageError::NotADirectory(path),
        Some(libc::ENOTEMPTY) => StorageError::NotEmpty(path),
        Some(libc::EEXIST) => StorageError::AlreadyExists(path),
        Some(libc::EACCES | libc::EPERM) => StorageError::PermissionDenied(path),
        Some(libc::EROFS) => StorageError::ReadOnly(path),
        Some(libc::ELOOP) => StorageError::SymlinkLoop(path),
        Some(libc::EINVAL) => StorageError::InvalidArgument(path),
        _ => StorageError::Io { path, message: error.to_string() },
    }
}

fn kind_of(file_type: fs::FileType) -> FileKind {
    if file_type.is_symlink() {
        FileKind::Symlink
    } else if file_type.is_dir() {
        FileKind::Directory
    } else {
        FileKind::File
    }
}

impl HostDir {
    /// A storage over the folder at `root`, which must exist.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = fs::canonicalize(root)?;
        if !root.is_dir() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a folder", root.display())));
        }
        Ok(HostDir { root, read_only: false })
    }

    /// The same storage, refusing every change with [`StorageError::ReadOnly`].
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// The host path of a real virtual path (one with no symlink in it).
    fn host(&self, real: &str) -> PathBuf {
        self.root.join(&real[1..])
    }

    fn lookup(&self, real: &str) -> Result<Lookup, StorageError> {
        let host = self.host(real);
        match fs::symlink_metadata(&host) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Lookup::Missing),
            Err(error) => Err(host_error(real, error)),
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&host).map_err(|error| host_error(real, error))?;
                let target = target.into_os_string().into_string().map_err(|_| StorageError::Io {
                    path: real.to_owned(),
                    message: "the symlink's target is not UTF-8".to_owned(),
                })?;
                Ok(Lookup::Symlink(target))
            }
            Ok(metadata) if metadata.is_dir() => Ok(Lookup::Directory),
            Ok(_) => Ok(Lookup::File),
        }
    }

    fn resolve(&self, path: &str, follow_last: bool) -> Result<String, StorageError> {
        resolve(path, follow_last, |real| self.lookup(real))
    }

    fn writable(&self, path: &str) -> Result<(), StorageError> {
        if self.read_only {
            Err(StorageError::ReadOnly(normalize(path)))
        } else {
            Ok(())
        }
    }

    fn put(&self, path: &str, data: &[u8], append: bool) -> Result<(), StorageError> {
        self.writable(path)?;
        let real = self.resolve(path, true)?;
        if self.lookup(&real)? == Lookup::Directory {
            return Err(StorageError::IsADirectory(real));
        }
        let mut options = OpenOptions::new();
        options.create(true).custom_flags(libc::O_NOFOLLOW);
        if append {
            options.append(true);
        } else {
            options.write(true).truncate(true);
        }
        let mut file = options.open(self.host(&real)).map_err(|error| host_error(&real, error))?;
        file.write_all(data).map_err(|error| host_error(&real, error))
    }

    fn metadata(&self, real: &str) -> Result<Metadata, StorageError> {
        let metadata = fs::symlink_metadata(self.host(real)).map_err(|error| host_error(real, error))?;
        let kind = kind_of(metadata.file_type());
        Ok(Metadata {
            kind,
            size: if kind == FileKind::Directory { 0 } else { metadata.len() },
            mode: metadata.permissions().mode() & 0o7777,
            modified: metadata.modified().map_err(|error| host_error(real, error))?,
        })
    }
}

impl Storage for HostDir {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let real = self.resolve(path, true)?;
        match self.lookup(&real)? {
            Lookup::Directory => Err(StorageError::IsADirectory(real)),
            Lookup::Missing => Err(StorageError::NotFound(real)),
            _ => {
                let file = OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(self.host(&real))
                    .map_err(|error| host_error(&real, error))?;
                let mut data = Vec::new();
                io::Read::read_to_end(&mut &file, &mut data).map_err(|error| host_error(&real, error))?;
                Ok(data)
            }
        }
    }

    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, false)
    }

    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, true)
    }

    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.metadata(&self.resolve(path, true)?)
    }

    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.metadata(&self.resolve(path, false)?)
    }

    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let real = self.resolve(path, true)?;
        let entries = fs::read_dir(self.host(&real)).map_err(|error| host_error(&real, error))?;
        let mut listed = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|error| host_error(&real, error))?;
            let kind = kind_of(entry.file_type().map_err(|error| host_error(&real, error))?);
            // Names that are not UTF-8 cannot be virtual paths; they are
            // shown, lossily, but cannot be opened.
            listed.push(DirEntry { name: entry.file_name().to_string_lossy().into_owned(), kind });
        }
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(listed)
    }

    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.writable(path)?;
        if !parents {
            let real = self.resolve(path, false)?;
            return fs::create_dir(self.host(&real)).map_err(|error| host_error(&real, error));
        }
        let mut prefix = String::new();
        for part in normalize(path).split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            let real = self.resolve(&prefix, true)?;
            match self.lookup(&real)? {
                Lookup::Directory => {}
                Lookup::Missing => fs::create_dir(self.host(&real)).map_err(|error| host_error(&real, error))?,
                _ => return Err(StorageError::AlreadyExists(real)),
            }
        }
        Ok(())
    }

    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.writable(path)?;
        let real = self.resolve(path, false)?;
        if real == "/" {
            return Err(StorageError::InvalidArgument(real));
        }
        let host = self.host(&real);
        let removed = match self.lookup(&real)? {
            Lookup::Missing => return Err(StorageError::NotFound(real)),
            // remove_dir_all never follows symlinks inside the tree.
            Lookup::Directory if recursive => fs::remove_dir_all(host),
            Lookup::Directory => fs::remove_dir(host),
            Lookup::File | Lookup::Symlink(_) => fs::remove_file(host),
        };
        removed.map_err(|error| host_error(&real, error))
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.writable(from)?;
        let source = self.resolve(from, false)?;
        let destination = self.resolve(to, false)?;
        if source == "/" {
            return Err(StorageError::InvalidArgument(source));
        }
        fs::rename(self.host(&source), self.host(&destination)).map_err(|error| host_error(&source, error))
    }

    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.writable(link)?;
        let real = self.resolve(link, false)?;
        std::os::unix::fs::symlink(target, self.host(&real)).map_err(|error| host_error(&real, error))
    }

    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        let real = self.resolve(path, false)?;
        match self.lookup(&real)? {
            Lookup::Symlink(target) => Ok(target),
            Lookup::Missing => Err(StorageError::NotFound(real)),
            _ => Err(StorageError::InvalidArgument(real)),
        }
    }

    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        use std::os::unix::fs::PermissionsExt;
        // Resolved inside the root, symlinks followed there: the final path
        // is a real file or directory under the root.
        let real = self.resolve(path, true)?;
        if let Lookup::Missing = self.lookup(&real)? {
            return Err(StorageError::NotFound(real));
        }
        fs::set_permissions(self.host(&real), fs::Permissions::from_mode(mode & 0o7777))
            .map_err(|error| host_error(&real, error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder, removed on drop.
    struct Scratch(PathBuf);
    impl Scratch {
        fn new(name: &str) -> Scratch {
            let path = std::env::temp_dir().join(format!("aikido-host-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(&path).unwrap();
            Scratch(path)
        }
    }
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// A root folder with a secret beside it, outside the root.
    fn sandbox(name: &str) -> (Scratch, HostDir) {
        let scratch = Scratch::new(name);
        fs::create_dir(scratch.0.join("root")).unwrap();
        fs::create_dir(scratch.0.join("outside")).unwrap();
        fs::write(scratch.0.join("outside/secret"), "top secret").unwrap();
        fs::write(scratch.0.join("root/notes.txt"), "inside").unwrap();
        let storage = HostDir::new(scratch.0.join("root")).unwrap();
        (scratch, storage)
    }

    #[test]
    fn files_and_directories_behave_as_in_memory() {
        let (scratch, storage) = sandbox("basics");
        storage.mkdir("/a/b", true).unwrap();
        storage.write("/a/b/c.txt", b"one").unwrap();
        storage.append("/a/b/c.txt", b" two").unwrap();
        assert_eq!(storage.read("a/b/../b/c.txt").unwrap(), b"one two");
        assert_eq!(fs::read(scratch.0.join("root/a/b/c.txt")).unwrap(), b"one two");
        let names: Vec<String> = storage.list("/").unwrap().into_iter().map(|entry| entry.name).collect();
        assert_eq!(names, ["a", "notes.txt"]);
        assert_eq!(storage.remove("/a", false).unwrap_err().to_string(), "/a: Directory not empty");
        storage.rename("/a/b/c.txt", "/moved.txt").unwrap();
        storage.remove("/a", true).unwrap();
        assert_eq!(storage.read("/moved.txt").unwrap(), b"one two");
        assert_eq!(storage.read("/a").unwrap_err().to_string(), "/a: No such file or directory");
        assert_eq!(storage.stat("/moved.txt").unwrap().size, 7);
    }

    #[test]
    fn dot_dot_cannot_climb_out_of_the_root() {
        let (scratch, storage) = sandbox("dotdot");
        assert_eq!(storage.read("/../outside/secret").unwrap_err(), StorageError::NotFound("/outside".to_owned()));
        storage.mkdir("../../outside", true).unwrap();
        storage.write("../../outside/secret", b"overwritten?").unwrap();
        assert_eq!(fs::read_to_string(scratch.0.join("outside/secret")).unwrap(), "top secret");
        assert!(scratch.0.join("root/outside/secret").exists(), "the write landed inside the root");
    }

    #[test]
    fn symlinks_planted_inside_the_root_cannot_lead_out() {
        let (scratch, storage) = sandbox("symlinks");
        let root = scratch.0.join("root");
        let outside = scratch.0.join("outside");
        std::os::unix::fs::symlink(&outside, root.join("absolute")).unwrap();
        std::os::unix::fs::symlink("../outside", root.join("relative")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret"), root.join("to-secret")).unwrap();
        std::os::unix::fs::symlink("..", root.join("up")).unwrap();

        for path in ["/absolute/secret", "/relative/secret", "/to-secret"] {
            assert!(matches!(storage.read(path), Err(StorageError::NotFound(_))), "{path} escaped");
            assert!(storage.write(path, b"pwned").is_err(), "{path} was written");
        }
        // `..` through a link stops at the virtual root, inside the real one.
        assert_eq!(storage.read("/up/up/notes.txt").unwrap(), b"inside");
        assert_eq!(fs::read_to_string(outside.join("secret")).unwrap(), "top secret");
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 1, "nothing was created outside");
        // The links themselves can be read and removed, without touching their targets.
        assert_eq!(storage.readlink("/relative").unwrap(), "../outside");
        storage.remove("/absolute", true).unwrap();
        assert!(outside.join("secret").exists());
    }

    #[test]
    fn a_read_only_host_directory_changes_nothing() {
        let (scratch, storage) = sandbox("readonly");
        let storage = storage.read_only();
        assert_eq!(storage.read("/notes.txt").unwrap(), b"inside");
        let refusals = [
            storage.write("/notes.txt", b"x"),
            storage.append("/new", b"x"),
            storage.mkdir("/d", true),
            storage.remove("/notes.txt", false),
            storage.rename("/notes.txt", "/n"),
            storage.symlink("/notes.txt", "/l"),
        ];
        for refusal in refusals {
            assert!(matches!(refusal, Err(StorageError::ReadOnly(_))));
        }
        assert_eq!(fs::read_dir(scratch.0.join("root")).unwrap().count(), 1);
        assert_eq!(fs::read_to_string(scratch.0.join("root/notes.txt")).unwrap(), "inside");
    }
}
