//! Cancellation tokens: the C form of Go's `context.Context` cancellation.

use super::boundary;
use crate::environment::CancelToken;

/// A cancellation token. Thread-safe: fire it from any thread while calls
/// that use it run. Opaque; made by `aikido_cancel_new`.
pub struct aikido_cancel {
    _private: [u8; 0],
}

/// The token behind a C pointer; NULL is no token.
///
/// # Safety
/// `cancel` is NULL or was made by `aikido_cancel_new` and not yet freed.
pub(crate) unsafe fn token<'a>(cancel: *const aikido_cancel) -> Option<&'a CancelToken> {
    cancel.cast::<CancelToken>().as_ref()
}

/// A C pointer for a token, as handlers receive it in their environment.
pub(crate) fn pointer(token: &CancelToken) -> *const aikido_cancel {
    (token as *const CancelToken).cast()
}

/// A new token that has not fired. Free it with `aikido_cancel_free`.
#[no_mangle]
pub extern "C" fn aikido_cancel_new() -> *mut aikido_cancel {
    boundary::value(|| Box::into_raw(Box::new(CancelToken::new())).cast())
}

/// Fires the token: dispatches that use it from now on return
/// `AIKIDO_ERR_CANCELLED` without running the handler, and running handlers
/// that poll it see it fired. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_fire(cancel: *const aikido_cancel) {
    // SAFETY: the caller passes NULL or a live token.
    boundary::value(|| unsafe { token(cancel) }.map_or((), CancelToken::fire))
}

/// Whether the token has fired. NULL is a token that never fires: false.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_is_fired(cancel: *const aikido_cancel) -> bool {
    // SAFETY: the caller passes NULL or a live token.
    boundary::value(|| unsafe { token(cancel) }.is_some_and(CancelToken::is_fired))
}

/// Frees a token. It must not be in use by a running dispatch. NULL does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_cancel_free(cancel: *mut aikido_cancel) {
    boundary::value(|| {
        if !cancel.is_null() {
            // SAFETY: made by aikido_cancel_new, freed once.
            drop(unsafe { Box::from_raw(cancel.cast::<CancelToken>()) });
        }
    })
}
