//! The virtual file storage for C: build storages, compose them, use them,
//! and register the file tools over one.
//!
//! An `aikido_storage` is a shared handle: composing (read-only, overlay,
//! mount, policy) makes a new handle that shares the inner storage, so
//! either may be freed first.

use std::ffi::c_char;
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use super::collections::{self, aikido_changes, aikido_dir_entries};
use super::handle::{self, Boxed, Handle};
use super::registry::aikido_registry;
use super::status::aikido_status;
use super::{boundary, invalid, pair, required_str, slice, write_out};
use crate::error::Error;
use crate::storage::{
    register_file_tools, Access, DryRun, FileKind, HostDir, MemoryLimits, MemoryStorage, Metadata, Mounts, Overlay,
    PathPolicy, Policy, ReadOnly, Storage, StorageError,
};

/// A virtual file storage. Opaque and thread-safe; made by one of the
/// `aikido_storage_*_new` functions (or composed from others) and freed with
/// `aikido_storage_free`.
pub struct aikido_storage {
    _private: [u8; 0],
}

// SAFETY: aikido_storage is never constructed; its pointers are made by
// Held::into_raw (handle::into_raw of a Held).
unsafe impl Handle for aikido_storage {
    type Target = Held;
}
// SAFETY: as above; aikido_storage_free frees them.
unsafe impl Boxed for aikido_storage {}

/// A regular file.
pub const AIKIDO_FILE_KIND_FILE: i32 = 0;
/// A directory.
pub const AIKIDO_FILE_KIND_DIRECTORY: i32 = 1;
/// A symbolic link.
pub const AIKIDO_FILE_KIND_SYMLINK: i32 = 2;

/// Reading files, metadata and symlinks, in an `aikido_path_rule`.
pub const AIKIDO_ACCESS_READ: i32 = 0;
/// Creating, changing, renaming and removing, in an `aikido_path_rule`.
pub const AIKIDO_ACCESS_WRITE: i32 = 1;
/// Listing a directory, in an `aikido_path_rule`.
pub const AIKIDO_ACCESS_LIST: i32 = 2;

/// What `aikido_storage_stat` reports.
#[repr(C)]
pub struct aikido_file_stat {
    /// `AIKIDO_FILE_KIND_FILE`, `_DIRECTORY` or `_SYMLINK`.
    pub kind: i32,
    /// Bytes in a file; 0 for a directory.
    pub size: u64,
    /// Unix permission bits, e.g. 0644.
    pub mode: u32,
    /// Last change, in milliseconds since the Unix epoch.
    pub modified_unix_ms: i64,
}

/// One rule of a path policy: allow or deny `access` to the paths matching
/// `pattern`, gitignore-like: without a `/` it matches a name at any depth
/// (`*.env`), with one it is anchored at the root (`src/main.rs`); `*` within
/// a component, `**` across, `?`, `[a-z]`; a trailing `/` names a folder,
/// and a rule matching a folder covers everything in it.
#[repr(C)]
pub struct aikido_path_rule {
    /// `AIKIDO_ACCESS_READ`, `_WRITE` or `_LIST`.
    pub access: i32,
    /// true allows, false denies.
    pub allow: bool,
    /// NUL-terminated UTF-8 glob.
    pub pattern: *const c_char,
}

/// What a handle holds: any storage, or one whose kind adds operations.
pub(crate) enum Held {
    Plain(Arc<dyn Storage>),
    Overlay(Arc<Overlay<Arc<dyn Storage>>>),
    DryRun(Arc<DryRun<Arc<dyn Storage>>>),
    Mounts(Mounts),
}

impl Held {
    fn storage(&self) -> Arc<dyn Storage> {
        match self {
            Held::Plain(storage) => storage.clone(),
            Held::Overlay(overlay) => overlay.clone(),
            Held::DryRun(dry_run) => dry_run.clone(),
            Held::Mounts(mounts) => Arc::new(mounts.clone()),
        }
    }

    pub(super) fn into_raw(self) -> *mut aikido_storage {
        handle::into_raw(self)
    }
}

/// The storage behind a live handle, shared (for the shell's functions).
///
/// # Safety
/// `storage` is NULL or a live handle.
#[cfg(feature = "shell")]
pub(super) unsafe fn shared(storage: *const aikido_storage, what: &str) -> Result<Arc<dyn Storage>, Error> {
    // SAFETY: forwarded from the caller.
    unsafe { handle::borrow(storage, what) }.map(Held::storage)
}

/// A new storage from a live inner one, or NULL when `inner` is NULL.
///
/// # Safety
/// `inner` is NULL or a live handle.
unsafe fn compose(inner: *const aikido_storage, make: impl FnOnce(Arc<dyn Storage>) -> Held) -> *mut aikido_storage {
    // SAFETY: forwarded from the caller.
    match unsafe { handle::get(inner) } {
        Some(inner) => make(inner.storage()).into_raw(),
        None => std::ptr::null_mut(),
    }
}

/// A new, empty storage in memory. A limit of 0 means no limit; a write that
/// would pass a limit fails with `AIKIDO_ERR_STORAGE` and changes nothing.
#[no_mangle]
pub extern "C" fn aikido_storage_memory_new(max_total_bytes: u64, max_file_bytes: u64) -> *mut aikido_storage {
    boundary::value(|| {
        let limit = |bytes: u64| if bytes == 0 { u64::MAX } else { bytes };
        let limits = MemoryLimits {
            max_total_bytes: limit(max_total_bytes),
            max_file_bytes: limit(max_file_bytes),
            ..MemoryLimits::default()
        };
        Held::Plain(Arc::new(MemoryStorage::new(limits))).into_raw()
    })
}

/// A storage over the host folder `root`, which must exist. No path, `..` or
/// symlink can reach outside it, even while other processes swap folders
/// for symlinks: every path is resolved from a handle of the root, and
/// symlinks are read as paths inside the root. FIFOs, sockets and devices
/// are refused without blocking; symlinks made through it must be relative
/// and stay inside. With `read_only`, every change is refused.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_host_new(
    root: *const c_char,
    read_only: bool,
    storage_out: *mut *mut aikido_storage,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_host_new", error_out, || {
        // SAFETY: storage_out is NULL or writable, by the C contract.
        let out = unsafe { storage_out.as_mut() }.ok_or_else(|| invalid("storage_out is NULL"))?;
        *out = std::ptr::null_mut();
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let root = unsafe { required_str(root, "root") }?;
        let host =
            HostDir::new(root).map_err(|error| invalid(format!("the folder \"{root}\" cannot be used: {error}")))?;
        *out = Held::Plain(Arc::new(if read_only { host.read_only() } else { host })).into_raw();
        Ok(())
    })
}

/// A read-only view of `inner`. NULL when `inner` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_read_only(inner: *const aikido_storage) -> *mut aikido_storage {
    // SAFETY: the caller passes NULL or a live handle.
    boundary::value(|| unsafe { compose(inner, |inner| Held::Plain(Arc::new(ReadOnly(inner)))) })
}

/// A writable layer in memory over `lower`, which is untouched until
/// `aikido_storage_commit`. NULL when `lower` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_overlay_new(lower: *const aikido_storage) -> *mut aikido_storage {
    // SAFETY: the caller passes NULL or a live handle.
    boundary::value(|| unsafe { compose(lower, |lower| Held::Overlay(Arc::new(Overlay::new(lower)))) })
}

/// A dry run over `lower`: changes are recorded, never applied; read them
/// with `aikido_storage_diff`. NULL when `lower` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_dry_run_new(lower: *const aikido_storage) -> *mut aikido_storage {
    // SAFETY: the caller passes NULL or a live handle.
    boundary::value(|| unsafe { compose(lower, |lower| Held::DryRun(Arc::new(DryRun::new(lower)))) })
}

/// A new storage: `base` with `storage` mounted at `prefix` (the longest
/// mounted prefix covering a path wins; renames across mounts fail).
/// Symlinks resolve across mounts, so each access lands in the mount its
/// resolved path belongs to. NULL when an argument is NULL or `prefix` is
/// not UTF-8.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_mount(
    base: *const aikido_storage,
    prefix: *const c_char,
    storage: *const aikido_storage,
) -> *mut aikido_storage {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or live handles and a string.
        let mounted = (|| -> Result<*mut aikido_storage, Error> {
            // SAFETY: base is NULL or a live handle, by the C contract.
            let base = unsafe { handle::borrow(base, "base") }?;
            // SAFETY: prefix is NULL or a NUL-terminated string, by the C contract.
            let prefix = unsafe { required_str(prefix, "prefix") }?;
            // SAFETY: storage is NULL or a live handle, by the C contract.
            let storage = unsafe { handle::borrow(storage, "storage") }?.storage();
            let mounts = match base {
                Held::Mounts(mounts) => mounts.clone(),
                other => Mounts::new(other.storage()),
            };
            Ok(Held::Mounts(mounts.mount(prefix, storage)).into_raw())
        })();
        mounted.unwrap_or(std::ptr::null_mut())
    })
}

/// A storage that lets through only what the `rules_len` rules allow: for
/// each kind of access, a path must match no deny rule and, if there are
/// allow rules of that kind, one of them. Checked on every symlink passed,
/// too, and on the object the access reaches. A rename or removal that
/// would move or delete a protected path is refused. Refused accesses fail
/// with `AIKIDO_ERR_STORAGE` ("Permission denied").
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_policy_new(
    inner: *const aikido_storage,
    rules: *const aikido_path_rule,
    rules_len: usize,
    storage_out: *mut *mut aikido_storage,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_policy_new", error_out, || {
        // SAFETY: storage_out is NULL or writable, by the C contract.
        let out = unsafe { storage_out.as_mut() }.ok_or_else(|| invalid("storage_out is NULL"))?;
        *out = std::ptr::null_mut();
        // SAFETY: the caller passes a live handle and rules_len rules.
        let inner = unsafe { handle::borrow(inner, "inner") }?.storage();
        // SAFETY: rules is NULL or rules_len readable rules, by the C contract.
        let rules = unsafe { slice::slice(rules, rules_len, pair("rules", "rules_len")) }?;
        let mut policy = PathPolicy::new();
        for (index, rule) in rules.iter().enumerate() {
            // SAFETY: rule.pattern is NULL or a NUL-terminated string, by the C contract.
            let pattern = unsafe { required_str(rule.pattern, &format!("rules[{index}].pattern")) }?;
            let access = match rule.access {
                AIKIDO_ACCESS_READ => Access::Read,
                AIKIDO_ACCESS_WRITE => Access::Write,
                AIKIDO_ACCESS_LIST => Access::List,
                other => {
                    return Err(invalid(format!("rules[{index}].access is {other}, not an AIKIDO_ACCESS_* value")))
                }
            };
            policy = if rule.allow { policy.allow(access, pattern) } else { policy.deny(access, pattern) };
        }
        *out = Held::Plain(Arc::new(Policy::new(inner, policy))).into_raw();
        Ok(())
    })
}

/// Frees a storage handle. Storages composed from it keep what they share.
/// NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_free(storage: *mut aikido_storage) {
    // SAFETY: made by one of the constructors above, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(storage) })
}

/// Runs a storage operation on a live handle and a path.
///
/// # Safety
/// `storage` is NULL or a live handle; `path` NULL or a NUL-terminated string.
unsafe fn on_path<T>(
    storage: *const aikido_storage,
    path: *const c_char,
    operation: impl FnOnce(&dyn Storage, &str) -> Result<T, crate::storage::StorageError>,
) -> Result<T, Error> {
    // SAFETY: NULL or a live handle, by this function's contract.
    let storage = unsafe { handle::borrow(storage, "storage") }?.storage();
    // SAFETY: NULL or a NUL-terminated string, by this function's contract.
    let path = unsafe { required_str(path, "path") }?;
    Ok(operation(storage.as_ref(), path)?)
}

/// Reads a whole file (symlinks followed) into `*data_out`, `*len_out`
/// bytes, freed with `aikido_bytes_free`. Files may hold any bytes. Unlike
/// other outputs, `data_out` and `len_out` are required: the bytes and their
/// length come as a pair, and freeing needs both.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_read(
    storage: *const aikido_storage,
    path: *const c_char,
    data_out: *mut *mut u8,
    len_out: *mut usize,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_read", error_out, || {
        // SAFETY: data_out is NULL or writable, by the C contract.
        let data_out = unsafe { data_out.as_mut() }.ok_or_else(|| invalid("data_out is NULL"))?;
        // SAFETY: len_out is NULL or writable, by the C contract.
        let len_out = unsafe { len_out.as_mut() }.ok_or_else(|| invalid("len_out is NULL"))?;
        *data_out = std::ptr::null_mut();
        *len_out = 0;
        // SAFETY: the caller passes a live handle and a path.
        let data = unsafe { on_path(storage, path, |storage, path| storage.read(path)) }?.into_boxed_slice();
        *len_out = data.len();
        *data_out = Box::into_raw(data).cast::<u8>();
        Ok(())
    })
}

/// Frees bytes from `aikido_storage_read`, given their length. NULL does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_bytes_free(data: *mut u8, len: usize) {
    // SAFETY: made by aikido_storage_read with this length, freed once, by
    // the C contract.
    boundary::value(|| unsafe { slice::free_boxed_bytes(data, len, 0, pair("data", "len")) })
}

/// Runs `operation` on the storage, the path and the `len` bytes at `data`.
/// A length no buffer can have, or over the storage's file size limit, is
/// refused before a byte is read.
///
/// # Safety
/// `storage` is NULL or a live handle; `path` NULL or a NUL-terminated
/// string; `data` as [`slice::slice`] needs for `len` bytes.
unsafe fn with_bytes(
    storage: *const aikido_storage,
    path: *const c_char,
    data: *const u8,
    len: usize,
    operation: impl FnOnce(&dyn Storage, &str, &[u8]) -> Result<(), crate::storage::StorageError>,
) -> Result<(), Error> {
    let names = pair("data", "len");
    slice::check(data, len, names)?;
    // SAFETY: NULL or a live handle, by this function's contract.
    let storage = unsafe { handle::borrow(storage, "storage") }?.storage();
    // SAFETY: NULL or a NUL-terminated string, by this function's contract.
    let path = unsafe { required_str(path, "path") }?;
    if let Some(limit) = storage.file_size_limit(path).filter(|&limit| len as u64 > limit) {
        return Err(StorageError::TooLarge { path: path.to_owned(), limit }.into());
    }
    // SAFETY: data is as slice needs, by this function's contract.
    let data = unsafe { slice::slice(data, len, names) }?;
    Ok(operation(storage.as_ref(), path, data)?)
}

/// Creates or replaces the file at `path` with `len` bytes at `data`.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_write(
    storage: *const aikido_storage,
    path: *const c_char,
    data: *const u8,
    len: usize,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_write", error_out, || {
        // SAFETY: the caller passes a live handle, a path and len bytes.
        unsafe { with_bytes(storage, path, data, len, |storage, path, data| storage.write(path, data)) }
    })
}

/// Appends `len` bytes at `data` to the file at `path`, creating it.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_append(
    storage: *const aikido_storage,
    path: *const c_char,
    data: *const u8,
    len: usize,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_append", error_out, || {
        // SAFETY: the caller passes a live handle, a path and len bytes.
        unsafe { with_bytes(storage, path, data, len, |storage, path, data| storage.append(path, data)) }
    })
}

/// Creates a directory; with `parents`, missing parents too (and an existing
/// directory is fine).
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_mkdir(
    storage: *const aikido_storage,
    path: *const c_char,
    parents: bool,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_mkdir", error_out, || {
        // SAFETY: the caller passes a live handle and a path.
        unsafe { on_path(storage, path, |storage, path| storage.mkdir(path, parents)) }
    })
}

/// Removes a file, symlink or empty directory; with `recursive`, a
/// directory and everything in it.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_remove(
    storage: *const aikido_storage,
    path: *const c_char,
    recursive: bool,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_remove", error_out, || {
        // SAFETY: the caller passes a live handle and a path.
        unsafe { on_path(storage, path, |storage, path| storage.remove(path, recursive)) }
    })
}

/// Moves `from` to `to`, replacing a file there.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_rename(
    storage: *const aikido_storage,
    from: *const c_char,
    to: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_rename", error_out, || {
        // SAFETY: the caller passes a live handle and two paths.
        let to = unsafe { required_str(to, "to") }?;
        // SAFETY: storage is NULL or a live handle and from NULL or a NUL-terminated string, by the C contract.
        unsafe { on_path(storage, from, |storage, from| storage.rename(from, to)) }
    })
}

/// Creates a symlink at `link` pointing at `target`, kept as written.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_symlink(
    storage: *const aikido_storage,
    target: *const c_char,
    link: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_symlink", error_out, || {
        // SAFETY: the caller passes a live handle and two strings.
        let target = unsafe { required_str(target, "target") }?;
        // SAFETY: storage is NULL or a live handle and link NULL or a NUL-terminated string, by the C contract.
        unsafe { on_path(storage, link, |storage, link| storage.symlink(target, link)) }
    })
}

/// Writes the target of the symlink at `path` to `target_out`.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_readlink(
    storage: *const aikido_storage,
    path: *const c_char,
    target_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_readlink", error_out, || {
        // SAFETY: the caller passes a live handle, a path and NULL or a writable pointer.
        unsafe { super::clear_out(target_out) };
        // SAFETY: storage is NULL or a live handle and path NULL or a NUL-terminated string, by the C contract.
        let target = unsafe { on_path(storage, path, |storage, path| storage.readlink(path)) }?;
        // SAFETY: target_out is NULL or writable, by the C contract.
        unsafe { write_out(target_out, target) };
        Ok(())
    })
}

/// Fills `*stat_out` for `path`, symlinks followed. `stat_out` is required.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_stat(
    storage: *const aikido_storage,
    path: *const c_char,
    stat_out: *mut aikido_file_stat,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_stat", error_out, || {
        // SAFETY: the caller passes a live handle, a path and `stat_out`.
        unsafe { fill_stat(storage, path, stat_out, |storage, path| storage.stat(path)) }
    })
}

/// Fills `*stat_out` for `path` itself: a final symlink is reported as
/// `AIKIDO_FILE_KIND_SYMLINK`, not followed. `stat_out` is required.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_lstat(
    storage: *const aikido_storage,
    path: *const c_char,
    stat_out: *mut aikido_file_stat,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_lstat", error_out, || {
        // SAFETY: the caller passes a live handle, a path and `stat_out`.
        unsafe { fill_stat(storage, path, stat_out, |storage, path| storage.lstat(path)) }
    })
}

/// `stat` or `lstat` into `*stat_out`.
///
/// # Safety
/// As [`on_path`]; `stat_out` is NULL or points to writable memory.
unsafe fn fill_stat(
    storage: *const aikido_storage,
    path: *const c_char,
    stat_out: *mut aikido_file_stat,
    look: impl FnOnce(&dyn Storage, &str) -> Result<Metadata, crate::storage::StorageError>,
) -> Result<(), Error> {
    // SAFETY: stat_out is NULL or writable, by the C contract.
    let stat_out = unsafe { stat_out.as_mut() }.ok_or_else(|| invalid("stat_out is NULL"))?;
    // SAFETY: forwarded from the caller.
    let metadata = unsafe { on_path(storage, path, look) }?;
    *stat_out = aikido_file_stat {
        kind: kind_code(metadata.kind),
        size: metadata.size,
        mode: metadata.mode,
        modified_unix_ms: metadata.modified.duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64),
    };
    Ok(())
}

pub(crate) fn kind_code(kind: FileKind) -> i32 {
    match kind {
        FileKind::File => AIKIDO_FILE_KIND_FILE,
        FileKind::Directory => AIKIDO_FILE_KIND_DIRECTORY,
        FileKind::Symlink => AIKIDO_FILE_KIND_SYMLINK,
    }
}

fn kind_name(kind: FileKind) -> &'static str {
    match kind {
        FileKind::File => "file",
        FileKind::Directory => "directory",
        FileKind::Symlink => "symlink",
    }
}

/// Writes the entries of the directory at `path` to `json_out`, sorted by
/// name, each object's keys in alphabetical order. After `mkdir /src` and
/// writing `/a.txt` in an empty storage, listing `/` gives
/// `[{"kind":"file","name":"a.txt"},{"kind":"directory","name":"src"}]`
/// (kind is "file", "directory" or "symlink"; tests/doc_examples.rs checks
/// this example against a real run).
///
/// Deprecated: use `aikido_storage_entries`, which gives the same entries
/// as structs (this JSON form stays, unchanged, for one minor version).
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_list(
    storage: *const aikido_storage,
    path: *const c_char,
    json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_list", error_out, || {
        // SAFETY: the caller passes a live handle, a path and NULL or a writable pointer.
        unsafe { super::clear_out(json_out) };
        // SAFETY: storage is NULL or a live handle and path NULL or a NUL-terminated string, by the C contract.
        let entries = unsafe { on_path(storage, path, |storage, path| storage.list(path)) }?;
        let entries: Vec<serde_json::Value> = entries
            .into_iter()
            .map(|entry| serde_json::json!({"name": entry.name, "kind": kind_name(entry.kind)}))
            .collect();
        // SAFETY: json_out is NULL or writable, by the C contract.
        unsafe { write_out(json_out, serde_json::Value::Array(entries).to_string()) };
        Ok(())
    })
}

/// Writes what an overlay or a dry run changed, compared with its lower
/// storage, to `json_out`, sorted by path, each object's keys in
/// alphabetical order. An overlay over a storage holding `/b.txt`, after
/// writing `/a.txt` and rewriting `/b.txt`, gives
/// `[{"change":"added","path":"/a.txt"},{"change":"modified","path":"/b.txt"}]`
/// (change is "added", "modified" or "deleted"; tests/doc_examples.rs checks
/// this example against a real run). `AIKIDO_ERR_INVALID_INPUT` for any
/// other storage.
///
/// Deprecated: use `aikido_storage_changes`, which gives the same changes
/// as structs (this JSON form stays, unchanged, for one minor version).
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_diff(
    storage: *const aikido_storage,
    json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_diff", error_out, || {
        // SAFETY: the caller passes a live handle and NULL or a writable pointer.
        unsafe { super::clear_out(json_out) };
        // SAFETY: storage is NULL or a live handle, by the C contract.
        let changes = unsafe { changes_of(storage) }?;
        let changes: Vec<serde_json::Value> = changes
            .into_iter()
            .map(|change| {
                let kind = match change.kind {
                    crate::storage::ChangeKind::Added => "added",
                    crate::storage::ChangeKind::Modified => "modified",
                    crate::storage::ChangeKind::Deleted => "deleted",
                };
                serde_json::json!({"path": change.path, "change": kind})
            })
            .collect();
        // SAFETY: json_out is NULL or writable, by the C contract.
        unsafe { write_out(json_out, serde_json::Value::Array(changes).to_string()) };
        Ok(())
    })
}

/// Writes to `*entries_out` (required) the entries of the directory at
/// `path`, sorted by name: an array to read with `aikido_dir_entries_len`
/// and `aikido_dir_entries_get` and free with `aikido_dir_entries_free`.
/// The same entries as `aikido_storage_list`, each kind an
/// `AIKIDO_FILE_KIND_*` value as `aikido_storage_stat` gives. On failure
/// `*entries_out` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_entries(
    storage: *const aikido_storage,
    path: *const c_char,
    entries_out: *mut *mut aikido_dir_entries,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_entries", error_out, || {
        // SAFETY: entries_out is NULL or writable; storage NULL or a live
        // handle and path NULL or a NUL-terminated string, by the C contract.
        unsafe {
            collections::hand_out(entries_out, || {
                Ok(collections::dir_entries(on_path(storage, path, |storage, path| storage.list(path))?))
            })
        }
    })
}

/// Writes to `*changes_out` (required) what an overlay or a dry run
/// changed, compared with its lower storage, sorted by path: an array to
/// read with `aikido_changes_len` and `aikido_changes_get` and free with
/// `aikido_changes_free`. The same changes as `aikido_storage_diff`, each an
/// `AIKIDO_CHANGE_*` value. `AIKIDO_ERR_INVALID_INPUT` for any other
/// storage. On failure `*changes_out` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_changes(
    storage: *const aikido_storage,
    changes_out: *mut *mut aikido_changes,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_storage_changes", error_out, || {
        // SAFETY: changes_out is NULL or writable and storage NULL or a live
        // handle, by the C contract.
        unsafe { collections::hand_out(changes_out, || Ok(collections::changes(changes_of(storage)?))) }
    })
}

/// The changes of an overlay or a dry run.
///
/// # Safety
/// `storage` is NULL or a live handle.
unsafe fn changes_of(storage: *const aikido_storage) -> Result<Vec<crate::storage::Change>, Error> {
    // SAFETY: forwarded from the caller.
    match unsafe { handle::borrow(storage, "storage") }? {
        Held::Overlay(overlay) => Ok(overlay.diff()?),
        Held::DryRun(dry_run) => Ok(dry_run.write_set()?),
        _ => Err(invalid("only an overlay or a dry run has a diff")),
    }
}

/// Applies an overlay's changes to its lower storage and empties it.
/// `AIKIDO_ERR_INVALID_INPUT` for any other storage (a dry run never commits).
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_commit(
    storage: *const aikido_storage,
    error_out: *mut *mut c_char,
) -> aikido_status {
    // SAFETY: storage is NULL or a live handle, by the C contract.
    boundary::status("aikido_storage_commit", error_out, || match unsafe { handle::borrow(storage, "storage") }? {
        Held::Overlay(overlay) => Ok(overlay.commit()?),
        _ => Err(invalid("only an overlay can commit")),
    })
}

/// Drops an overlay's changes. `AIKIDO_ERR_INVALID_INPUT` for any other storage.
#[no_mangle]
pub unsafe extern "C" fn aikido_storage_discard(
    storage: *const aikido_storage,
    error_out: *mut *mut c_char,
) -> aikido_status {
    // SAFETY: storage is NULL or a live handle, by the C contract.
    boundary::status("aikido_storage_discard", error_out, || match unsafe { handle::borrow(storage, "storage") }? {
        Held::Overlay(overlay) => {
            overlay.discard();
            Ok(())
        }
        _ => Err(invalid("only an overlay can discard")),
    })
}

/// Registers the file tools `read_file`, `write_file`, `list_directory`,
/// `edit_file` and `delete_path` on `registry`, acting on `storage` (which
/// the tools share: the handle may be freed afterwards).
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_register_file_tools(
    registry: *mut aikido_registry,
    storage: *const aikido_storage,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_register_file_tools", error_out, || {
        // SAFETY: the caller passes a live registry and a live handle.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: storage is NULL or a live handle, by the C contract.
        let storage = unsafe { handle::borrow(storage, "storage") }?.storage();
        register_file_tools(registry, storage)
    })
}
