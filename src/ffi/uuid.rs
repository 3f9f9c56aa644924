//! UUIDs for turn ids: new ones, and their text form.

use std::ffi::c_char;

use uuid::Uuid;

use super::{boundary, invalid, required_str};
use crate::ffi::status::aikido_status;

/// Writes a new random (version 4) UUID into the 16 bytes at `out`. NULL
/// does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_uuid_new_v4(out: *mut u8) {
    // SAFETY: the caller passes NULL or 16 writable bytes.
    boundary::value(|| unsafe { write_uuid(out, Uuid::new_v4()) })
}

/// Writes a new time-ordered (version 7) UUID into the 16 bytes at `out`.
/// NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_uuid_new_v7(out: *mut u8) {
    // SAFETY: the caller passes NULL or 16 writable bytes.
    boundary::value(|| unsafe { write_uuid(out, Uuid::now_v7()) })
}

/// Parses UUID text (hyphenated, simple, braced or urn form) into the 16
/// bytes at `out`. Returns `AIKIDO_ERR_INVALID_INPUT`, leaving `out` as it
/// was, for NULL or text that is not a UUID.
#[no_mangle]
pub unsafe extern "C" fn aikido_uuid_parse(text: *const c_char, out: *mut u8) -> aikido_status {
    boundary::status("aikido_uuid_parse", std::ptr::null_mut(), || {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let text = unsafe { required_str(text, "text") }?;
        if out.is_null() {
            return Err(invalid("out is NULL"));
        }
        let id = Uuid::parse_str(text).map_err(|error| invalid(format!("\"{text}\" is not a UUID: {error}")))?;
        // SAFETY: out is not NULL; the caller passes 16 writable bytes.
        unsafe { write_uuid(out, id) };
        Ok(())
    })
}

/// Writes the hyphenated lower-case form of the 16 bytes at `id` into `out`:
/// 36 characters and a NUL. Does nothing when either pointer is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_uuid_format(id: *const u8, out: *mut c_char) {
    boundary::value(|| {
        if id.is_null() || out.is_null() {
            return;
        }
        // SAFETY: the caller passes 16 readable bytes at id and 37 writable at out.
        let id = Uuid::from_bytes(unsafe { id.cast::<[u8; 16]>().read_unaligned() });
        let mut text = [0u8; 37];
        id.hyphenated().encode_lower(&mut text[..36]);
        // SAFETY: out is not NULL, so 37 writable bytes (the C contract), which
        // cannot overlap the local text.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), out.cast::<u8>(), 37) };
    })
}

/// # Safety
/// `out` is NULL or valid for writes of 16 bytes.
unsafe fn write_uuid(out: *mut u8, id: Uuid) {
    if !out.is_null() {
        // SAFETY: not NULL, so 16 writable bytes, which cannot overlap the
        // local id, by this function's contract.
        unsafe { std::ptr::copy_nonoverlapping(id.as_bytes().as_ptr(), out, 16) };
    }
}
