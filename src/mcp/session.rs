//! One MCP session: what `initialize` settled, and the calls in flight.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;

use crate::CancelToken;

/// The state of one client's session: the negotiated protocol version and
/// the cancellation tokens of its running calls. Its id is the
/// [`Environment::session_id`](crate::Environment) of its calls.
#[derive(Debug)]
pub struct Session {
    id: String,
    /// `None` until `initialize` was answered.
    version: Mutex<Option<&'static str>>,
    /// Running calls by request id (the id's JSON text, so 1 and "1" differ).
    in_flight: Mutex<FxHashMap<String, CancelToken>>,
    /// Open 2026-07-28 `subscriptions/listen` streams: the request id's JSON
    /// text, and whether it asked for `notifications/tools/list_changed`.
    listeners: Mutex<Vec<(String, bool)>>,
    /// Set by [`Session::end`]: no call starts any more.
    ended: AtomicBool,
}

/// How many `subscriptions/listen` streams one session may hold open.
pub const MAX_LISTENERS: usize = 16;

impl Session {
    /// A session that has not been initialized, whose calls run with this
    /// session id.
    pub fn new(id: impl Into<String>) -> Self {
        Session {
            id: id.into(),
            version: Mutex::new(None),
            in_flight: Mutex::new(FxHashMap::default()),
            listeners: Mutex::new(Vec::new()),
            ended: AtomicBool::new(false),
        }
    }

    /// The session id the calls run with.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The protocol version `initialize` settled, if it has run.
    pub fn protocol_version(&self) -> Option<&'static str> {
        *self.version.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn set_protocol_version(&self, version: &'static str) {
        *self.version.lock().unwrap_or_else(PoisonError::into_inner) = Some(version);
    }

    /// How many calls are running (or waiting for a worker).
    pub fn calls_in_flight(&self) -> usize {
        self.in_flight.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Registers a running call; the error message when the id is in use
    /// already or the session has ended.
    pub(crate) fn begin_call(&self, key: &str, token: &CancelToken) -> Result<(), &'static str> {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(PoisonError::into_inner);
        // Read under the lock `end` takes: a call begins before the end (and
        // is cancelled by it) or not at all.
        if self.is_ended() {
            return Err("Invalid Request: the session has ended (DELETE); send initialize again");
        }
        if in_flight.contains_key(key) {
            return Err("Invalid Request: a call with this id is still running");
        }
        in_flight.insert(key.to_owned(), token.clone());
        Ok(())
    }

    /// Ends the session: every running call is cancelled and no call
    /// starts any more (the rest of a batch is answered with an error).
    pub fn end(&self) {
        let in_flight = self.in_flight.lock().unwrap_or_else(PoisonError::into_inner);
        self.ended.store(true, Ordering::Release);
        for token in in_flight.values() {
            token.fire();
        }
    }

    /// Whether [`Session::end`] was called.
    pub fn is_ended(&self) -> bool {
        self.ended.load(Ordering::Acquire)
    }

    pub(crate) fn end_call(&self, key: &str) {
        self.in_flight.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
    }

    /// Fires the token of the call with this request id (its JSON text);
    /// false when no such call runs.
    pub(crate) fn cancel(&self, key: &str) -> bool {
        match self.in_flight.lock().unwrap_or_else(PoisonError::into_inner).get(key) {
            Some(token) => {
                token.fire();
                true
            }
            None => false,
        }
    }

    /// Fires the token of every running call.
    pub fn cancel_all(&self) {
        for token in self.in_flight.lock().unwrap_or_else(PoisonError::into_inner).values() {
            token.fire();
        }
    }

    /// Opens a `subscriptions/listen` stream; false when the id is open
    /// already or [`MAX_LISTENERS`] are.
    pub(crate) fn add_listener(&self, key: &str, tools: bool) -> bool {
        let mut listeners = self.listeners.lock().unwrap_or_else(PoisonError::into_inner);
        if listeners.len() >= MAX_LISTENERS || listeners.iter().any(|(open, _)| open == key) {
            return false;
        }
        listeners.push((key.to_owned(), tools));
        true
    }

    /// Closes a `subscriptions/listen` stream; false when it was not open.
    pub(crate) fn remove_listener(&self, key: &str) -> bool {
        let mut listeners = self.listeners.lock().unwrap_or_else(PoisonError::into_inner);
        let before = listeners.len();
        listeners.retain(|(open, _)| open != key);
        listeners.len() != before
    }

    /// Whether the stream `key` is open.
    pub(crate) fn is_listening(&self, key: &str) -> bool {
        self.listeners.lock().unwrap_or_else(PoisonError::into_inner).iter().any(|(open, _)| open == key)
    }

    /// The open streams that asked for `notifications/tools/list_changed`.
    pub(crate) fn tool_listeners(&self) -> Vec<String> {
        let listeners = self.listeners.lock().unwrap_or_else(PoisonError::into_inner);
        listeners.iter().filter(|(_, tools)| *tools).map(|(key, _)| key.clone()).collect()
    }

    /// Closes every stream, returning their ids.
    pub(crate) fn take_listeners(&self) -> Vec<String> {
        let mut listeners = self.listeners.lock().unwrap_or_else(PoisonError::into_inner);
        listeners.drain(..).map(|(key, _)| key).collect()
    }
}
