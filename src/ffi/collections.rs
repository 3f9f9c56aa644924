//! Structured results for C (docs/C-API.md, "Structured results"): a
//! collection comes as a library-owned array handle read with `…_len` and
//! `…_get(index, &item)` and freed with `…_free`; its items are `#[repr(C)]`
//! structs whose strings are borrowed from the array until it is freed.
//!
//! Conversions only: the core gives a `Vec` (of directory entries, changes,
//! written paths, parsed calls) and this module keeps it as NUL-terminated
//! strings the items point into.

use std::ffi::{c_char, CString};

use super::handle::{self, Boxed, Handle};
use super::registry::aikido_tool_call;
use super::status::aikido_status;
use super::{boundary, invalid};
use crate::dialect::ParsedCall;
use crate::error::Error;

/// The items of an array handle, kept as C strings that outlive every
/// `…_get` until the handle is freed.
pub(crate) struct Items<T>(Box<[T]>);

impl<T> Items<T> {
    pub(crate) fn new(items: impl IntoIterator<Item = T>) -> Self {
        Items(items.into_iter().collect())
    }
}

/// A C string holding `text`; a NUL in it (which no C input can bring, but
/// a Rust handler or a decoded JSON escape can) becomes U+FFFD, as in every
/// other string the library hands out.
pub(crate) fn c_text(text: String) -> CString {
    let text = if text.as_bytes().contains(&0) { text.replace('\0', "\u{FFFD}") } else { text };
    // SAFETY: no NUL is left in the text.
    unsafe { CString::from_vec_unchecked(text.into_bytes()) }
}

/// How many items the array behind `array` holds; 0 for NULL.
///
/// # Safety
/// `array` is NULL or a live handle.
unsafe fn len<H: Handle<Target = Items<T>>, T>(array: *const H) -> usize {
    // SAFETY: forwarded from the caller.
    unsafe { handle::get(array) }.map_or(0, |items| items.0.len())
}

/// Writes the C view of item `index` of `array` to `*item_out`.
///
/// # Safety
/// `array` is NULL or a live handle; `item_out` is NULL or writable.
unsafe fn get<H: Handle<Target = Items<T>>, T, C>(
    array: *const H,
    index: usize,
    item_out: *mut C,
    view: impl FnOnce(&T) -> C,
) -> Result<(), Error> {
    // SAFETY: item_out is NULL or writable, by this function's contract.
    let out = unsafe { item_out.as_mut() }.ok_or_else(|| invalid("item_out is NULL"))?;
    // SAFETY: array is NULL or a live handle, by this function's contract.
    let items = unsafe { handle::borrow(array, "array") }?;
    let item = items
        .0
        .get(index)
        .ok_or_else(|| invalid(format!("index {index} is out of range: the array holds {} items", items.0.len())))?;
    *out = view(item);
    Ok(())
}

/// Gives C a new array through `out` (required), which is NULL until then.
///
/// # Safety
/// `out` is NULL or writable.
pub(crate) unsafe fn hand_out<H: Boxed>(
    out: *mut *mut H,
    make: impl FnOnce() -> Result<H::Target, Error>,
) -> Result<(), Error> {
    // SAFETY: out is NULL or writable, by this function's contract.
    let out = unsafe { out.as_mut() }.ok_or_else(|| invalid("the output pointer is NULL"))?;
    *out = std::ptr::null_mut();
    *out = handle::into_raw(make()?);
    Ok(())
}

/// An array of strings (the paths a shell run wrote). Read it with
/// `aikido_strings_len` and `aikido_strings_get`; free it with
/// `aikido_strings_free`.
pub struct aikido_strings {
    _private: [u8; 0],
}

// SAFETY: aikido_strings is never constructed; its pointers are made by
// handle::into_raw of an Items<CString>.
unsafe impl Handle for aikido_strings {
    type Target = Items<CString>;
}
// SAFETY: as above; aikido_strings_free frees them.
unsafe impl Boxed for aikido_strings {}

/// A new strings array holding `strings`, in order.
#[cfg(any(feature = "shell", test))]
pub(crate) fn strings(strings: Vec<String>) -> *mut aikido_strings {
    handle::into_raw(Items::new(strings.into_iter().map(c_text)))
}

/// How many strings `strings` holds; 0 for NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_strings_len(strings: *const aikido_strings) -> usize {
    // SAFETY: the caller passes NULL or a live handle.
    boundary::value(|| unsafe { len(strings) })
}

/// Writes string `index` of `strings` to `*item_out` (required): a
/// NUL-terminated UTF-8 string borrowed from the array until it is freed.
/// `AIKIDO_ERR_INVALID_INPUT` for NULL arguments or an index past the end.
#[no_mangle]
pub unsafe extern "C" fn aikido_strings_get(
    strings: *const aikido_strings,
    index: usize,
    item_out: *mut *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_strings_get", error_out, || {
        // SAFETY: the caller passes NULL or a live handle, and NULL or a writable pointer.
        unsafe { get(strings, index, item_out, |text: &CString| text.as_ptr()) }
    })
}

/// Frees a strings array; the strings read from it go with it. NULL does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_strings_free(strings: *mut aikido_strings) {
    // SAFETY: made by the library, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(strings) })
}

/// The tool calls of a model reply, from `aikido_tool_calls_read`. Read it
/// with `aikido_tool_calls_len` and `aikido_tool_calls_get`; free it with
/// `aikido_tool_calls_free`.
pub struct aikido_tool_calls {
    _private: [u8; 0],
}

/// One parsed call, kept as C strings.
pub(crate) struct CallStrings {
    id: CString,
    name: CString,
    arguments: CString,
}

// SAFETY: aikido_tool_calls is never constructed; its pointers are made by
// handle::into_raw of an Items<CallStrings>.
unsafe impl Handle for aikido_tool_calls {
    type Target = Items<CallStrings>;
}
// SAFETY: as above; aikido_tool_calls_free frees them.
unsafe impl Boxed for aikido_tool_calls {}

/// The array for the calls the core parsed.
pub(crate) fn tool_calls(calls: Vec<ParsedCall>) -> Items<CallStrings> {
    Items::new(calls.into_iter().map(|call| CallStrings {
        id: c_text(call.id),
        name: c_text(call.name),
        arguments: c_text(call.arguments),
    }))
}

/// How many calls `calls` holds; 0 for NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_tool_calls_len(calls: *const aikido_tool_calls) -> usize {
    // SAFETY: the caller passes NULL or a live handle.
    boundary::value(|| unsafe { len(calls) })
}

/// Fills `*call_out` (required) with call `index` of `calls`, ready for
/// `aikido_registry_dispatch`: `id` (empty when the provider gave none),
/// `name` and `arguments` (the arguments' JSON text, also NUL-terminated)
/// are borrowed from the array until it is freed.
/// `AIKIDO_ERR_INVALID_INPUT` for NULL arguments or an index past the end.
#[no_mangle]
pub unsafe extern "C" fn aikido_tool_calls_get(
    calls: *const aikido_tool_calls,
    index: usize,
    call_out: *mut aikido_tool_call,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_tool_calls_get", error_out, || {
        // SAFETY: the caller passes NULL or a live handle, and NULL or a writable call.
        unsafe {
            get(calls, index, call_out, |call: &CallStrings| aikido_tool_call {
                id: call.id.as_ptr(),
                name: call.name.as_ptr(),
                arguments: call.arguments.as_ptr(),
                arguments_len: call.arguments.as_bytes().len(),
            })
        }
    })
}

/// Frees a calls array; the calls read from it go with it. NULL does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_tool_calls_free(calls: *mut aikido_tool_calls) {
    // SAFETY: made by aikido_tool_calls_read, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(calls) })
}

#[cfg(feature = "storage")]
pub use self::storage::*;

/// The storage's arrays: directory entries and changes.
#[cfg(feature = "storage")]
mod storage {
    use std::ffi::{c_char, CString};

    use super::{c_text, get, len, Items};
    use crate::ffi::boundary;
    use crate::ffi::handle::{self, Boxed, Handle};
    use crate::ffi::status::aikido_status;
    use crate::storage::{Change, ChangeKind, DirEntry};

    /// A path an overlay or a dry run added.
    pub const AIKIDO_CHANGE_ADDED: i32 = 0;
    /// A path an overlay or a dry run changed.
    pub const AIKIDO_CHANGE_MODIFIED: i32 = 1;
    /// A path an overlay or a dry run removed (a removed directory is one
    /// change).
    pub const AIKIDO_CHANGE_DELETED: i32 = 2;

    /// One entry of a directory, from `aikido_dir_entries_get`.
    #[repr(C)]
    pub struct aikido_dir_entry {
        /// The entry's name (not its path): NUL-terminated UTF-8, borrowed
        /// from the array until it is freed.
        pub name: *const c_char,
        /// `AIKIDO_FILE_KIND_FILE`, `_DIRECTORY` or `_SYMLINK`, as
        /// `aikido_storage_stat` reports (a symlink is not followed).
        pub kind: i32,
    }

    /// The entries of a directory, from `aikido_storage_entries`, sorted by
    /// name. Read it with `aikido_dir_entries_len` and
    /// `aikido_dir_entries_get`; free it with `aikido_dir_entries_free`.
    pub struct aikido_dir_entries {
        _private: [u8; 0],
    }

    // SAFETY: aikido_dir_entries is never constructed; its pointers are made
    // by handle::into_raw of an Items<(CString, i32)>.
    unsafe impl Handle for aikido_dir_entries {
        type Target = Items<(CString, i32)>;
    }
    // SAFETY: as above; aikido_dir_entries_free frees them.
    unsafe impl Boxed for aikido_dir_entries {}

    /// The array for the entries the core listed.
    pub(crate) fn dir_entries(entries: Vec<DirEntry>) -> Items<(CString, i32)> {
        Items::new(entries.into_iter().map(|entry| (c_text(entry.name), crate::ffi::storage::kind_code(entry.kind))))
    }

    /// How many entries `entries` holds; 0 for NULL.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_dir_entries_len(entries: *const aikido_dir_entries) -> usize {
        // SAFETY: the caller passes NULL or a live handle.
        boundary::value(|| unsafe { len(entries) })
    }

    /// Fills `*entry_out` (required) with entry `index` of `entries`.
    /// `AIKIDO_ERR_INVALID_INPUT` for NULL arguments or an index past the end.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_dir_entries_get(
        entries: *const aikido_dir_entries,
        index: usize,
        entry_out: *mut aikido_dir_entry,
        error_out: *mut *mut c_char,
    ) -> aikido_status {
        boundary::status("aikido_dir_entries_get", error_out, || {
            // SAFETY: the caller passes NULL or a live handle, and NULL or a writable entry.
            unsafe {
                get(entries, index, entry_out, |(name, kind): &(CString, i32)| aikido_dir_entry {
                    name: name.as_ptr(),
                    kind: *kind,
                })
            }
        })
    }

    /// Frees an entries array; the names read from it go with it. NULL does
    /// nothing.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_dir_entries_free(entries: *mut aikido_dir_entries) {
        // SAFETY: made by aikido_storage_entries, freed once, by the C contract.
        boundary::value(|| unsafe { handle::free(entries) })
    }

    /// One path an overlay or a dry run changed, from `aikido_changes_get`.
    #[repr(C)]
    pub struct aikido_change {
        /// The virtual path: NUL-terminated UTF-8, borrowed from the array
        /// until it is freed.
        pub path: *const c_char,
        /// `AIKIDO_CHANGE_ADDED`, `_MODIFIED` or `_DELETED`.
        pub change: i32,
    }

    /// What an overlay or a dry run changed, from `aikido_storage_changes`,
    /// sorted by path. Read it with `aikido_changes_len` and
    /// `aikido_changes_get`; free it with `aikido_changes_free`.
    pub struct aikido_changes {
        _private: [u8; 0],
    }

    // SAFETY: aikido_changes is never constructed; its pointers are made by
    // handle::into_raw of an Items<(CString, i32)>.
    unsafe impl Handle for aikido_changes {
        type Target = Items<(CString, i32)>;
    }
    // SAFETY: as above; aikido_changes_free frees them.
    unsafe impl Boxed for aikido_changes {}

    /// The array for the changes the core found.
    pub(crate) fn changes(changes: Vec<Change>) -> Items<(CString, i32)> {
        Items::new(changes.into_iter().map(|change| {
            let code = match change.kind {
                ChangeKind::Added => AIKIDO_CHANGE_ADDED,
                ChangeKind::Modified => AIKIDO_CHANGE_MODIFIED,
                ChangeKind::Deleted => AIKIDO_CHANGE_DELETED,
            };
            (c_text(change.path), code)
        }))
    }

    /// How many changes `changes` holds; 0 for NULL.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_changes_len(changes: *const aikido_changes) -> usize {
        // SAFETY: the caller passes NULL or a live handle.
        boundary::value(|| unsafe { len(changes) })
    }

    /// Fills `*change_out` (required) with change `index` of `changes`.
    /// `AIKIDO_ERR_INVALID_INPUT` for NULL arguments or an index past the end.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_changes_get(
        changes: *const aikido_changes,
        index: usize,
        change_out: *mut aikido_change,
        error_out: *mut *mut c_char,
    ) -> aikido_status {
        boundary::status("aikido_changes_get", error_out, || {
            // SAFETY: the caller passes NULL or a live handle, and NULL or a writable change.
            unsafe {
                get(changes, index, change_out, |(path, change): &(CString, i32)| aikido_change {
                    path: path.as_ptr(),
                    change: *change,
                })
            }
        })
    }

    /// Frees a changes array; the paths read from it go with it. NULL does
    /// nothing.
    #[no_mangle]
    pub unsafe extern "C" fn aikido_changes_free(changes: *mut aikido_changes) {
        // SAFETY: made by aikido_storage_changes, freed once, by the C contract.
        boundary::value(|| unsafe { handle::free(changes) })
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;
    use std::ptr;

    use super::*;
    use crate::ffi::dialect::{aikido_tool_calls_read, AIKIDO_DIALECT_OPENAI_CHAT};
    use crate::ffi::status::{aikido_string_free, AIKIDO_ERR_INVALID_INPUT, AIKIDO_OK};

    /// The message of a failed call, freed.
    fn message(error: *mut c_char) -> String {
        assert!(!error.is_null());
        // SAFETY: a string the library made, freed once here.
        let text = unsafe { CStr::from_ptr(error) }.to_str().unwrap().to_owned();
        // SAFETY: as above.
        unsafe { aikido_string_free(error) };
        text
    }

    /// The text of a string borrowed from an array.
    fn text<'a>(text: *const c_char) -> &'a str {
        // SAFETY: a live NUL-terminated string from a live array.
        unsafe { CStr::from_ptr(text) }.to_str().unwrap()
    }

    #[test]
    fn tool_calls_come_as_structs_ready_for_dispatch_and_bad_indexes_are_refused() {
        let reply = r#"{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}},{"id":"c2","type":"function","function":{"name":"n\u0000ul","arguments":""}}]}"#;
        let mut calls = ptr::null_mut();
        let mut error = ptr::null_mut();
        // SAFETY: reply is readable for its length; the outputs are writable.
        let status = unsafe {
            aikido_tool_calls_read(
                AIKIDO_DIALECT_OPENAI_CHAT,
                reply.as_ptr().cast(),
                reply.len(),
                &mut calls,
                &mut error,
            )
        };
        assert_eq!(status, AIKIDO_OK);
        assert!(error.is_null());
        // SAFETY: calls is live until freed at the end; each call is read while it lives.
        unsafe {
            assert_eq!(aikido_tool_calls_len(calls), 2);
            let mut call =
                aikido_tool_call { id: ptr::null(), name: ptr::null(), arguments: ptr::null(), arguments_len: 0 };
            assert_eq!(aikido_tool_calls_get(calls, 0, &mut call, ptr::null_mut()), AIKIDO_OK);
            assert_eq!((text(call.id), text(call.name), text(call.arguments)), ("c1", "add", r#"{"a":1}"#));
            assert_eq!(call.arguments_len, 7);
            assert_eq!(aikido_tool_calls_get(calls, 1, &mut call, ptr::null_mut()), AIKIDO_OK);
            assert_eq!((text(call.name), call.arguments_len), ("n\u{FFFD}ul", 0));
            assert_eq!(aikido_tool_calls_get(calls, 2, &mut call, &mut error), AIKIDO_ERR_INVALID_INPUT);
            assert_eq!(message(error), "aikido/tools: invalid input: index 2 is out of range: the array holds 2 items");
            assert_eq!(aikido_tool_calls_get(calls, 0, ptr::null_mut(), &mut error), AIKIDO_ERR_INVALID_INPUT);
            assert_eq!(message(error), "aikido/tools: invalid input: item_out is NULL");
            assert_eq!(aikido_tool_calls_get(ptr::null(), 0, &mut call, &mut error), AIKIDO_ERR_INVALID_INPUT);
            assert_eq!(message(error), "aikido/tools: invalid input: array is NULL");
            assert_eq!(aikido_tool_calls_len(ptr::null()), 0);
            aikido_tool_calls_free(calls);
            aikido_tool_calls_free(ptr::null_mut());
        }
        // A reply that cannot be read leaves the output NULL.
        calls = ptr::dangling_mut::<aikido_tool_calls>();
        // SAFETY: as above.
        let status =
            unsafe { aikido_tool_calls_read(AIKIDO_DIALECT_OPENAI_CHAT, c"{".as_ptr(), 1, &mut calls, &mut error) };
        assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
        assert!(calls.is_null());
        drop(message(error));
        // SAFETY: NULL output pointer, valid reply.
        let status = unsafe {
            aikido_tool_calls_read(AIKIDO_DIALECT_OPENAI_CHAT, c"{}".as_ptr(), 2, ptr::null_mut(), &mut error)
        };
        assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
        assert_eq!(message(error), "aikido/tools: invalid input: the output pointer is NULL");
    }

    #[test]
    fn strings_arrays_keep_their_order_and_refuse_bad_indexes() {
        let strings = strings(vec!["/b".to_owned(), "/a".to_owned()]);
        let mut item = ptr::null();
        let mut error = ptr::null_mut();
        // SAFETY: strings is live until freed at the end.
        unsafe {
            assert_eq!(aikido_strings_len(strings), 2);
            assert_eq!(aikido_strings_get(strings, 1, &mut item, ptr::null_mut()), AIKIDO_OK);
            assert_eq!(text(item), "/a");
            assert_eq!(aikido_strings_get(strings, usize::MAX, &mut item, &mut error), AIKIDO_ERR_INVALID_INPUT);
            assert_eq!(
                message(error),
                format!("aikido/tools: invalid input: index {} is out of range: the array holds 2 items", usize::MAX)
            );
            aikido_strings_free(strings);
        }
    }

    #[cfg(feature = "storage")]
    #[test]
    fn entries_and_changes_come_as_structs_with_the_c_codes() {
        use crate::ffi::storage::*;
        let lower = aikido_storage_memory_new(0, 0);
        // SAFETY: every handle is live until freed below; every output writable.
        unsafe {
            assert_eq!(aikido_storage_write(lower, c"/b.txt".as_ptr(), b"b".as_ptr(), 1, ptr::null_mut()), AIKIDO_OK);
            let overlay = aikido_storage_overlay_new(lower);
            assert_eq!(aikido_storage_mkdir(overlay, c"/src".as_ptr(), false, ptr::null_mut()), AIKIDO_OK);
            assert_eq!(aikido_storage_write(overlay, c"/a.txt".as_ptr(), b"a".as_ptr(), 1, ptr::null_mut()), AIKIDO_OK);
            assert_eq!(aikido_storage_remove(overlay, c"/b.txt".as_ptr(), false, ptr::null_mut()), AIKIDO_OK);
            let mut entries = ptr::null_mut();
            assert_eq!(aikido_storage_entries(overlay, c"/".as_ptr(), &mut entries, ptr::null_mut()), AIKIDO_OK);
            let mut entry = aikido_dir_entry { name: ptr::null(), kind: -1 };
            let mut listed = Vec::new();
            for index in 0..aikido_dir_entries_len(entries) {
                assert_eq!(aikido_dir_entries_get(entries, index, &mut entry, ptr::null_mut()), AIKIDO_OK);
                listed.push((text(entry.name).to_owned(), entry.kind));
            }
            assert_eq!(
                listed,
                [("a.txt".to_owned(), AIKIDO_FILE_KIND_FILE), ("src".to_owned(), AIKIDO_FILE_KIND_DIRECTORY)]
            );
            aikido_dir_entries_free(entries);
            let mut changes = ptr::null_mut();
            assert_eq!(aikido_storage_changes(overlay, &mut changes, ptr::null_mut()), AIKIDO_OK);
            let mut change = aikido_change { path: ptr::null(), change: -1 };
            let mut found = Vec::new();
            for index in 0..aikido_changes_len(changes) {
                assert_eq!(aikido_changes_get(changes, index, &mut change, ptr::null_mut()), AIKIDO_OK);
                found.push((text(change.path).to_owned(), change.change));
            }
            assert_eq!(
                found,
                [
                    ("/a.txt".to_owned(), AIKIDO_CHANGE_ADDED),
                    ("/b.txt".to_owned(), AIKIDO_CHANGE_DELETED),
                    ("/src".to_owned(), AIKIDO_CHANGE_ADDED)
                ]
            );
            aikido_changes_free(changes);
            // Errors: a plain storage has no diff, a missing folder no entries.
            let mut error = ptr::null_mut();
            changes = ptr::dangling_mut::<aikido_changes>();
            assert_eq!(aikido_storage_changes(lower, &mut changes, &mut error), AIKIDO_ERR_INVALID_INPUT);
            assert!(changes.is_null());
            assert_eq!(message(error), "aikido/tools: invalid input: only an overlay or a dry run has a diff");
            assert_ne!(aikido_storage_entries(lower, c"/nope".as_ptr(), &mut entries, &mut error), AIKIDO_OK);
            assert!(entries.is_null());
            drop(message(error));
            aikido_storage_free(overlay);
            aikido_storage_free(lower);
        }
    }
}
