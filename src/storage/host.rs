//! A storage over a real folder of the host.
//!
//! Nothing can reach outside the root, by construction: the root is opened
//! once, and every path is resolved from that directory handle by the
//! kernel with `openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)`, or, on a
//! kernel without `openat2`, by a walk that opens one component at a time
//! relative to the directory handle reached so far (`O_NOFOLLOW`), reads
//! each symlink itself and never lets the kernel follow one. Either way a
//! symlink is read in the virtual namespace: an absolute target starts at
//! the root, and `..` stops there. Every operation then acts on the object
//! reached from the root handle (`*at` calls on the handle of its folder),
//! so a directory swapped for a symlink between two calls, by the host or by
//! another session, is never followed out.
//!
//! Only regular files and directories are opened: a FIFO, socket or device
//! in the folder is refused without blocking (`O_NONBLOCK`, then `fstat`).
//! Symlinks made through the storage must be relative and stay inside the
//! root (an absolute target, or one climbing above the root, is refused), so
//! that host programs following them later stay inside too.

use std::ffi::{CStr, CString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use libc::c_int;

use super::path::normalize;
use super::{DirEntry, FileKind, Metadata, OpenFile, Storage, StorageError};

/// A storage rooted at a folder of the host, optionally read-only.
#[derive(Debug, Clone)]
pub struct HostDir {
    /// The host folder, for Debug.
    #[allow(dead_code)]
    root: PathBuf,
    /// The root folder, opened once: every path is resolved from it.
    root_fd: Arc<OwnedFd>,
    /// The root's device and inode, to know when a walk up reaches it.
    root_id: (u64, u64),
    read_only: bool,
    /// false: always walk components in user space, even where `openat2`
    /// exists (the fallback's tests).
    use_openat2: bool,
}

/// Set once `openat2` answered ENOSYS: this kernel does not have it.
static OPENAT2_MISSING: AtomicBool = AtomicBool::new(false);

/// `struct open_how` of openat2(2).
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}
const RESOLVE_NO_MAGICLINKS: u64 = 0x02;
const RESOLVE_IN_ROOT: u64 = 0x10;

/// How many symlinks one path may pass through, as Linux allows.
const MAX_SYMLINK_HOPS: usize = 40;

fn last_error() -> io::Error {
    io::Error::last_os_error()
}

fn check(result: c_int) -> io::Result<c_int> {
    if result < 0 {
        Err(last_error())
    } else {
        Ok(result)
    }
}

fn owned(fd: c_int) -> io::Result<OwnedFd> {
    // SAFETY: a non-negative result of open is a new descriptor we own.
    check(fd).map(|fd| unsafe { OwnedFd::from_raw_fd(fd) })
}

fn c_name(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn openat(dir: RawFd, name: &CStr, flags: c_int, mode: libc::mode_t) -> io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated name; the result is checked.
    owned(unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_CLOEXEC, mode as libc::c_uint) })
}

fn fstat(fd: RawFd) -> io::Result<libc::stat> {
    // SAFETY: an all-zero stat is a valid value; fstat fills it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: stat is a writable local; the result is checked.
    check(unsafe { libc::fstat(fd, &mut stat) })?;
    Ok(stat)
}

fn lstat_at(dir: RawFd, name: &CStr) -> io::Result<libc::stat> {
    // SAFETY: as fstat, with a NUL-terminated name.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated name and a writable local stat; the result is checked.
    check(unsafe { libc::fstatat(dir, name.as_ptr(), &mut stat, libc::AT_SYMLINK_NOFOLLOW) })?;
    Ok(stat)
}

fn readlink_at(dir: RawFd, name: &CStr) -> io::Result<Vec<u8>> {
    let mut buffer = vec![0u8; 256];
    loop {
        // SAFETY: the buffer is writable for its length.
        let length = unsafe { libc::readlinkat(dir, name.as_ptr(), buffer.as_mut_ptr().cast(), buffer.len()) };
        if length < 0 {
            return Err(last_error());
        }
        let length = length as usize;
        if length < buffer.len() {
            buffer.truncate(length);
            return Ok(buffer);
        }
        buffer.resize(buffer.len() * 2, 0);
    }
}

fn unlink_at(dir: RawFd, name: &CStr, flags: c_int) -> io::Result<()> {
    // SAFETY: a NUL-terminated name; the result is checked.
    check(unsafe { libc::unlinkat(dir, name.as_ptr(), flags) }).map(drop)
}

fn is_kind(stat: &libc::stat, kind: libc::mode_t) -> bool {
    stat.st_mode & libc::S_IFMT == kind
}

/// The entries of an open directory (without `.` and `..`), each with its
/// `d_type`.
fn entries(directory: RawFd) -> io::Result<Vec<(CString, u8)>> {
    // fdopendir takes the descriptor it is given: give it a duplicate.
    // SAFETY: plain descriptor calls, results checked; the DIR is closed once.
    let duplicate = check(unsafe { libc::fcntl(directory, libc::F_DUPFD_CLOEXEC, 0) })?;
    // SAFETY: duplicate is a descriptor of ours, which the stream now owns.
    let stream = unsafe { libc::fdopendir(duplicate) };
    if stream.is_null() {
        let error = last_error();
        // SAFETY: fdopendir failed, so the duplicate is still ours, closed once.
        unsafe { libc::close(duplicate) };
        return Err(error);
    }
    let mut listed = Vec::new();
    let result = loop {
        // SAFETY: errno is this thread's; readdir reports an error only through it.
        unsafe { *libc::__errno_location() = 0 };
        // SAFETY: stream is open (closed only after the loop).
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            // SAFETY: reading this thread's errno.
            let errno = unsafe { *libc::__errno_location() };
            break if errno == 0 { Ok(()) } else { Err(io::Error::from_raw_os_error(errno)) };
        }
        // SAFETY: entry is not NULL and valid until the next readdir; d_name is NUL-terminated.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
        if name.to_bytes() != b"." && name.to_bytes() != b".." {
            // SAFETY: as above: entry is valid until the next readdir.
            listed.push((name.to_owned(), unsafe { (*entry).d_type }));
        }
    };
    // SAFETY: stream is open and closed once, here.
    unsafe { libc::closedir(stream) };
    result.map(|()| listed)
}

/// Removes `name` in `directory` and, if it is a directory, everything in
/// it, acting only through descriptors: a directory swapped for a symlink
/// meanwhile is unlinked as the symlink, never followed.
fn remove_tree(directory: RawFd, name: &CStr) -> io::Result<()> {
    let fd = match openat(directory, name, libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW, 0) {
        Ok(fd) => fd,
        Err(error) if matches!(error.raw_os_error(), Some(libc::ENOTDIR | libc::ELOOP)) => {
            return unlink_at(directory, name, 0)
        }
        Err(error) => return Err(error),
    };
    for (child, kind) in entries(fd.as_raw_fd())? {
        let removed = match kind {
            libc::DT_DIR | libc::DT_UNKNOWN => remove_tree(fd.as_raw_fd(), &child),
            _ => match unlink_at(fd.as_raw_fd(), &child, 0) {
                // Became a directory since it was listed.
                Err(error) if error.raw_os_error() == Some(libc::EISDIR) => remove_tree(fd.as_raw_fd(), &child),
                other => other,
            },
        };
        match removed {
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => {}
            other => other?,
        }
    }
    drop(fd);
    unlink_at(directory, name, libc::AT_REMOVEDIR)
}

/// Writes `data` as a new file of `folder` (with `mode`), then renames it
/// over `name`: the old file's data is never written, and a crash leaves
/// either it or the new file whole. The new file is removed on failure.
fn replace_by_rename(folder: &OwnedFd, name: &CStr, data: &[u8], mode: libc::mode_t) -> io::Result<()> {
    let temporary = c_name(format!(".aikido-write-{}", uuid::Uuid::new_v4().simple()).as_bytes())?;
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_NOCTTY;
    let fd = openat(folder.as_raw_fd(), &temporary, flags, 0o600)?;
    let written = (|| {
        // SAFETY: a descriptor we own.
        check(unsafe { libc::fchmod(fd.as_raw_fd(), mode) })?;
        File::from(fd).write_all(data)?;
        // SAFETY: NUL-terminated names in a folder we hold open; the result is checked.
        check(unsafe { libc::renameat(folder.as_raw_fd(), temporary.as_ptr(), folder.as_raw_fd(), name.as_ptr()) })
    })();
    if written.is_err() {
        // SAFETY: as above.
        unsafe { libc::unlinkat(folder.as_raw_fd(), temporary.as_ptr(), 0) };
    }
    written.map(|_| ())
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
        Some(libc::EXDEV) => StorageError::CrossDevice(path),
        _ => StorageError::Io { path, message: error.to_string() },
    }
}

/// The error for something in the folder that is neither a regular file
/// nor a directory (a FIFO, a socket, a device): never read or written.
fn not_regular(path: &str) -> StorageError {
    StorageError::Io {
        path: path.to_owned(),
        message: "Not a regular file (FIFOs, sockets and devices are refused)".into(),
    }
}

fn metadata_of(stat: &libc::stat) -> Metadata {
    let kind = match stat.st_mode & libc::S_IFMT {
        libc::S_IFLNK => FileKind::Symlink,
        libc::S_IFDIR => FileKind::Directory,
        _ => FileKind::File,
    };
    let modified = if stat.st_mtime >= 0 {
        UNIX_EPOCH + Duration::new(stat.st_mtime as u64, stat.st_mtime_nsec as u32)
    } else {
        UNIX_EPOCH - Duration::from_secs(stat.st_mtime.unsigned_abs())
    };
    Metadata {
        kind,
        size: if kind == FileKind::Directory { 0 } else { stat.st_size as u64 },
        mode: stat.st_mode & 0o7777,
        modified,
    }
}

/// The components of a virtual path or a symlink target, last first (so
/// that `pop` gives the next one).
fn components_reversed(path: &[u8]) -> Vec<Vec<u8>> {
    path.split(|&byte| byte == b'/').filter(|part| !part.is_empty()).rev().map(<[u8]>::to_vec).collect()
}

/// How an open resolves its last component.
#[derive(Clone, Copy)]
struct Open {
    flags: c_int,
    mode: libc::mode_t,
    follow_last: bool,
    /// Create missing directories on the way, the last one included (`mkdir -p`).
    make_dirs: bool,
}

impl Open {
    fn new(flags: c_int, follow_last: bool) -> Open {
        Open { flags, mode: 0, follow_last, make_dirs: false }
    }
}

impl HostDir {
    /// A storage over the folder at `root`, which must exist.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = std::fs::canonicalize(root)?;
        let name = c_name(root.as_os_str().as_bytes())?;
        let root_fd = openat(libc::AT_FDCWD, &name, libc::O_PATH | libc::O_DIRECTORY, 0).map_err(|error| {
            if error.raw_os_error() == Some(libc::ENOTDIR) {
                io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a folder", root.display()))
            } else {
                error
            }
        })?;
        let stat = fstat(root_fd.as_raw_fd())?;
        let root_id = (stat.st_dev as u64, stat.st_ino as u64);
        Ok(HostDir { root, root_fd: Arc::new(root_fd), root_id, read_only: false, use_openat2: true })
    }

    /// The same storage, refusing every change with [`StorageError::ReadOnly`].
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// The same storage, resolving paths by its own walk of one component
    /// at a time even where the kernel has `openat2` (what it does on
    /// kernels older than 5.6). For tests of that walk.
    #[doc(hidden)]
    pub fn without_openat2(mut self) -> Self {
        self.use_openat2 = false;
        self
    }

    fn root(&self) -> RawFd {
        self.root_fd.as_raw_fd()
    }

    fn writable(&self, path: &str) -> Result<(), StorageError> {
        if self.read_only {
            Err(StorageError::ReadOnly(path.to_owned()))
        } else {
            Ok(())
        }
    }

    /// Opens the object at the normalised virtual `path`, resolved from the
    /// root handle and never outside it.
    fn open(&self, path: &str, open: Open) -> io::Result<OwnedFd> {
        if self.use_openat2 && !open.make_dirs && !OPENAT2_MISSING.load(Ordering::Relaxed) {
            match self.openat2(path, open) {
                Err(error) if error.raw_os_error() == Some(libc::ENOSYS) => {
                    OPENAT2_MISSING.store(true, Ordering::Relaxed);
                }
                // Refused by a seccomp filter, or a rename raced the walk
                // too often: the user-space walk is as safe, only slower.
                Err(error) if matches!(error.raw_os_error(), Some(libc::EPERM | libc::EAGAIN | libc::EXDEV)) => {}
                result => return result,
            }
        }
        self.walk(path, open)
    }

    fn openat2(&self, path: &str, open: Open) -> io::Result<OwnedFd> {
        let relative = if path == "/" { c".".to_owned() } else { c_name(&path.as_bytes()[1..])? };
        let mut flags = open.flags | libc::O_CLOEXEC;
        if !open.follow_last {
            flags |= libc::O_NOFOLLOW;
        }
        let mode = if flags & libc::O_CREAT != 0 { u64::from(open.mode) } else { 0 };
        let how = OpenHow { flags: flags as u64, mode, resolve: RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
        let mut attempts = 0;
        loop {
            // SAFETY: a NUL-terminated path and an open_how of the size given.
            let fd = unsafe {
                libc::syscall(
                    libc::SYS_openat2,
                    self.root(),
                    relative.as_ptr(),
                    &how as *const OpenHow,
                    std::mem::size_of::<OpenHow>(),
                )
            };
            match owned(fd as c_int) {
                // The kernel asks to retry when a rename raced a `..`.
                Err(error) if error.raw_os_error() == Some(libc::EAGAIN) && attempts < 8 => attempts += 1,
                result => return result,
            }
        }
    }

    /// Resolves `path` one component at a time from the root handle, each
    /// opened with `O_NOFOLLOW` relative to the directory reached so far;
    /// symlinks are read here and their targets walked in the virtual
    /// namespace (`..` pops a held directory and stops at the root).
    fn walk(&self, path: &str, open: Open) -> io::Result<OwnedFd> {
        let mut held: Vec<OwnedFd> = Vec::new();
        // Each pending component, and whether it ends a prefix of `path`
        // itself (a component of `path`, or the last one of the target of a
        // symlink that did), as mkdir -p reports them.
        let mut pending: Vec<(Vec<u8>, bool)> =
            components_reversed(path.as_bytes()).into_iter().map(|part| (part, true)).collect();
        let mut hops = 0;
        let at = |held: &Vec<OwnedFd>| held.last().map_or(self.root(), AsRawFd::as_raw_fd);
        loop {
            let Some((part, ends_prefix)) = pending.pop() else {
                // The path ends at a directory already held (or the root).
                return openat(at(&held), c".", open.flags & !(libc::O_CREAT | libc::O_NOFOLLOW), 0);
            };
            match part.as_slice() {
                b"." => continue,
                b".." => {
                    held.pop();
                    continue;
                }
                _ => {}
            }
            let name = c_name(&part)?;
            let directory = at(&held);
            let last = pending.is_empty();
            let opened = if last {
                openat(directory, &name, open.flags | libc::O_NOFOLLOW, open.mode)
            } else {
                openat(directory, &name, libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW, 0)
            };
            let error = match opened {
                Ok(fd) if last => {
                    // O_PATH | O_NOFOLLOW opens a symlink itself.
                    if open.follow_last
                        && open.flags & libc::O_PATH != 0
                        && is_kind(&fstat(fd.as_raw_fd())?, libc::S_IFLNK)
                    {
                        io::Error::from_raw_os_error(libc::ELOOP)
                    } else {
                        return Ok(fd);
                    }
                }
                Ok(fd) => {
                    held.push(fd);
                    continue;
                }
                Err(error) => error,
            };
            match error.raw_os_error() {
                // Folders are made where `path` names them, not on the way
                // through a symlink's target.
                Some(libc::ENOENT) if open.make_dirs && ends_prefix => {
                    // SAFETY: a NUL-terminated name; the result is checked.
                    let made = check(unsafe { libc::mkdirat(directory, name.as_ptr(), 0o777) });
                    match made {
                        Ok(_) => {}
                        Err(error) if error.raw_os_error() == Some(libc::EEXIST) => {}
                        Err(error) => return Err(error),
                    }
                    pending.push((part, ends_prefix));
                    continue;
                }
                Some(libc::ELOOP | libc::ENOTDIR | libc::EEXIST) if !last || open.follow_last => {
                    let stat = match lstat_at(directory, &name) {
                        Ok(stat) => stat,
                        Err(_) => return Err(error),
                    };
                    if !is_kind(&stat, libc::S_IFLNK) {
                        // For mkdir -p, as a shell says it: something that
                        // is not a folder stands where one would be made.
                        let errno = match (open.make_dirs, last, ends_prefix) {
                            (true, true, _) | (true, false, true) => libc::EEXIST,
                            (_, true, _) => return Err(error),
                            _ => libc::ENOTDIR,
                        };
                        return Err(io::Error::from_raw_os_error(errno));
                    }
                    hops += 1;
                    if hops > MAX_SYMLINK_HOPS {
                        return Err(io::Error::from_raw_os_error(libc::ELOOP));
                    }
                    let target = readlink_at(directory, &name)?;
                    if target.first() == Some(&b'/') {
                        held.clear();
                    }
                    let parts = components_reversed(&target).into_iter().enumerate();
                    pending.extend(parts.map(|(index, part)| (part, index == 0 && ends_prefix)));
                }
                _ => return Err(error),
            }
        }
    }

    /// The folder holding the normalised `path` (opened from the root,
    /// symlinks followed) and the last component's name; `None` for `/`.
    fn parent(&self, path: &str) -> io::Result<Option<(OwnedFd, CString)>> {
        let Some(cut) = path.rfind('/').filter(|_| path != "/") else { return Ok(None) };
        let folder = if cut == 0 { "/" } else { &path[..cut] };
        let fd = self.open(folder, Open::new(libc::O_PATH | libc::O_DIRECTORY, true))?;
        Ok(Some((fd, c_name(&path.as_bytes()[cut + 1..])?)))
    }

    /// The folder and name of `path`, with errors about `path`; `/` is
    /// `InvalidArgument`.
    fn parent_of(&self, path: &str) -> Result<(OwnedFd, CString), StorageError> {
        match self.parent(path) {
            Ok(Some(found)) => Ok(found),
            Ok(None) => Err(StorageError::InvalidArgument(path.to_owned())),
            Err(error) => Err(host_error(path, error)),
        }
    }

    /// Writes or appends. A file with more than one hard link is refused:
    /// a link placed in the folder by someone else may share its data with
    /// a file outside it. A write replacing a file (not through a symlink)
    /// goes to a new file of the same folder, renamed over the old one, so
    /// a crash mid-write leaves the old contents, never half of the new.
    fn put(&self, path: &str, data: &[u8], append: bool) -> Result<(), StorageError> {
        let path = normalize(path);
        self.writable(&path)?;
        let existing = match self.open(&path, Open::new(libc::O_PATH, true)) {
            Ok(fd) => Some(fstat(fd.as_raw_fd()).map_err(|error| host_error(&path, error))?),
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => None,
            Err(error) => return Err(host_error(&path, error)),
        };
        if let Some(stat) = &existing {
            if is_kind(stat, libc::S_IFDIR) {
                return Err(StorageError::IsADirectory(path));
            }
            if !is_kind(stat, libc::S_IFREG) {
                return Err(not_regular(&path));
            }
            if stat.st_nlink > 1 {
                return Err(StorageError::Io {
                    path,
                    message: format!(
                        "refused: the file has {} hard links, and writing it could change a file outside the folder",
                        stat.st_nlink
                    ),
                });
            }
            if !append {
                let (folder, name) = self.parent_of(&path)?;
                // SAFETY: an all-zero stat is valid; fstatat fills it; the result is checked.
                let mut own: libc::stat = unsafe { std::mem::zeroed() };
                // SAFETY: folder is an open descriptor, name a NUL-terminated
                // name in it, own a writable stat; the result is checked.
                let lstat = check(unsafe {
                    libc::fstatat(folder.as_raw_fd(), name.as_ptr(), &mut own, libc::AT_SYMLINK_NOFOLLOW)
                });
                if lstat.is_ok() && is_kind(&own, libc::S_IFREG) {
                    return replace_by_rename(&folder, &name, data, stat.st_mode & 0o7777)
                        .map_err(|error| host_error(&path, error));
                }
            }
        }
        let mut flags = libc::O_WRONLY | libc::O_CREAT | libc::O_NONBLOCK | libc::O_NOCTTY;
        if append {
            flags |= libc::O_APPEND;
        }
        let fd = self
            .open(&path, Open { flags, mode: 0o666, follow_last: true, make_dirs: false })
            .map_err(|error| host_error(&path, error))?;
        let stat = fstat(fd.as_raw_fd()).map_err(|error| host_error(&path, error))?;
        if !is_kind(&stat, libc::S_IFREG) {
            return Err(not_regular(&path));
        }
        if stat.st_nlink > 1 {
            return Err(StorageError::Io { path, message: "refused: the file has more than one hard link".into() });
        }
        // Truncated only now that it is known to be a regular file.
        if !append {
            // SAFETY: a descriptor we own.
            check(unsafe { libc::ftruncate(fd.as_raw_fd(), 0) }).map_err(|error| host_error(&path, error))?;
        }
        File::from(fd).write_all(data).map_err(|error| host_error(&path, error))
    }

    /// Whether the directory `fd` lies at least `levels` folders below the root.
    fn depth_at_least(&self, fd: &OwnedFd, levels: usize) -> io::Result<bool> {
        let mut current: Option<OwnedFd> = None;
        for _ in 0..levels {
            let at = current.as_ref().unwrap_or(fd).as_raw_fd();
            let stat = fstat(at)?;
            if (stat.st_dev as u64, stat.st_ino as u64) == self.root_id {
                return Ok(false);
            }
            current = Some(openat(at, c"..", libc::O_PATH | libc::O_DIRECTORY, 0)?);
        }
        Ok(true)
    }
}

impl HostDir {
    /// Opens a regular file to read (`read`, `read_range`): resolved under
    /// the root as every access is, refused when it is a directory or not a
    /// regular file. `path` is normalised.
    fn open_regular(&self, path: &str) -> Result<(File, libc::stat), StorageError> {
        let fd = self
            .open(path, Open::new(libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY, true))
            .map_err(|error| host_error(path, error))?;
        let stat = fstat(fd.as_raw_fd()).map_err(|error| host_error(path, error))?;
        if is_kind(&stat, libc::S_IFDIR) {
            return Err(StorageError::IsADirectory(path.to_string()));
        }
        if !is_kind(&stat, libc::S_IFREG) {
            return Err(not_regular(path));
        }
        Ok((File::from(fd), stat))
    }
}

/// What tells one version of a host file's content from another: a file
/// replaced by a rename or removed keeps its descriptor's inode (whose
/// change time moves, its content not), and a write in place changes its
/// size or its modification time.
#[derive(Debug, PartialEq, Eq)]
struct Version {
    size: i64,
    modified: (i64, i64),
}

impl Version {
    fn of(stat: &libc::stat) -> Version {
        Version { size: stat.st_size, modified: (stat.st_mtime, stat.st_mtime_nsec) }
    }
}

/// A host file opened once ([`Storage::open_read`]). Reads go through the
/// descriptor with pread(2), so a file replaced or removed by path meanwhile
/// still reads as the version opened. A file written in place (by another
/// process of the host) is one whose content may mix: each read checks,
/// after reading, that its size and times are those it was opened with, and
/// fails with `file changed while being read` when they are not.
struct HostFile {
    file: File,
    version: Version,
    path: String,
}

impl OpenFile for HostFile {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        use std::os::unix::fs::FileExt;
        let size = u64::try_from(self.version.size).unwrap_or(0);
        let want = usize::try_from(size.saturating_sub(offset)).unwrap_or(usize::MAX).min(len);
        let mut data = vec![0u8; want];
        let mut filled = 0;
        while filled < want {
            match self.file.read_at(&mut data[filled..], offset + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(host_error(&self.path, error)),
            }
        }
        data.truncate(filled);
        let now = fstat(self.file.as_raw_fd()).map_err(|error| host_error(&self.path, error))?;
        if Version::of(&now) != self.version {
            return Err(StorageError::Io {
                path: self.path.clone(),
                message: "file changed while being read".to_owned(),
            });
        }
        Ok(data)
    }
    fn size(&self) -> u64 {
        u64::try_from(self.version.size).unwrap_or(0)
    }
}

impl Storage for HostDir {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let path = normalize(path);
        let (mut file, stat) = self.open_regular(&path)?;
        let mut data = Vec::with_capacity((stat.st_size.max(0) as usize).min(1 << 26));
        file.read_to_end(&mut data).map_err(|error| host_error(&path, error))?;
        Ok(data)
    }

    /// Opens the file as `read` does (the same resolution under the root,
    /// the same checks) and reads the piece with pread(2).
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        use std::os::unix::fs::FileExt;
        let path = normalize(path);
        let (file, stat) = self.open_regular(&path)?;
        let size = u64::try_from(stat.st_size).unwrap_or(0);
        let want = usize::try_from(size.saturating_sub(offset)).unwrap_or(usize::MAX).min(len);
        let mut data = vec![0u8; want];
        let mut filled = 0;
        while filled < want {
            match file.read_at(&mut data[filled..], offset + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(host_error(&path, error)),
            }
        }
        data.truncate(filled);
        Ok(data)
    }

    /// One descriptor, opened as `read` opens it (the same resolution under
    /// the root, the same checks); see [`HostFile`].
    fn open_read(&self, path: &str) -> Result<Arc<dyn OpenFile>, StorageError> {
        let path = normalize(path);
        let (file, stat) = self.open_regular(&path)?;
        Ok(Arc::new(HostFile { file, version: Version::of(&stat), path }))
    }

    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, false)
    }

    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.put(path, data, true)
    }

    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let path = normalize(path);
        let fd = self.open(&path, Open::new(libc::O_PATH, true)).map_err(|error| host_error(&path, error))?;
        Ok(metadata_of(&fstat(fd.as_raw_fd()).map_err(|error| host_error(&path, error))?))
    }

    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let path = normalize(path);
        let fd = self.open(&path, Open::new(libc::O_PATH, false)).map_err(|error| host_error(&path, error))?;
        Ok(metadata_of(&fstat(fd.as_raw_fd()).map_err(|error| host_error(&path, error))?))
    }

    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let path = normalize(path);
        let fd = self
            .open(&path, Open::new(libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NONBLOCK, true))
            .map_err(|error| host_error(&path, error))?;
        let mut listed = Vec::new();
        for (name, kind) in entries(fd.as_raw_fd()).map_err(|error| host_error(&path, error))? {
            let kind = match kind {
                libc::DT_DIR => FileKind::Directory,
                libc::DT_LNK => FileKind::Symlink,
                libc::DT_UNKNOWN => match lstat_at(fd.as_raw_fd(), &name) {
                    Ok(stat) => metadata_of(&stat).kind,
                    // Gone since it was listed.
                    Err(_) => continue,
                },
                _ => FileKind::File,
            };
            // Names that are not UTF-8 cannot be virtual paths; they are
            // shown, lossily, but cannot be opened.
            listed.push(DirEntry { name: String::from_utf8_lossy(name.to_bytes()).into_owned(), kind });
        }
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(listed)
    }

    /// One open of the directory, then one `fstatat(…, AT_SYMLINK_NOFOLLOW)`
    /// per entry from its handle: a name from the listing is one component,
    /// never followed, so nothing resolves outside the root.
    fn list_metadata(&self, path: &str) -> Result<Vec<(DirEntry, Metadata)>, StorageError> {
        let path = normalize(path);
        let fd = self
            .open(&path, Open::new(libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NONBLOCK, true))
            .map_err(|error| host_error(&path, error))?;
        let mut listed = Vec::new();
        for (name, _) in entries(fd.as_raw_fd()).map_err(|error| host_error(&path, error))? {
            // A name that is not UTF-8 cannot be a virtual path: `lstat`
            // could not open it, so it is left out as the default leaves it.
            let Ok(text) = std::str::from_utf8(name.to_bytes()) else { continue };
            let Ok(stat) = lstat_at(fd.as_raw_fd(), &name) else { continue };
            let metadata = metadata_of(&stat);
            listed.push((DirEntry { name: text.to_owned(), kind: metadata.kind }, metadata));
        }
        listed.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        Ok(listed)
    }

    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let path = normalize(path);
        self.writable(&path)?;
        if parents {
            let open = Open { flags: libc::O_PATH | libc::O_DIRECTORY, mode: 0, follow_last: true, make_dirs: true };
            return match self.open(&path, open) {
                Ok(_) => Ok(()),
                Err(error) => Err(host_error(&path, error)),
            };
        }
        if path == "/" {
            return Err(StorageError::AlreadyExists(path));
        }
        let (folder, name) = self.parent_of(&path)?;
        // SAFETY: a NUL-terminated name; the result is checked.
        check(unsafe { libc::mkdirat(folder.as_raw_fd(), name.as_ptr(), 0o777) })
            .map(drop)
            .map_err(|error| host_error(&path, error))
    }

    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        let path = normalize(path);
        self.writable(&path)?;
        let (folder, name) = self.parent_of(&path)?;
        let folder = folder.as_raw_fd();
        let stat = lstat_at(folder, &name).map_err(|error| host_error(&path, error))?;
        let removed = if !is_kind(&stat, libc::S_IFDIR) {
            unlink_at(folder, &name, 0)
        } else if recursive {
            remove_tree(folder, &name)
        } else {
            unlink_at(folder, &name, libc::AT_REMOVEDIR)
        };
        removed.map_err(|error| host_error(&path, error))
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let (from, to) = (normalize(from), normalize(to));
        self.writable(&from)?;
        let (source_folder, source) = self.parent_of(&from)?;
        let (destination_folder, destination) = self.parent_of(&to)?;
        // SAFETY: descriptors we hold and NUL-terminated names.
        let renamed = check(unsafe {
            libc::renameat(
                source_folder.as_raw_fd(),
                source.as_ptr(),
                destination_folder.as_raw_fd(),
                destination.as_ptr(),
            )
        });
        renamed.map(drop).map_err(|error| {
            let at = if error.raw_os_error() == Some(libc::ENOENT) { &from } else { &to };
            host_error(at, error)
        })
    }

    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        let link = normalize(link);
        self.writable(&link)?;
        let escapes = || StorageError::Io {
            path: link.clone(),
            message: format!(
                "Operation not permitted: a symlink in a host folder must be relative and stay inside it ({target})"
            ),
        };
        if target.starts_with('/') {
            return Err(escapes());
        }
        // Leading `..` only: `..` after a name would climb from wherever
        // that name leads on the host, not from where it stands.
        let mut climbs = 0;
        let mut named = false;
        for part in target.split('/') {
            match part {
                "" | "." => {}
                ".." if named => return Err(escapes()),
                ".." => climbs += 1,
                _ => named = true,
            }
        }
        let (folder, name) = self.parent_of(&link)?;
        if !self.depth_at_least(&folder, climbs).map_err(|error| host_error(&link, error))? {
            return Err(escapes());
        }
        let target_c = c_name(target.as_bytes()).map_err(|error| host_error(&link, error))?;
        // SAFETY: NUL-terminated strings and a descriptor we hold.
        check(unsafe { libc::symlinkat(target_c.as_ptr(), folder.as_raw_fd(), name.as_ptr()) })
            .map(drop)
            .map_err(|error| host_error(&link, error))
    }

    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        let path = normalize(path);
        let (folder, name) = self.parent_of(&path)?;
        let target = readlink_at(folder.as_raw_fd(), &name).map_err(|error| host_error(&path, error))?;
        String::from_utf8(target)
            .map_err(|_| StorageError::Io { path, message: "the symlink's target is not UTF-8".to_owned() })
    }

    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let path = normalize(path);
        self.writable(&path)?;
        // The object is reached from the root handle (symlinks followed
        // inside the root only) and pinned by an O_PATH descriptor; chmod
        // then acts on that very object through its /proc/self/fd link, so
        // a swap between the lookup and the change cannot redirect it.
        let fd = self.open(&path, Open::new(libc::O_PATH, true)).map_err(|error| host_error(&path, error))?;
        let link =
            c_name(format!("/proc/self/fd/{}", fd.as_raw_fd()).as_bytes()).map_err(|error| host_error(&path, error))?;
        // SAFETY: link is a NUL-terminated path that lives across the call.
        if unsafe { libc::chmod(link.as_ptr(), (mode & 0o7777) as libc::mode_t) } != 0 {
            return Err(host_error(&path, io::Error::last_os_error()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

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

    /// Both resolvers: the kernel's openat2 and the user-space walk.
    fn both(storage: HostDir) -> [HostDir; 2] {
        [storage.clone(), storage.without_openat2()]
    }

    #[test]
    fn files_and_directories_behave_as_in_memory() {
        let (scratch, storage) = sandbox("basics");
        for storage in both(storage) {
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
            storage.remove("/moved.txt", false).unwrap();
        }
    }

    /// `list_metadata` is `list` and then `lstat` of each entry, in one
    /// pass from the directory's handle: a symlink out is reported as the
    /// symlink, never followed.
    #[test]
    fn list_metadata_is_list_then_lstat() {
        let (scratch, storage) = sandbox("list-metadata");
        std::os::unix::fs::symlink(scratch.0.join("outside/secret"), scratch.0.join("root/out")).unwrap();
        for storage in both(storage) {
            storage.mkdir("/d", false).unwrap();
            storage.write("/d/f", b"12345").unwrap();
            for folder in ["/", "/d"] {
                let expected: Vec<(DirEntry, Metadata)> = storage
                    .list(folder)
                    .unwrap()
                    .into_iter()
                    .map(|entry| {
                        let metadata = storage.lstat(&crate::storage::join(folder, &entry.name)).unwrap();
                        (entry, metadata)
                    })
                    .collect();
                assert_eq!(storage.list_metadata(folder).unwrap(), expected);
            }
            let listed = storage.list_metadata("/").unwrap();
            let (_, out) = listed.iter().find(|(entry, _)| entry.name == "out").unwrap();
            assert_eq!(out.kind, FileKind::Symlink);
            assert_ne!(out.size, "top secret".len() as u64);
            assert_eq!(storage.list_metadata("/notes.txt").unwrap_err().to_string(), "/notes.txt: Not a directory");
            storage.remove("/d", true).unwrap();
        }
    }

    #[test]
    fn errors_name_the_whole_path_asked_for() {
        let (_scratch, storage) = sandbox("messages");
        for storage in both(storage) {
            assert_eq!(
                storage.read("/no/such/file").unwrap_err().to_string(),
                "/no/such/file: No such file or directory"
            );
            assert_eq!(storage.write("/notes.txt/x", b"").unwrap_err().to_string(), "/notes.txt/x: Not a directory");
            assert_eq!(
                storage.list("/nope/deeper").unwrap_err().to_string(),
                "/nope/deeper: No such file or directory"
            );
        }
    }

    #[test]
    fn dot_dot_cannot_climb_out_of_the_root() {
        let (scratch, storage) = sandbox("dotdot");
        for storage in both(storage) {
            assert_eq!(
                storage.read("/../outside/secret").unwrap_err(),
                StorageError::NotFound("/outside/secret".to_owned())
            );
            storage.mkdir("../../outside", true).unwrap();
            storage.write("../../outside/secret", b"overwritten?").unwrap();
            assert_eq!(fs::read_to_string(scratch.0.join("outside/secret")).unwrap(), "top secret");
            assert!(scratch.0.join("root/outside/secret").exists(), "the write landed inside the root");
            storage.remove("/outside", true).unwrap();
        }
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
        for storage in both(storage) {
            for path in ["/absolute/secret", "/relative/secret", "/to-secret"] {
                assert!(matches!(storage.read(path), Err(StorageError::NotFound(_))), "{path} escaped");
                assert!(storage.write(path, b"pwned").is_err(), "{path} was written");
                assert!(storage.stat(path).is_err(), "{path} was stat'ed");
            }
            // `..` through a link stops at the virtual root, inside the real one.
            assert_eq!(storage.read("/up/up/notes.txt").unwrap(), b"inside");
            assert_eq!(storage.list("/up/up").unwrap().len(), 5);
            assert_eq!(fs::read_to_string(outside.join("secret")).unwrap(), "top secret");
            assert_eq!(fs::read_dir(&outside).unwrap().count(), 1, "nothing was created outside");
            assert_eq!(storage.readlink("/relative").unwrap(), "../outside");
        }
        // The links themselves can be removed, without touching their targets.
        let storage = HostDir::new(&root).unwrap();
        storage.remove("/absolute", true).unwrap();
        assert!(outside.join("secret").exists());
    }

    #[test]
    fn symlinks_made_through_the_storage_stay_inside() {
        let (scratch, storage) = sandbox("made-links");
        storage.mkdir("/a/b", true).unwrap();
        for (target, link) in
            [("/etc/passwd", "/abs"), ("..", "/up"), ("../../..", "/a/b/up3"), ("x/../../..", "/a/odd")]
        {
            let error = storage.symlink(target, link).unwrap_err();
            assert!(error.to_string().contains("must be relative and stay inside"), "{target}: {error}");
            assert!(fs::symlink_metadata(scratch.0.join("root").join(&link[1..])).is_err());
        }
        storage.symlink("../../notes.txt", "/a/b/ok").unwrap();
        storage.symlink("./../notes.txt", "/a/ok2").unwrap();
        assert_eq!(storage.read("/a/b/ok").unwrap(), b"inside");
        assert_eq!(storage.read("/a/ok2").unwrap(), b"inside");
        // And host programs following them stay inside too.
        assert_eq!(fs::read(scratch.0.join("root/a/b/ok")).unwrap(), b"inside");
    }

    #[test]
    fn fifos_are_refused_without_blocking() {
        let (scratch, storage) = sandbox("fifo");
        let fifo = CString::new(scratch.0.join("root/pipe").as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        for storage in both(storage) {
            let error = storage.read("/pipe").unwrap_err();
            assert!(error.to_string().contains("Not a regular file"), "{error}");
            assert!(storage.write("/pipe", b"x").is_err());
            assert!(storage.append("/pipe", b"x").is_err());
            assert_eq!(storage.stat("/pipe").unwrap().kind, FileKind::File);
        }
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
