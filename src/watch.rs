//! Change signals of a registry: who wants to hear that the tool table
//! changed (the MCP server, to send `notifications/tools/list_changed`).
//!
//! Kept apart from `registry.rs`, which only calls [`Watchers::notify`]
//! after each register and unregister.

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
}

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

    /// Stops a watcher; false when the id was not watching.
    pub fn unwatch(&self, id: WatchId) -> bool {
        let mut list = self.watchers.list.lock().unwrap_or_else(PoisonError::into_inner);
        let before = list.len();
        list.retain(|(watcher, _)| *watcher != id.0);
        list.len() != before
    }
}
