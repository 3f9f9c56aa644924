//! The C ABI: thin functions that check pointers, convert strings and catch
//! unwinds, then call the core. No rule of the library lives here.
//!
//! Every exported function's body is one call of [`boundary::status`] or
//! [`boundary::value`], which catch any panic; `tests/boundary.rs` fails the
//! build's tests when an exported function is not wrapped.
//!
//! Ownership in one place: every `char **…_out` receives a string the caller
//! frees with `aikido_string_free`; every `…_out` may be NULL; an `…_out` is
//! set to NULL on entry, so it is NULL whenever it was not written.

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)] // Each function documents its contract for C.

pub mod cancel;
pub mod collections;
pub mod dialect;
pub(crate) mod handle;
pub mod handler;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "network")]
pub mod net;
pub mod registry;
pub mod schema;
#[cfg(feature = "shell")]
pub mod shell;
pub(crate) mod slice;
#[cfg(feature = "shell")]
pub mod snapshot;
pub mod status;
#[cfg(feature = "storage")]
pub mod storage;
pub mod uuid;
pub mod validation;

#[cfg(all(test, feature = "shell", feature = "mcp"))]
mod lengths;
#[cfg(test)]
mod tests;

use std::ffi::{c_char, CStr};

use crate::error::Error;
pub(crate) use slice::{pair, Pair};

/// The panic boundary every exported function runs inside.
pub(crate) mod boundary {
    use std::ffi::c_char;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use super::{write_out, Error};
    use crate::error::{panic_message, PanicOrigin};
    use crate::ffi::status::aikido_status;

    /// Runs the body of `function`, a C function that returns a status. An
    /// error's message goes to `error_out`; a panic becomes
    /// `AIKIDO_ERR_TOOL_PANICKED` with a message that names `function`.
    pub(crate) fn status(
        function: &'static str,
        error_out: *mut *mut c_char,
        body: impl FnOnce() -> Result<(), Error>,
    ) -> aikido_status {
        // SAFETY: the C contract: error_out is NULL or points to a writable pointer.
        unsafe { super::clear_out(error_out) };
        let error = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(())) => return crate::ffi::status::AIKIDO_OK,
            Ok(Err(error)) => error,
            Err(payload) => {
                Error::ToolPanicked { origin: PanicOrigin::Library(function), message: panic_message(payload) }
            }
        };
        let status = error.status() as aikido_status;
        // Formatting the message allocates; should even that panic, the
        // status still gets out.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: as above.
            unsafe { write_out(error_out, error.to_string()) }
        }));
        status
    }

    /// What a function without a status returns when it panicked.
    pub(crate) trait OnPanic {
        const ON_PANIC: Self;
    }
    impl<T> OnPanic for *mut T {
        const ON_PANIC: Self = std::ptr::null_mut();
    }
    impl<T> OnPanic for *const T {
        const ON_PANIC: Self = std::ptr::null();
    }
    impl OnPanic for bool {
        const ON_PANIC: Self = false;
    }
    impl OnPanic for usize {
        const ON_PANIC: Self = 0;
    }
    impl OnPanic for () {
        const ON_PANIC: Self = ();
    }

    /// Runs the body of a C function that returns a value rather than a
    /// status; a panic gives NULL, false, 0 or nothing.
    pub(crate) fn value<T: OnPanic>(body: impl FnOnce() -> T) -> T {
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(value) => value,
            Err(payload) => {
                drop(panic_message(payload));
                T::ON_PANIC
            }
        }
    }
}

/// The error for a caller's misuse.
pub(crate) fn invalid(what: impl Into<String>) -> Error {
    Error::InvalidInput(what.into())
}

/// Sets `*out` to NULL, so that an unwritten output is never garbage.
///
/// # Safety
/// `out` is NULL or valid for a write.
pub(crate) unsafe fn clear_out(out: *mut *mut c_char) {
    if !out.is_null() {
        // SAFETY: not NULL, so valid for a write, by this function's contract.
        unsafe { *out = std::ptr::null_mut() };
    }
}

/// Hands `text` to the caller through `out`, if the caller wants it.
///
/// # Safety
/// `out` is NULL or valid for a write.
pub(crate) unsafe fn write_out(out: *mut *mut c_char, text: String) {
    if !out.is_null() {
        // SAFETY: not NULL, so valid for a write, by this function's contract.
        unsafe { *out = into_c_string(text) };
    }
}

/// A caller-owned C string holding `text`: one allocation when `text` has
/// room for the NUL, as reply contents are made to have. Text cannot hold NUL
/// through the C ABI (every input is checked), so a NUL that reaches here
/// from a Rust handler becomes U+FFFD rather than cutting the string short.
pub(crate) fn into_c_string(text: String) -> *mut c_char {
    let text = if text.as_bytes().contains(&0) { text.replace('\0', "\u{FFFD}") } else { text };
    // SAFETY: no NUL is left in the text.
    unsafe { std::ffi::CString::from_vec_unchecked(text.into_bytes()) }.into_raw()
}

/// A caller-owned copy of `text`, allocated once at its final size.
pub(crate) fn copy_to_c_string(text: &str) -> *mut c_char {
    let mut owned = String::with_capacity(text.len() + 1);
    owned.push_str(text);
    into_c_string(owned)
}

/// A NUL-terminated UTF-8 input that must be there.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn required_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    if ptr.is_null() {
        return Err(invalid(format!("{what} is NULL")));
    }
    // SAFETY: not NULL, so a NUL-terminated string that outlives 'a, by
    // this function's contract.
    let bytes = unsafe { CStr::from_ptr(ptr) }.to_bytes();
    // Names and ids are short and ASCII: is_ascii decides those faster than
    // a full UTF-8 check.
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).map_err(|_| invalid(format!("{what} is not valid UTF-8")))
}

/// A NUL-terminated UTF-8 input where NULL means the empty string.
///
/// # Safety
/// As [`required_str`].
pub(crate) unsafe fn optional_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    if ptr.is_null() {
        Ok("")
    } else {
        // SAFETY: this function's contract is required_str's.
        unsafe { required_str(ptr, what) }
    }
}

/// Bytes given as (pointer, length), checked by [`slice::slice`]; (NULL,
/// 0) is empty.
///
/// # Safety
/// As [`slice::slice`].
pub(crate) unsafe fn byte_slice<'a>(ptr: *const c_char, len: usize, names: Pair<'_>) -> Result<&'a [u8], Error> {
    // SAFETY: this function's contract is slice's.
    unsafe { slice::slice(ptr.cast::<u8>(), len, names) }
}

/// UTF-8 text given as (pointer, length), holding no NUL byte.
///
/// # Safety
/// As [`slice::slice`].
pub(crate) unsafe fn text_slice<'a>(ptr: *const c_char, len: usize, names: Pair<'_>) -> Result<&'a str, Error> {
    // SAFETY: this function's contract is byte_slice's.
    let bytes = unsafe { byte_slice(ptr, len, names) }?;
    if bytes.contains(&0) {
        return Err(invalid(format!("{} holds a NUL byte", names.pointer)));
    }
    std::str::from_utf8(bytes).map_err(|_| invalid(format!("{} is not valid UTF-8", names.pointer)))
}

/// An array of `len` NUL-terminated UTF-8 strings, checked by
/// [`slice::slice`]; (NULL, 0) is empty.
///
/// # Safety
/// `ptr` is as [`slice::slice`] needs for `len` pointers, each as
/// [`required_str`].
pub(crate) unsafe fn str_array<'a>(
    ptr: *const *const c_char,
    len: usize,
    names: Pair<'_>,
) -> Result<Vec<&'a str>, Error> {
    // SAFETY: this function's contract is slice's.
    let items = unsafe { slice::slice(ptr, len, names) }?;
    items
        .iter()
        .enumerate()
        // SAFETY: each item is as required_str needs, by this function's contract.
        .map(|(index, &item)| unsafe { required_str(item, &format!("{}[{index}]", names.pointer)) })
        .collect()
}

/// A reference from a pointer the caller promises is NULL or valid.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` that outlives `'a`.
pub(crate) unsafe fn reference<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Error> {
    // SAFETY: NULL or a live T that outlives 'a, by this function's contract.
    unsafe { ptr.as_ref() }.ok_or_else(|| invalid(format!("{what} is NULL")))
}
