//! Examples in the docs are real output: each example the header shows (it
//! comes from the doc comments in `src/ffi`) is compared here with what the
//! function returns for the situation the comment describes. When one
//! fails, the message gives the real output to paste into the doc comment
//! (then run `make header`).
#![cfg(feature = "storage")]

mod common;

use std::ffi::{CStr, CString};
use std::ptr;

use aikido::ffi::status::*;
use aikido::ffi::storage::*;
use common::take;

const HEADER: &str = include_str!("../include/aikido.h");

/// The text between the first pair of backticks that starts with `[{` in the
/// comment right above the declaration of `function` in the header.
fn documented_example(function: &str) -> String {
    let declaration = HEADER
        .lines()
        .position(|line| !line.starts_with([' ', '*', '/']) && line.contains(&format!(" {function}(")))
        .unwrap_or_else(|| panic!("{function} is not declared in include/aikido.h"));
    let comment: Vec<&str> = HEADER.lines().take(declaration).collect();
    let start = comment.iter().rposition(|line| line.trim_start().starts_with("/*")).expect("a doc comment");
    let text =
        comment[start..].iter().map(|line| line.trim_start_matches([' ', '*', '/'])).collect::<Vec<_>>().join(" ");
    let from = text.find("`[{").unwrap_or_else(|| panic!("{function}'s doc comment shows no `[{{…}}]` example")) + 1;
    let to = from + text[from..].find('`').expect("the example's closing backtick");
    text[from..to].to_owned()
}

fn c(text: &str) -> CString {
    CString::new(text).unwrap()
}

unsafe fn ok(status: aikido_status) {
    // SAFETY: aikido_status_name returns a static NUL-terminated string.
    unsafe {
        assert_eq!(CStr::from_ptr(aikido_status_name(status)).to_str().unwrap(), "AIKIDO_OK");
    }
}

#[test]
fn storage_list_example_is_real_output() {
    // The doc: an empty storage after `mkdir /src` and writing `/a.txt`,
    // listed at `/`.
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe {
        let storage = aikido_storage_memory_new(0, 0);
        ok(aikido_storage_mkdir(storage, c("/src").as_ptr(), false, ptr::null_mut()));
        ok(aikido_storage_write(storage, c("/a.txt").as_ptr(), b"hi\n".as_ptr(), 3, ptr::null_mut()));
        let mut json = ptr::null_mut();
        ok(aikido_storage_list(storage, c("/").as_ptr(), &mut json, ptr::null_mut()));
        let real = take(json);
        aikido_storage_free(storage);
        assert_eq!(
            documented_example("aikido_storage_list"),
            real,
            "aikido_storage_list's doc example; real output: {real}"
        );
    }
}

#[test]
fn storage_diff_example_is_real_output() {
    // The doc: an overlay over a storage holding `/b.txt`, after writing
    // `/a.txt` and changing `/b.txt`.
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe {
        let lower = aikido_storage_memory_new(0, 0);
        ok(aikido_storage_write(lower, c("/b.txt").as_ptr(), b"old\n".as_ptr(), 4, ptr::null_mut()));
        let overlay = aikido_storage_overlay_new(lower);
        ok(aikido_storage_write(overlay, c("/a.txt").as_ptr(), b"hi\n".as_ptr(), 3, ptr::null_mut()));
        ok(aikido_storage_write(overlay, c("/b.txt").as_ptr(), b"new\n".as_ptr(), 4, ptr::null_mut()));
        let mut json = ptr::null_mut();
        ok(aikido_storage_diff(overlay, &mut json, ptr::null_mut()));
        let real = take(json);
        aikido_storage_free(overlay);
        aikido_storage_free(lower);
        assert_eq!(
            documented_example("aikido_storage_diff"),
            real,
            "aikido_storage_diff's doc example; real output: {real}"
        );
    }
}
