//! Helpers the tests share (most of them for the C ABI): `tests/*.rs` declare `mod common;`,
//! and `src/ffi/tests.rs` includes this file by path (the crate names
//! itself `aikido` in its tests for that).

// Each test uses only some of these.
#![allow(dead_code)]

use std::ffi::{c_char, c_void, CStr};
use std::ptr;

use aikido::ffi::handler::{aikido_reply, aikido_reply_set_content};
use aikido::ffi::registry::{aikido_environment, aikido_registry, aikido_registry_dispatch, aikido_tool_call};
use aikido::ffi::status::{aikido_status, aikido_string_free, AIKIDO_OK};

#[cfg(feature = "shell")]
pub mod shell;

/// Takes a string the library returned: its text, and frees it.
pub fn take(text: *mut c_char) -> String {
    assert!(!text.is_null());
    // SAFETY: a NUL-terminated string the library returned, not yet freed.
    let owned = unsafe { CStr::from_ptr(text) }.to_str().unwrap().to_owned();
    // SAFETY: as above; freed once, here.
    unsafe { aikido_string_free(text) };
    owned
}

/// A call of `name` with `arguments`, without an id. The call points into
/// both: they must outlive it.
pub fn tool_call(name: &CStr, arguments: &[u8]) -> aikido_tool_call {
    aikido_tool_call {
        id: ptr::null(),
        name: name.as_ptr(),
        arguments: arguments.as_ptr().cast(),
        arguments_len: arguments.len(),
    }
}

/// A handler that replies with its arguments.
pub unsafe extern "C" fn echo(
    _userdata: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the library calls a handler with a reply valid for the call and
    // arguments valid for arguments_len bytes (aikido_handler).
    unsafe { aikido_reply_set_content(reply, arguments, arguments_len) }
}

/// One dispatch through the C ABI, without an environment: its status, and
/// the content (on `AIKIDO_OK`) or the error message, each freed. Exactly
/// one of the two is written.
pub fn dispatch(registry: *const aikido_registry, name: &CStr, arguments: impl AsRef<[u8]>) -> (aikido_status, String) {
    let call = tool_call(name, arguments.as_ref());
    let (mut content, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: the registry is the caller's live one; the call and outputs are locals.
    let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), &mut content, &mut error) };
    assert_ne!(content.is_null(), error.is_null(), "exactly one output is written");
    let text = if status == AIKIDO_OK { take(content) } else { take(error) };
    (status, text)
}

/// This process's peak resident set (`VmHWM`), in KiB; 0 where
/// `/proc/self/status` cannot be read.
pub fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
