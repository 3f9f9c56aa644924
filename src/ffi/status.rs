//! Status codes, their names, the version, and freeing returned strings.

use std::ffi::{c_char, CStr, CString};

use super::boundary;
use crate::error::Status;

/// The outcome of a call: `AIKIDO_OK` or one of the `AIKIDO_ERR_*` codes.
/// An integer, never an enum, so that C can pass any value without undefined
/// behaviour. Values are stable forever; a retired one is never reused.
pub type aikido_status = i32;

/// Success.
pub const AIKIDO_OK: aikido_status = 0;
/// The name is registered already.
pub const AIKIDO_ERR_DUPLICATE_TOOL: aikido_status = 1;
/// No tool of that name.
pub const AIKIDO_ERR_UNKNOWN_TOOL: aikido_status = 2;
/// The call's arguments failed the check (not one JSON object, or a required
/// field missing or null).
pub const AIKIDO_ERR_INVALID_ARGUMENTS: aikido_status = 3;
/// The handler panicked or threw; also any panic caught at the boundary of a
/// libaikido function (its message says where).
pub const AIKIDO_ERR_TOOL_PANICKED: aikido_status = 4;
/// The handler reported an error; its message is the error text.
pub const AIKIDO_ERR_TOOL_FAILED: aikido_status = 5;
/// Caller misuse: NULL where not allowed, invalid UTF-8, empty name, NULL
/// handler, parameters not JSON.
pub const AIKIDO_ERR_INVALID_INPUT: aikido_status = 6;
/// The environment's cancellation token had fired; the handler did not run.
pub const AIKIDO_ERR_CANCELLED: aikido_status = 7;
/// A storage operation failed; the message says what and where, as a shell
/// would (`/a/b: No such file or directory`).
pub const AIKIDO_ERR_STORAGE: aikido_status = 8;

/// The name of a status, e.g. "AIKIDO_ERR_UNKNOWN_TOOL", or
/// "AIKIDO_UNKNOWN_STATUS" for a value that is not a status. The string is
/// static: do not free it.
#[no_mangle]
pub extern "C" fn aikido_status_name(status: aikido_status) -> *const c_char {
    boundary::value(|| status_name(status).as_ptr())
}

pub(crate) fn status_name(status: aikido_status) -> &'static CStr {
    match Status::from_code(status) {
        Some(status) => CStr::from_bytes_until_nul(&C_NAMES[status as usize]).expect("each name ends in NUL"),
        None => c"AIKIDO_UNKNOWN_STATUS",
    }
}

/// Room for the longest C name and its NUL.
const NAME_BYTES: usize = 40;

/// Each status's C name, from the one table of statuses in `src/error.rs`
/// (`Status::ALL` is in numeric order, so a status's number is its index).
static C_NAMES: [[u8; NAME_BYTES]; Status::ALL.len()] = {
    let mut names = [[0; NAME_BYTES]; Status::ALL.len()];
    let mut index = 0;
    while index < names.len() {
        assert!(Status::ALL[index] as usize == index, "Status::ALL is in numeric order from 0");
        names[index] = c_name(Status::ALL[index]);
        index += 1;
    }
    names
};

/// `AIKIDO_OK`, or `AIKIDO_ERR_` and the variant's name in capitals, words
/// joined by `_` (`UnknownTool`: `AIKIDO_ERR_UNKNOWN_TOOL`), NUL-terminated.
/// The constants above carry these names: cbindgen reads them as written,
/// so they stay literal, and the unit test below holds them to the table.
const fn c_name(status: Status) -> [u8; NAME_BYTES] {
    let mut out = [0; NAME_BYTES];
    let prefix: &[u8] = if matches!(status, Status::Ok) { b"AIKIDO_" } else { b"AIKIDO_ERR_" };
    let mut len = 0;
    while len < prefix.len() {
        out[len] = prefix[len];
        len += 1;
    }
    let name = status.name().as_bytes();
    let mut index = 0;
    while index < name.len() {
        if index > 0 && name[index].is_ascii_uppercase() {
            out[len] = b'_';
            len += 1;
        }
        out[len] = name[index].to_ascii_uppercase();
        len += 1;
        index += 1;
    }
    assert!(len < NAME_BYTES, "a status name longer than NAME_BYTES allows");
    out
}

/// The library's version, e.g. "0.1.0". The string is static: do not free it.
#[no_mangle]
pub extern "C" fn aikido_version() -> *const c_char {
    boundary::value(|| concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast())
}

/// Frees a string that libaikido returned through a `char **…_out` or as a
/// `char *` result. NULL does nothing. Freeing any other pointer, or the same
/// one twice, is undefined behaviour.
#[no_mangle]
pub unsafe extern "C" fn aikido_string_free(string: *mut c_char) {
    boundary::value(|| {
        if !string.is_null() {
            // SAFETY: the caller passes a pointer made by CString::into_raw.
            drop(unsafe { CString::from_raw(string) });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_core_statuses() {
        let constants = [
            AIKIDO_OK,
            AIKIDO_ERR_DUPLICATE_TOOL,
            AIKIDO_ERR_UNKNOWN_TOOL,
            AIKIDO_ERR_INVALID_ARGUMENTS,
            AIKIDO_ERR_TOOL_PANICKED,
            AIKIDO_ERR_TOOL_FAILED,
            AIKIDO_ERR_INVALID_INPUT,
            AIKIDO_ERR_CANCELLED,
            AIKIDO_ERR_STORAGE,
        ];
        assert_eq!(constants.len(), Status::ALL.len());
        for (status, constant) in Status::ALL.into_iter().zip(constants) {
            assert_eq!(status as i32, constant);
        }
        assert_eq!(status_name(AIKIDO_ERR_UNKNOWN_TOOL), c"AIKIDO_ERR_UNKNOWN_TOOL");
        assert_eq!(status_name(AIKIDO_OK), c"AIKIDO_OK");
        assert_eq!(status_name(AIKIDO_ERR_CANCELLED), c"AIKIDO_ERR_CANCELLED");
        assert_eq!(status_name(8), c"AIKIDO_ERR_STORAGE");
        assert_eq!(status_name(9), c"AIKIDO_UNKNOWN_STATUS");
        assert_eq!(status_name(-1), c"AIKIDO_UNKNOWN_STATUS");
        if cfg!(miri) {
            return; // the header's text is searched natively (minutes under Miri)
        }
        // Each constant, as the header has it, carries the name the table gives.
        let header = include_str!("../../include/aikido.h");
        for status in Status::ALL {
            let name = status_name(status as i32).to_str().unwrap();
            let define = format!("#define {name} {}\n", status as i32);
            assert!(header.contains(&define), "include/aikido.h lacks {define:?}");
        }
        assert_eq!(header.matches("\n#define AIKIDO_ERR_").count() + 1, Status::ALL.len());
    }
}
