//! Session snapshots for C: a shell's session as bytes and back, and a
//! fork of a live shell (`crate::shell::snapshot` holds the logic and the
//! format; this layer only converts and checks pointers).

use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use super::handle;
use super::shell::{aikido_shell, aikido_shell_limits, options, Session};
use super::status::aikido_status;
use super::storage::{self, aikido_storage, Held};
use super::{boundary, byte_slice, invalid};
use crate::shell::Shell;

/// Saves the shell's session (working directory, variables, functions,
/// options, traps, and the files of its storage when they live in memory:
/// a memory storage whole, an overlay's or dry run's changes; a host folder
/// is referred to, never copied) as bytes in the documented snapshot format
/// (docs/SHELL.md, "Snapshots") into `*data_out`, `*len_out` bytes, freed
/// with `aikido_bytes_free`. `data_out` and `len_out` are required. Waits
/// for a run in progress on the shell to end.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_snapshot(
    shell: *mut aikido_shell,
    data_out: *mut *mut u8,
    len_out: *mut usize,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_shell_snapshot", error_out, || {
        // SAFETY: data_out is NULL or writable, by the C contract.
        let data_out = unsafe { data_out.as_mut() }.ok_or_else(|| invalid("data_out is NULL"))?;
        // SAFETY: len_out is NULL or writable, by the C contract.
        let len_out = unsafe { len_out.as_mut() }.ok_or_else(|| invalid("len_out is NULL"))?;
        *data_out = std::ptr::null_mut();
        *len_out = 0;
        // SAFETY: the caller passes NULL or a live shell.
        let session = unsafe { handle::borrow(shell, "shell") }?;
        let bytes = session.lock().snapshot().map_err(|error| invalid(error.to_string()))?.into_boxed_slice();
        *len_out = bytes.len();
        *data_out = Box::into_raw(bytes).cast::<u8>();
        Ok(())
    })
}

/// A new shell from `len` bytes at `data` made by `aikido_shell_snapshot`,
/// into `*shell_out` (required), each run bounded by `limits` (NULL for the
/// defaults; the snapshot does not carry them). `storage` is where its files
/// go: NULL makes a new memory storage with the snapshotted one's limits
/// (for a snapshot of a shell over a memory storage; reach it with
/// `aikido_shell_storage`); else a live storage of the same kind as the one
/// snapshotted (a memory storage, or an overlay or dry run over the same
/// lower storage), whose content is replaced, or any storage when the
/// snapshot refers to its storage (a host folder). Bytes of a newer format
/// version, truncated, changed or hostile are `AIKIDO_ERR_INVALID_INPUT`
/// with a message saying which, and change nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_restore(
    data: *const u8,
    len: usize,
    storage: *const aikido_storage,
    limits: *const aikido_shell_limits,
    shell_out: *mut *mut aikido_shell,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_shell_restore", error_out, || {
        // SAFETY: shell_out is NULL or writable, by the C contract.
        let shell_out = unsafe { shell_out.as_mut() }.ok_or_else(|| invalid("shell_out is NULL"))?;
        *shell_out = std::ptr::null_mut();
        // SAFETY: data is NULL or readable for len bytes, by the C contract.
        let bytes = unsafe { byte_slice(data.cast::<c_char>(), len, super::slice::pair("data", "len")) }?;
        // SAFETY: limits is NULL or readable, by the C contract.
        let options = unsafe { options(limits) };
        let shell = if storage.is_null() {
            Shell::restore_in_memory(bytes, options.clone())
        } else {
            // SAFETY: storage is a live handle, by the C contract.
            let storage = unsafe { storage::shared(storage, "storage") }?;
            Shell::restore(bytes, storage, options.clone())
        }
        .map_err(|error| invalid(error.to_string()))?;
        let storage = shell.storage().clone();
        *shell_out = handle::into_raw(Session { shell: Mutex::new(shell), storage, options });
        Ok(())
    })
}

/// A new shell that is a copy of `shell`'s session and shares nothing
/// mutable with it: the same state, and a copy of the files its storage
/// keeps in memory (copied on write, so a fork is cheap); a storage that
/// keeps its files elsewhere (a host folder) is shared. Free it with
/// `aikido_shell_free`. NULL when `shell` is NULL. Waits for a run in
/// progress on the shell to end.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_fork(shell: *mut aikido_shell) -> *mut aikido_shell {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a live shell.
        let Ok(session) = (unsafe { handle::borrow(shell, "shell") }) else { return std::ptr::null_mut() };
        let fork = session.lock().fork();
        let storage = fork.storage().clone();
        handle::into_raw(Session { shell: Mutex::new(fork), storage, options: session.options.clone() })
    })
}

/// A new handle to the storage `shell` runs over (shared: the shell's files,
/// e.g. those of a restored or forked shell), freed with
/// `aikido_storage_free`. NULL when `shell` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_storage(shell: *const aikido_shell) -> *mut aikido_storage {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a live shell.
        match unsafe { handle::get(shell) } {
            Some(session) => Held::Plain(Arc::clone(&session.storage)).into_raw(),
            None => std::ptr::null_mut(),
        }
    })
}
