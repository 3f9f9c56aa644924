//! Cancellation tokens: the C form of Go's `context.Context` cancellation.

use super::boundary;
use super::handle::{self, Boxed, Handle};
use crate::environment::CancelToken;

/// A cancellation token. Thread-safe: fire it from any thread while calls
/// that use it run. Opaque; made by `aikido_cancel_new`.
pub struct aikido_cancel {
    _private: [u8; 0],
}

// SAFETY: aikido_cancel is never constructed; its pointers are made by
// aikido_cancel_new (a Box<CancelToken>) or lent to handlers by
// handle::from_ref (a &CancelToken that outlives the call).
unsafe impl Handle for aikido_cancel {
    type Target = CancelToken;
}
// SAFETY: C frees only those made by aikido_cancel_new, with aikido_cancel_free.
unsafe impl Boxed for aikido_cancel {}

/// A new token that has not fired. Free it with `aikido_cancel_free`.
#[no_mangle]
pub extern "C" fn aikido_cancel_new() -> *mut aikido_cancel {
    boundary::value(|| handle::into_raw(CancelToken::new()))
}

/// Fires the token: dispatches that use it from now on return
/// `AIKIDO_ERR_CANCELLED` without running the handler, and running handlers
/// that poll it see it fired. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_fire(cancel: *const aikido_cancel) {
    // SAFETY: the caller passes NULL or a live token.
    boundary::value(|| unsafe { handle::get(cancel) }.map_or((), CancelToken::fire))
}

/// Whether the token has fired. NULL is a token that never fires: false.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_is_fired(cancel: *const aikido_cancel) -> bool {
    // SAFETY: the caller passes NULL or a live token.
    boundary::value(|| unsafe { handle::get(cancel) }.is_some_and(CancelToken::is_fired))
}

/// Frees a token. It must not be in use by a running dispatch. NULL does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_free(cancel: *mut aikido_cancel) {
    // SAFETY: made by aikido_cancel_new, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(cancel) })
}
