//! Change signals of a registry: who wants to hear that the tool table
//! changed (the MCP server, to send `notifications/tools/list_changed`).
//!
//! Kept apart from `registry.rs`, which only calls [`Watchers::notify`]
//! after each register and unregister.
//!
//! Also who wants to hear that a session ended ([`Registry::end_session`]):
//! tools that keep something per session (the `bash` tool's shells) drop
//! it then.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::Registry;

/// A watcher's callback: runs on the thread that changed the registry,
/// after the change, with no registry lock held. It should be quick.
type Callback = Arc<dyn Fn() + Send + Sync>;

/// The watchers of one registry.
#[derive(Default)]
pub(crate) struct Watchers {
    next_id: AtomicU64,
    list: Mutex<Vec<(u64, Callback)>>,
    /// Told the id of each session that ended.
    session_ends: Mutex<Vec<(u64, SessionCallback)>>,
}

/// A session-end callback: runs on the thread that ended the session.
type SessionCallback = Arc<dyn Fn(&str) + Send + Sync>;

impl Watchers {
    /// Tells every watcher that the table changed.
    pub(crate) fn notify(&self) {
        let callbacks: Vec<Callback> = {
            let list = self.list.lock().unwrap_or_else(PoisonError::into_inner);
            if list.is_empty() {
                return;
            }
            list.iter().map(|(_, callback)| callback.clone()).collect()
        };
        for callback in callbacks {
            callback();
        }
    }
}

/// Identifies one watcher of a registry, for [`Registry::unwatch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WatchId(u64);

impl Registry {
    /// Calls `on_change` after every successful register and unregister,
    /// on the thread that made the change, with no registry lock held (it
    /// may read the registry). Returns the id that [`Registry::unwatch`]
    /// takes.
    pub fn watch(&self, on_change: impl Fn() + Send + Sync + 'static) -> WatchId {
        let id = self.watchers.next_id.fetch_add(1, Ordering::Relaxed);
        self.watchers.list.lock().unwrap_or_else(PoisonError::into_inner).push((id, Arc::new(on_change)));
        WatchId(id)
    }

    /// Stops a watcher (of changes or of session ends); false when the id
    /// was not watching.
    pub fn unwatch(&self, id: WatchId) -> bool {
        let mut list = self.watchers.list.lock().unwrap_or_else(PoisonError::into_inner);
        let before = list.len();
        list.retain(|(watcher, _)| *watcher != id.0);
        let mut ends = self.watchers.session_ends.lock().unwrap_or_else(PoisonError::into_inner);
        let ends_before = ends.len();
        ends.retain(|(watcher, _)| *watcher != id.0);
        list.len() != before || ends.len() != ends_before
    }

    /// Calls `on_end` with the session id each time [`Registry::end_session`]
    /// is called, on that thread: a tool that keeps state per session (the
    /// `bash` tool's shell) drops it. Returns the id [`Registry::unwatch`] takes.
    pub fn on_session_end(&self, on_end: impl Fn(&str) + Send + Sync + 'static) -> WatchId {
        let id = self.watchers.next_id.fetch_add(1, Ordering::Relaxed);
        self.watchers.session_ends.lock().unwrap_or_else(PoisonError::into_inner).push((id, Arc::new(on_end)));
        WatchId(id)
    }

    /// Says that the session `session_id` is over (an MCP client sent
    /// DELETE, a stateless request was answered): every
    /// [`Registry::on_session_end`] callback drops what it kept for it. A
    /// later call with the same id starts afresh.
    pub fn end_session(&self, session_id: &str) {
        let callbacks: Vec<SessionCallback> = {
            let list = self.watchers.session_ends.lock().unwrap_or_else(PoisonError::into_inner);
            list.iter().map(|(_, callback)| callback.clone()).collect()
        };
        for callback in callbacks {
            callback(session_id);
        }
    }
}
