//! The virtual bash for C: register the `bash` tool on a registry, or run
//! scripts directly on a shell of one's own, without a model.

use std::ffi::c_char;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::cancel::aikido_cancel;
use super::collections::{self, aikido_strings};
use super::handle::{self, Boxed, Handle};
use super::registry::aikido_registry;
use super::status::aikido_status;
use super::storage::{self, aikido_storage};
use super::{boundary, invalid, pair, slice, text_slice};
use crate::shell::{register_shell_tool, LimitHit, Limits, RunResult, Shell, ShellOptions};
use crate::storage::Storage;

/// A shell session: its working directory, variables and functions persist
/// from one `aikido_shell_run` to the next. Opaque and thread-safe (runs on
/// one shell take turns); made by `aikido_shell_new`, freed with
/// `aikido_shell_free`.
pub struct aikido_shell {
    _private: [u8; 0],
}

// SAFETY: aikido_shell is never constructed; its pointers are made by
// aikido_shell_new, from a Box<Session>.
unsafe impl Handle for aikido_shell {
    type Target = Session;
}
// SAFETY: as above; aikido_shell_free frees them.
unsafe impl Boxed for aikido_shell {}

/// Bounds on each run of a script. A field of 0 takes the default, given in
/// brackets. A script that reaches a limit stops, writes a message to its
/// stderr, and ends with exit code 125 (124 for the time limit).
#[repr(C)]
pub struct aikido_shell_limits {
    /// Simple commands run: builtins, functions and commands alike [100000].
    pub max_commands: u64,
    /// Iterations of all loops together [100000].
    pub max_loop_iterations: u64,
    /// Nested function calls, and `source`/`eval` levels [100].
    pub max_function_depth: u32,
    /// Bytes in any one stream: stdout, stderr, a pipe, a substitution
    /// [1048576]. Output past it is cut.
    pub max_output_bytes: usize,
    /// Wall-clock time, in milliseconds [10000].
    pub max_milliseconds: u64,
    /// Bytes the session's variables may hold together, and the largest
    /// value an expansion or awk may build [268435456]. Added after the
    /// first five fields: code built against an older header must be
    /// rebuilt (a zeroed struct takes every default).
    pub max_memory_bytes: usize,
    /// The `bash` tool only: the most bytes of a result the model reads
    /// [30720]. A longer result keeps its head and its tail around a marked
    /// line naming the file of the storage where the whole result is saved.
    /// Added after `max_memory_bytes`: code built against an older header
    /// must be rebuilt.
    pub max_result_bytes: usize,
}

/// No limit stopped the script.
pub const AIKIDO_SHELL_LIMIT_NONE: i32 = 0;
/// `max_commands` stopped the script (exit code 125).
pub const AIKIDO_SHELL_LIMIT_COMMANDS: i32 = 1;
/// `max_loop_iterations` stopped the script (exit code 125).
pub const AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS: i32 = 2;
/// `max_function_depth` stopped the script (exit code 125).
pub const AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH: i32 = 3;
/// `max_output_bytes` stopped the script; its output is truncated (exit code 125).
pub const AIKIDO_SHELL_LIMIT_OUTPUT: i32 = 4;
/// `max_milliseconds` stopped the script (exit code 124).
pub const AIKIDO_SHELL_LIMIT_TIME: i32 = 5;
/// The cancellation token fired (exit code 130).
pub const AIKIDO_SHELL_LIMIT_CANCELLED: i32 = 6;
/// `max_memory_bytes` stopped the script (exit code 125).
pub const AIKIDO_SHELL_LIMIT_MEMORY: i32 = 7;
/// Too many pipeline stages ran at once (exit code 125): each stage but
/// the last runs on a thread of its own, and a run may use 256.
pub const AIKIDO_SHELL_LIMIT_THREADS: i32 = 8;

/// What one `aikido_shell_run` produced. Free its buffers with
/// `aikido_shell_result_free`.
#[repr(C)]
pub struct aikido_shell_result {
    /// Everything the script wrote to standard output: `stdout_len` bytes,
    /// not necessarily UTF-8 and possibly holding NUL bytes, followed by one
    /// more NUL byte (so that text output can be used as a C string).
    pub stdout_data: *mut c_char,
    /// How many bytes `stdout_data` holds, the final NUL not counted.
    pub stdout_len: usize,
    /// Everything the script wrote to standard error, as `stdout_data`.
    pub stderr_data: *mut c_char,
    /// How many bytes `stderr_data` holds, the final NUL not counted.
    pub stderr_len: usize,
    /// The exit status, as `$?` would show it.
    pub exit_code: i32,
    /// Whether stdout or stderr was cut at `max_output_bytes`.
    pub truncated: bool,
    /// The limit that stopped the script: an `AIKIDO_SHELL_LIMIT_*` value.
    pub limit: i32,
    /// Every path the script created, changed or removed, sorted, once each,
    /// as a JSON array of strings (NUL-terminated): over a dry-run storage,
    /// what the script would have changed.
    ///
    /// Deprecated: read `write_set` instead (this JSON form stays, unchanged,
    /// for one minor version).
    pub write_set_json: *mut c_char,
    /// The same paths as `write_set_json`, as an array to read with
    /// `aikido_strings_len` and `aikido_strings_get`; freed by
    /// `aikido_shell_result_free` (never with `aikido_strings_free`). Added
    /// after `write_set_json`: code built against an older header must be
    /// rebuilt.
    pub write_set: *mut aikido_strings,
}

/// What an `aikido_shell` points to: the session, and what a fresh one is
/// made of.
pub(crate) struct Session {
    pub(super) shell: Mutex<Shell>,
    pub(super) storage: Arc<dyn Storage>,
    pub(super) options: ShellOptions,
}

impl Session {
    /// The shell, locked. A run that panicked leaves it in an unknown
    /// state: it is replaced by a fresh one.
    pub(super) fn lock(&self) -> MutexGuard<'_, Shell> {
        self.shell.lock().unwrap_or_else(|poisoned| {
            self.shell.clear_poison();
            let mut shell = poisoned.into_inner();
            *shell = Shell::new(self.storage.clone(), self.options.clone());
            shell
        })
    }
}

/// A handle for a new session (for the network's constructor, `net.rs`).
#[cfg(feature = "network")]
pub(super) fn into_handle(shell: Mutex<Shell>, storage: Arc<dyn Storage>, options: ShellOptions) -> *mut aikido_shell {
    handle::into_raw(Session { shell, storage, options })
}

/// Shell options from C limits; NULL, and each 0, mean the default.
///
/// # Safety
/// `limits` is NULL or points to a readable `aikido_shell_limits`.
pub(super) unsafe fn options(limits: *const aikido_shell_limits) -> ShellOptions {
    let mut options = ShellOptions::default();
    // SAFETY: NULL or readable, by this function's contract.
    let Some(limits) = (unsafe { limits.as_ref() }) else { return options };
    let defaults = Limits::default();
    let or = |value: u64, default: u64| if value == 0 { default } else { value };
    if limits.max_result_bytes != 0 {
        options.max_result_bytes = limits.max_result_bytes;
    }
    options.limits = Limits {
        max_commands: or(limits.max_commands, defaults.max_commands),
        max_loop_iterations: or(limits.max_loop_iterations, defaults.max_loop_iterations),
        max_function_depth: if limits.max_function_depth == 0 {
            defaults.max_function_depth
        } else {
            limits.max_function_depth
        },
        max_output_bytes: if limits.max_output_bytes == 0 {
            defaults.max_output_bytes
        } else {
            limits.max_output_bytes
        },
        max_duration: if limits.max_milliseconds == 0 {
            defaults.max_duration
        } else {
            Duration::from_millis(limits.max_milliseconds)
        },
        max_memory_bytes: if limits.max_memory_bytes == 0 {
            defaults.max_memory_bytes
        } else {
            limits.max_memory_bytes
        },
    };
    options
}

fn limit_code(limit: Option<LimitHit>) -> i32 {
    match limit {
        None => AIKIDO_SHELL_LIMIT_NONE,
        Some(LimitHit::Commands) => AIKIDO_SHELL_LIMIT_COMMANDS,
        Some(LimitHit::LoopIterations) => AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS,
        Some(LimitHit::FunctionDepth) => AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH,
        Some(LimitHit::Output) => AIKIDO_SHELL_LIMIT_OUTPUT,
        Some(LimitHit::WallTime) => AIKIDO_SHELL_LIMIT_TIME,
        Some(LimitHit::Cancelled) => AIKIDO_SHELL_LIMIT_CANCELLED,
        Some(LimitHit::Memory) => AIKIDO_SHELL_LIMIT_MEMORY,
        Some(LimitHit::Threads) => AIKIDO_SHELL_LIMIT_THREADS,
        // Ends a pipeline stage with status 141, never a run.
        Some(LimitHit::BrokenPipe) => AIKIDO_SHELL_LIMIT_NONE,
    }
}

/// Caller-owned bytes with a NUL after them; freed by [`free_bytes`].
fn into_c_bytes(mut bytes: Vec<u8>) -> (*mut c_char, usize) {
    let len = bytes.len();
    bytes.push(0);
    (Box::into_raw(bytes.into_boxed_slice()).cast::<c_char>(), len)
}

/// # Safety
/// `data` is NULL or was made by [`into_c_bytes`] with this `len`, and is
/// freed once.
unsafe fn free_bytes(data: *mut c_char, len: usize) {
    // SAFETY: a boxed slice of len + 1 bytes (into_c_bytes), freed once, by
    // this function's contract.
    unsafe { slice::free_boxed_bytes(data.cast::<u8>(), len, 1, pair("data", "len")) }
}

pub(crate) const EMPTY_RESULT: aikido_shell_result = aikido_shell_result {
    stdout_data: std::ptr::null_mut(),
    stdout_len: 0,
    stderr_data: std::ptr::null_mut(),
    stderr_len: 0,
    exit_code: 0,
    truncated: false,
    limit: AIKIDO_SHELL_LIMIT_NONE,
    write_set_json: std::ptr::null_mut(),
    write_set: std::ptr::null_mut(),
};

fn c_result(result: RunResult) -> aikido_shell_result {
    let (stdout_data, stdout_len) = into_c_bytes(result.stdout);
    let (stderr_data, stderr_len) = into_c_bytes(result.stderr);
    aikido_shell_result {
        stdout_data,
        stdout_len,
        stderr_data,
        stderr_len,
        exit_code: result.exit_code,
        truncated: result.truncated,
        limit: limit_code(result.limit),
        write_set_json: super::into_c_string(serde_json::Value::from(result.write_set.clone()).to_string()),
        write_set: collections::strings(result.write_set),
    }
}

/// Registers the `bash` tool on `registry`: an in-process bash whose files
/// are those of `storage` (shared: the handle may be freed afterwards), one
/// shell per `environment->session_id` (at most 1024 kept: past that, the
/// least recently used idle session starts afresh), each run bounded by
/// `limits` (NULL for the defaults). Nothing runs on the host. The tool's result text is
/// stdout, then a `[stderr]` section when there is error output, then
/// `[exit code: N]`; a nonzero exit is still `AIKIDO_OK`. Returns
/// `AIKIDO_ERR_DUPLICATE_TOOL` when `bash` is taken, and
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL registry or storage.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_register_shell_tool(
    registry: *mut aikido_registry,
    storage: *const aikido_storage,
    limits: *const aikido_shell_limits,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_register_shell_tool", error_out, || {
        // SAFETY: the caller passes a live registry, a live handle, and NULL or readable limits.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: storage is NULL or a live handle, by the C contract.
        let storage = unsafe { storage::shared(storage, "storage") }?;
        // SAFETY: limits is NULL or readable, by the C contract.
        register_shell_tool(registry, storage, unsafe { options(limits) })
    })
}

/// A new shell over `storage` (shared: the handle may be freed afterwards),
/// starting in `/`, each run bounded by `limits` (NULL for the defaults).
/// NULL when `storage` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_new(
    storage: *const aikido_storage,
    limits: *const aikido_shell_limits,
) -> *mut aikido_shell {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a live handle, and NULL or readable limits.
        let Ok(storage) = (unsafe { storage::shared(storage, "storage") }) else { return std::ptr::null_mut() };
        // SAFETY: limits is NULL or readable, by the C contract.
        let options = unsafe { options(limits) };
        let shell = Mutex::new(Shell::new(storage.clone(), options.clone()));
        handle::into_raw(Session { shell, storage, options })
    })
}

/// Runs a script (`script_len` bytes of UTF-8 at `script`, no NUL) as
/// `bash -c` would, in the shell's state, and fills `*result_out` (required;
/// zeroed on entry, so it is always safe to pass to
/// `aikido_shell_result_free`). `cancel` (NULL: never) stops the script when
/// fired. A script that fails, or is stopped by a limit, is still
/// `AIKIDO_OK`: its exit code, stderr and `limit` say how it ended.
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL shell or result_out, or a script
/// that is not UTF-8 or holds a NUL byte. Runs on one shell take turns.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_run(
    shell: *mut aikido_shell,
    script: *const c_char,
    script_len: usize,
    cancel: *const aikido_cancel,
    result_out: *mut aikido_shell_result,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_shell_run", error_out, || {
        // SAFETY: the caller passes NULL or a writable result.
        let out = unsafe { result_out.as_mut() }.ok_or_else(|| invalid("result_out is NULL"))?;
        *out = EMPTY_RESULT;
        // SAFETY: the caller passes a live shell, script_len bytes, and NULL or a live token.
        let session = unsafe { handle::borrow(shell, "shell") }?;
        // SAFETY: script is NULL or readable for script_len bytes, by the C contract.
        let script = unsafe { text_slice(script, script_len, pair("script", "script_len")) }?;
        // SAFETY: cancel is NULL or a live handle, by the C contract.
        let cancel = unsafe { handle::get(cancel) };
        let result = session.lock().run(script, cancel);
        *out = c_result(result);
        Ok(())
    })
}

/// Forgets the shell's state (working directory, variables, functions):
/// back to how `aikido_shell_new` made it. Files stay. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_reset(shell: *mut aikido_shell) {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a live shell.
        if let Ok(session) = unsafe { handle::borrow(shell, "shell") } {
            session.lock().reset();
        }
    })
}

/// Frees the buffers of a result and zeroes it. A zeroed result, or NULL,
/// does nothing; freeing the same buffers twice is undefined behaviour.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_result_free(result: *mut aikido_shell_result) {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a result filled by aikido_shell_run.
        if let Some(result) = unsafe { result.as_mut() } {
            // SAFETY: the buffers were made by into_c_bytes with these lengths
            // (or are NULL, in a zeroed result), and are freed once: the result
            // is zeroed below.
            unsafe {
                free_bytes(result.stdout_data, result.stdout_len);
                free_bytes(result.stderr_data, result.stderr_len);
            }
            if !result.write_set_json.is_null() {
                // SAFETY: made by into_c_string (CString::into_raw), freed once.
                drop(unsafe { std::ffi::CString::from_raw(result.write_set_json) });
            }
            // SAFETY: made by collections::strings (or NULL, in a zeroed
            // result), freed once: the result is zeroed below.
            unsafe { handle::free(result.write_set) };
            *result = EMPTY_RESULT;
        }
    })
}

/// Frees a shell. No run on it may be in progress. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_free(shell: *mut aikido_shell) {
    // SAFETY: made by aikido_shell_new, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(shell) })
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;
    use std::ptr;

    use super::*;
    use crate::ffi::registry::{aikido_registry_dispatch, aikido_registry_free, aikido_registry_new, aikido_tool_call};
    use crate::ffi::status::{aikido_string_free, AIKIDO_ERR_DUPLICATE_TOOL, AIKIDO_ERR_INVALID_INPUT, AIKIDO_OK};
    use crate::ffi::storage::{aikido_storage_free, aikido_storage_memory_new};

    fn take(text: *mut c_char) -> String {
        assert!(!text.is_null());
        // SAFETY: text is a NUL-terminated string the library made, not yet freed.
        let owned = unsafe { CStr::from_ptr(text) }.to_str().unwrap().to_owned();
        // SAFETY: text was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_string_free(text) };
        owned
    }

    #[test]
    fn limits_of_zero_and_null_limits_take_the_defaults() {
        // SAFETY: NULL or a local aikido_shell_limits.
        assert_eq!(unsafe { options(ptr::null()) }, ShellOptions::default());
        let zero = aikido_shell_limits {
            max_commands: 0,
            max_loop_iterations: 0,
            max_function_depth: 0,
            max_output_bytes: 0,
            max_milliseconds: 0,
            max_memory_bytes: 0,
            max_result_bytes: 0,
        };
        // SAFETY: NULL or a local aikido_shell_limits.
        assert_eq!(unsafe { options(&zero) }, ShellOptions::default());
        let set = aikido_shell_limits {
            max_commands: 1,
            max_loop_iterations: 2,
            max_function_depth: 3,
            max_output_bytes: 4,
            max_milliseconds: 5,
            max_memory_bytes: 6,
            max_result_bytes: 7,
        };
        assert_eq!(
            // SAFETY: NULL or a local aikido_shell_limits.
            unsafe { options(&set) }.limits,
            Limits {
                max_commands: 1,
                max_loop_iterations: 2,
                max_function_depth: 3,
                max_output_bytes: 4,
                max_duration: Duration::from_millis(5),
                max_memory_bytes: 6,
            }
        );
        // SAFETY: a local aikido_shell_limits.
        assert_eq!(unsafe { options(&set) }.max_result_bytes, 7);
    }

    #[test]
    fn result_buffers_end_with_a_nul_and_are_freed_and_zeroed() {
        let run = RunResult {
            stdout: b"a\0b".to_vec(),
            stderr: Vec::new(),
            exit_code: 125,
            truncated: true,
            limit: Some(LimitHit::Output),
            write_set: Vec::new(),
        };
        let mut result = c_result(run);
        assert_eq!((result.stdout_len, result.stderr_len), (3, 0));
        // SAFETY: c_result made stdout_len (3) bytes and a NUL.
        let stdout = unsafe { std::slice::from_raw_parts(result.stdout_data.cast::<u8>(), 4) };
        assert_eq!(stdout, b"a\0b\0");
        // SAFETY: c_result made an empty stderr as one NUL byte.
        assert_eq!(unsafe { *result.stderr_data }, 0);
        assert_eq!((result.exit_code, result.truncated, result.limit), (125, true, AIKIDO_SHELL_LIMIT_OUTPUT));
        // SAFETY: result was filled by aikido_shell_run or c_result (or zeroed), and its buffers are freed once.
        unsafe { aikido_shell_result_free(&mut result) };
        assert!(result.stdout_data.is_null() && result.stderr_data.is_null());
        // A zeroed result, and NULL, free nothing.
        // SAFETY: result was filled by aikido_shell_run or c_result (or zeroed), and its buffers are freed once.
        unsafe { aikido_shell_result_free(&mut result) };
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        unsafe { aikido_shell_result_free(ptr::null_mut()) };
    }

    // The tests below make a MemoryStorage, which stamps files with the
    // real-time clock: Miri's isolation refuses that clock, so they run only
    // outside Miri (the C suite runs them under ASan and Valgrind too).
    #[test]
    #[cfg_attr(miri, ignore = "MemoryStorage reads the real-time clock, which Miri's isolation refuses")]
    fn null_pointers_are_refused_and_outputs_cleared() {
        let storage = aikido_storage_memory_new(0, 0);
        let registry = aikido_registry_new();
        let mut error = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_register_shell_tool(ptr::null_mut(), storage, ptr::null(), &mut error) };
        assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
        assert_eq!(take(error), "aikido/tools: invalid input: registry is NULL");
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_register_shell_tool(registry, ptr::null(), ptr::null(), &mut error) };
        assert_eq!(
            (status, take(error).as_str()),
            (AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: storage is NULL") // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        );
        assert_eq!(
            // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
            unsafe { aikido_registry_register_shell_tool(registry, storage, ptr::null(), ptr::null_mut()) },
            AIKIDO_OK // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        );
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_register_shell_tool(registry, storage, ptr::null(), &mut error) };
        assert_eq!(status, AIKIDO_ERR_DUPLICATE_TOOL);
        assert!(take(error).contains("\"bash\""));

        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        assert!(unsafe { aikido_shell_new(ptr::null(), ptr::null()) }.is_null());
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let shell = unsafe { aikido_shell_new(storage, ptr::null()) };
        assert!(!shell.is_null());
        // Garbage the caller left in the result is overwritten before any check.
        let mut result = aikido_shell_result { exit_code: 7, limit: 3, truncated: true, ..EMPTY_RESULT };
        let status =
            // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
            unsafe { aikido_shell_run(ptr::null_mut(), c"true".as_ptr(), 4, ptr::null(), &mut result, &mut error) };
        assert_eq!(
            (status, take(error).as_str()),
            (AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: shell is NULL")
        );
        assert_eq!((result.exit_code, result.limit, result.truncated), (0, 0, false));
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_shell_run(shell, ptr::null(), 4, ptr::null(), &mut result, &mut error) };
        assert_eq!(
            (status, take(error).as_str()),
            (AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: script is NULL but its length is 4")
        );
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_shell_run(shell, c"a\xffb".as_ptr(), 3, ptr::null(), &mut result, &mut error) };
        assert_eq!(
            (status, take(error).as_str()),
            (AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: script is not valid UTF-8")
        );
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_shell_run(shell, c"true".as_ptr(), 4, ptr::null(), ptr::null_mut(), &mut error) };
        assert_eq!(
            (status, take(error).as_str()),
            (AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: result_out is NULL")
        );
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        unsafe {
            aikido_shell_reset(ptr::null_mut());
            aikido_shell_free(ptr::null_mut());
            aikido_shell_free(shell);
            aikido_storage_free(storage);
            aikido_registry_free(registry);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "MemoryStorage reads the real-time clock, which Miri's isolation refuses")]
    fn scripts_run_through_the_tool_and_directly_over_one_storage() {
        let storage = aikido_storage_memory_new(0, 0);
        let registry = aikido_registry_new();
        assert_eq!(
            // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
            unsafe { aikido_registry_register_shell_tool(registry, storage, ptr::null(), ptr::null_mut()) },
            AIKIDO_OK
        );
        let arguments = r#"{"command":"echo hi > f; cat f"}"#;
        let call = aikido_tool_call {
            id: ptr::null(),
            name: c"bash".as_ptr(),
            arguments: arguments.as_ptr().cast(),
            arguments_len: arguments.len(),
        };
        let mut content = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), &mut content, ptr::null_mut()) };
        assert_eq!((status, take(content).as_str()), (AIKIDO_OK, "hi\n[exit code: 0]"));

        let limits = aikido_shell_limits {
            max_commands: 0,
            max_loop_iterations: 10,
            max_function_depth: 0,
            max_output_bytes: 0,
            max_milliseconds: 0,
            max_memory_bytes: 0,
            max_result_bytes: 0,
        };
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let shell = unsafe { aikido_shell_new(storage, &limits) };
        // SAFETY: storage was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_storage_free(storage) }; // the shell shares the storage
        let mut result = EMPTY_RESULT;
        let script = "cat /f; echo oops >&2; false";
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe {
            aikido_shell_run(shell, script.as_ptr().cast(), script.len(), ptr::null(), &mut result, ptr::null_mut())
        };
        assert_eq!(status, AIKIDO_OK);
        // SAFETY: result.stdout_data is a NUL-terminated string the library made, not yet freed.
        let stdout = unsafe { CStr::from_ptr(result.stdout_data) };
        // SAFETY: result.stderr_data is a NUL-terminated string the library made, not yet freed.
        let stderr = unsafe { CStr::from_ptr(result.stderr_data) };
        assert_eq!((stdout.to_bytes(), stderr.to_bytes()), (&b"hi\n"[..], &b"oops\n"[..]));
        assert_eq!((result.exit_code, result.limit), (1, AIKIDO_SHELL_LIMIT_NONE));
        // SAFETY: result was filled by aikido_shell_run or c_result (or zeroed), and its buffers are freed once.
        unsafe { aikido_shell_result_free(&mut result) };
        let script = "while :; do :; done";
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe {
            aikido_shell_run(shell, script.as_ptr().cast(), script.len(), ptr::null(), &mut result, ptr::null_mut())
        };
        assert_eq!(status, AIKIDO_OK);
        assert_eq!((result.exit_code, result.limit), (125, AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS));
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        unsafe {
            aikido_shell_result_free(&mut result);
            aikido_shell_free(shell);
            aikido_registry_free(registry);
        }
    }
}
