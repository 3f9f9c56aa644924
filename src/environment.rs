//! The per-call context a handler receives: which session and turn the call
//! belongs to, and whether the caller has given up on it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use uuid::Uuid;

/// Per-call execution context, passed to every handler.
#[derive(Debug, Clone, Copy, Default)]
pub struct Environment<'a> {
    /// The agent session the call belongs to.
    pub session_id: &'a str,
    /// The model reply that made the call; calls of the same reply share it.
    pub turn_id: Uuid,
    /// Fired when the caller no longer wants the result. `None`: never.
    pub cancel: Option<&'a CancelToken>,
}

impl<'a> Environment<'a> {
    /// An environment for this session, with a nil turn id and no cancellation.
    pub fn new(session_id: &'a str) -> Self {
        Environment { session_id, ..Environment::default() }
    }

    /// Whether the call's cancellation token has fired. Long handlers poll it.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(CancelToken::is_fired)
    }
}

/// A cancellation flag shared between the caller and its handlers: the form
/// Go's `context.Context` takes across the C ABI. Cloning shares the flag.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that has not fired.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Fires the token. Firing twice is the same as firing once.
    pub fn fire(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether the token has fired.
    pub fn is_fired(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}
