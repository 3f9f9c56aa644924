//! Typed handles: the one way a C pointer becomes a Rust value and back.
//!
//! Each opaque C type (`aikido_registry`, `aikido_storage`, …) names the Rust
//! type it stands for once, in its [`Handle`] impl. Every cast goes through
//! the functions here, which take the C type and give its target, so a
//! pointer of one handle type cannot be read as another type's value: the
//! wrong cast does not compile. A [`Boxed`] handle is made by [`into_raw`]
//! and freed by [`free`]; other handles (a reply, a token lent to a handler)
//! are only borrowed.

use super::invalid;
use crate::error::Error;

/// An opaque C type standing for a value of type `Target`: a `*const Self`
/// that is not NULL always points to a live `Target`.
///
/// # Safety
/// Every non-NULL pointer of type `*const Self` or `*mut Self` that reaches
/// Rust is a pointer to a `Target` (made by [`into_raw`] or [`from_ref`],
/// or one the C contract says is such), so implement it only for a
/// zero-sized, never constructed C type, once, for the type its pointers are
/// made from.
pub(crate) unsafe trait Handle: Sized {
    /// The Rust value behind the pointer.
    type Target;
}

/// A handle that owns its target in a `Box`: made by [`into_raw`] and freed
/// once by [`free`].
///
/// # Safety
/// As [`Handle`]; and every pointer of this type that C may free was made by
/// [`into_raw`].
pub(crate) unsafe trait Boxed: Handle {}

/// Gives C a new handle owning `value`.
pub(crate) fn into_raw<H: Boxed>(value: H::Target) -> *mut H {
    Box::into_raw(Box::new(value)).cast()
}

/// A pointer to lend C for a value it does not own (a token in a handler's
/// environment).
pub(crate) fn from_ref<H: Handle>(value: &H::Target) -> *const H {
    (value as *const H::Target).cast()
}

/// A pointer to lend C for a value it may change during one call (a
/// handler's reply).
pub(crate) fn from_mut<H: Handle>(value: &mut H::Target) -> *mut H {
    (value as *mut H::Target).cast()
}

/// The value behind a handle; NULL is `None`.
///
/// # Safety
/// `handle` is NULL or a live handle (not freed) whose target outlives `'a`.
pub(crate) unsafe fn get<'a, H: Handle>(handle: *const H) -> Option<&'a H::Target> {
    // SAFETY: by the Handle contract a non-NULL pointer points to a live
    // Target; the caller promises it lives for 'a.
    unsafe { handle.cast::<H::Target>().as_ref() }
}

/// The value behind a handle; NULL is the caller's misuse, named `what`.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn borrow<'a, H: Handle>(handle: *const H, what: &str) -> Result<&'a H::Target, Error> {
    // SAFETY: forwarded from the caller.
    unsafe { get(handle) }.ok_or_else(|| invalid(format!("{what} is NULL")))
}

/// The value behind a handle, to change; NULL is `None`.
///
/// # Safety
/// As [`get`], and nothing else uses the target during `'a`.
pub(crate) unsafe fn get_mut<'a, H: Handle>(handle: *mut H) -> Option<&'a mut H::Target> {
    // SAFETY: by the Handle contract, and the caller's promise of exclusive use.
    unsafe { handle.cast::<H::Target>().as_mut() }
}

/// Frees a handle made by [`into_raw`]. NULL does nothing.
///
/// # Safety
/// `handle` is NULL or was made by [`into_raw`] and is freed once, with no
/// use of it running or following.
pub(crate) unsafe fn free<H: Boxed>(handle: *mut H) {
    if !handle.is_null() {
        // SAFETY: made by into_raw (Box::into_raw of a Target), freed once.
        drop(unsafe { Box::from_raw(handle.cast::<H::Target>()) });
    }
}
