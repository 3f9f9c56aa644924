//! The one place a C (pointer, length) or (pointer, count) pair becomes a
//! Rust slice.
//!
//! No object is larger than `isize::MAX` bytes (`PTRDIFF_MAX` in C), so a
//! length past that, or a count whose items pass it, is one no buffer can
//! have: building a slice from it is undefined behaviour in Rust itself, and
//! reading it crashes the caller. [`slice`] refuses such a pair with a
//! message naming the length parameter before a byte is read, and so does
//! every other way in here. Every length and count of the C surface goes
//! through this module: the tests of `src/ffi/lengths.rs` call every length
//! of the header with such values, and refuse a slice built from raw parts
//! anywhere else in `src/ffi`.

use std::mem::{align_of, size_of};

use super::invalid;
use crate::error::Error;

/// The C names of a pair, for messages: the pointer (`message`,
/// `call->arguments`) and its length (`message_len`, `len`).
#[derive(Clone, Copy)]
pub(crate) struct Pair<'n> {
    pub(crate) pointer: &'n str,
    pub(crate) length: &'n str,
}

/// The pair `pointer` with its length `length`.
pub(crate) const fn pair<'n>(pointer: &'n str, length: &'n str) -> Pair<'n> {
    Pair { pointer, length }
}

/// The largest object there can be, in bytes.
const MAX_OBJECT_BYTES: usize = isize::MAX as usize;

/// Refuses a count of `T` that no object could hold at `ptr`: more than
/// `isize::MAX` bytes, a count whose bytes overflow, a pointer not aligned
/// for `T`, or a range that would pass the end of the address space. Reads
/// nothing: only the two numbers are looked at.
pub(crate) fn check<T>(ptr: *const T, len: usize, names: Pair<'_>) -> Result<(), Error> {
    let bytes = len.checked_mul(size_of::<T>()).filter(|&bytes| bytes <= MAX_OBJECT_BYTES);
    let Some(bytes) = bytes else {
        return Err(invalid(if size_of::<T>() == 1 {
            format!("{} is {len}, more than any buffer can hold (at most {MAX_OBJECT_BYTES} bytes)", names.length)
        } else {
            format!(
                "{} is {len}, more than any array can hold (at most {} items of {} bytes)",
                names.length,
                MAX_OBJECT_BYTES / size_of::<T>(),
                size_of::<T>()
            )
        }));
    };
    if ptr.is_null() {
        return if len == 0 {
            Ok(())
        } else {
            Err(invalid(format!("{} is NULL but its length is {len}", names.pointer)))
        };
    }
    let address = ptr as usize;
    if !address.is_multiple_of(align_of::<T>()) {
        return Err(invalid(format!("{} is not aligned for its items ({} bytes)", names.pointer, align_of::<T>())));
    }
    if address.checked_add(bytes).is_none() {
        return Err(invalid(format!(
            "{} with {} {len} passes the end of the address space",
            names.pointer, names.length
        )));
    }
    Ok(())
}

/// `len` items of `T` at `ptr`, checked by [`check`]; (NULL, 0) is empty.
///
/// # Safety
/// `ptr` is NULL or valid for reads of `len` items that outlive `'a`
/// whenever `len` is a length an object can have (any other is refused).
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, names: Pair<'_>) -> Result<&'a [T], Error> {
    check(ptr, len, names)?;
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: check made sure ptr is not NULL, aligned, and its len items
    // fit an object and the address space; that they are readable for 'a is
    // this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Frees `len + extra` bytes at `data` that the library allocated as one
/// boxed slice and handed out with their length `len`. NULL, and a length
/// no allocation can have (a caller's corrupted struct), free nothing.
///
/// # Safety
/// `data` is NULL or was allocated by the library as a boxed `[u8]` of
/// `len + extra` bytes, and is freed once.
#[cfg(feature = "storage")]
pub(crate) unsafe fn free_boxed_bytes(data: *mut u8, len: usize, extra: usize, names: Pair<'_>) {
    let Some(total) = len.checked_add(extra) else { return };
    if data.is_null() || check(data.cast_const(), total, names).is_err() {
        return;
    }
    // SAFETY: made as a boxed slice of total bytes, freed once, by this
    // function's contract.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(data, total)) });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<(), Error>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn lengths_no_object_can_have_are_refused_by_name() {
        let byte = b"x".as_ptr();
        for len in [usize::MAX, 1 << 63, usize::MAX - 1, MAX_OBJECT_BYTES + 1] {
            assert!(
                message(check(byte, len, pair("message", "message_len"))).ends_with(&format!(
                    "message_len is {len}, more than any buffer can hold (at most {MAX_OBJECT_BYTES} bytes)"
                )),
                "{len}"
            );
        }
        let items = [std::ptr::null::<u8>(); 1];
        let limit = MAX_OBJECT_BYTES / 8;
        assert!(message(check(items.as_ptr(), limit + 1, pair("values", "values_len"))).ends_with(&format!(
            "values_len is {}, more than any array can hold (at most {limit} items of 8 bytes)",
            limit + 1
        )));
        // The largest count whose bytes fit passes this check (no buffer is
        // read by it).
        assert!(check(items.as_ptr(), limit, pair("values", "values_len")).is_ok());
    }

    #[test]
    fn null_misaligned_and_wrapping_pointers_are_refused() {
        assert!(message(check(std::ptr::null::<u8>(), 3, pair("data", "len")))
            .ends_with("data is NULL but its length is 3"));
        assert!(check(std::ptr::null::<u8>(), 0, pair("data", "len")).is_ok());
        let words = [0u64; 2];
        let odd = words.as_ptr().cast::<u8>().wrapping_add(1).cast::<u64>();
        assert!(message(check(odd, 1, pair("rules", "rules_len")))
            .ends_with("rules is not aligned for its items (8 bytes)"));
        let high = (usize::MAX - 15) as *const u8;
        assert!(message(check(high, 100, pair("text", "len")))
            .ends_with("text with len 100 passes the end of the address space"));
    }
}
