//! Sessions of the `bash` tool kept in a folder (`aikido-mcp --sessions`):
//! each session's snapshot ([`crate::shell::snapshot`]) is written atomically after
//! every call and read back when the session is next used, so a restarted
//! server goes on where the last finished call left it.
//!
//! A session's file is `<hex of its name>.session`. After a crash (even a
//! SIGKILL during a write) each file is the snapshot of the last call that
//! finished: it is written to a temporary file, synced and renamed over the
//! old one ([`super::write_atomically`]); a temporary file left
//! behind is removed on the next start.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use rustc_hash::FxHashMap;

use crate::shell::{SessionKeeper, Shell};

/// The most sessions a folder keeps by default; past it, the least
/// recently saved file is removed.
pub const DEFAULT_MAX_SESSIONS: usize = 64;
/// How long a session's file is kept by default after its last call.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 3600);
/// Names longer than this (in bytes) are not kept: a file name holds
/// twice as many hex digits.
const MAX_NAME: usize = 100;
const SUFFIX: &str = ".session";

/// A folder of session snapshots, with a cap on their number and age.
pub struct SessionStore {
    folder: PathBuf,
    max_sessions: usize,
    max_age: Duration,
    /// Session ids saved under another name (the stdio session of a server,
    /// whose id is new at every start, is saved as `stdio`).
    aliases: Mutex<FxHashMap<String, String>>,
}

impl SessionStore {
    /// The store in `folder` (made when missing). Files older than
    /// `max_age`, the oldest past `max_sessions`, and temporary files a
    /// crash left behind are removed now.
    pub fn open(folder: impl Into<PathBuf>, max_sessions: usize, max_age: Duration) -> std::io::Result<SessionStore> {
        let folder = folder.into();
        std::fs::create_dir_all(&folder)?;
        let store = SessionStore { folder, max_sessions: max_sessions.max(1), max_age, aliases: Mutex::default() };
        for entry in std::fs::read_dir(&store.folder)? {
            let path = entry?.path();
            if path.extension().is_some_and(|extension| extension == "tmp") {
                let _ = std::fs::remove_file(&path);
            }
        }
        store.prune();
        Ok(store)
    }

    /// The folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Saves and restores the session `session_id` under `name` instead.
    pub fn alias(&self, session_id: &str, name: &str) {
        self.aliases.lock().unwrap_or_else(|e| e.into_inner()).insert(session_id.to_owned(), name.to_owned());
    }

    fn file(&self, session_id: &str) -> Option<PathBuf> {
        let aliases = self.aliases.lock().unwrap_or_else(|e| e.into_inner());
        let name = aliases.get(session_id).map_or(session_id, String::as_str);
        if name.is_empty() || name.len() > MAX_NAME {
            return None;
        }
        let hex: String = name.bytes().map(|byte| format!("{byte:02x}")).collect();
        Some(self.folder.join(format!("{hex}{SUFFIX}")))
    }

    /// Writes the session's snapshot (atomically). A failure is returned
    /// for the caller to report; the previous file stays whole.
    fn save_shell(&self, session_id: &str, shell: &Shell) -> Result<(), String> {
        let Some(file) = self.file(session_id) else { return Ok(()) };
        let bytes = shell.snapshot().map_err(|error| error.to_string())?;
        super::write_atomically(&file, &bytes).map_err(|error| format!("{}: {error}", file.display()))?;
        self.prune();
        Ok(())
    }

    /// The saved snapshot of a session, if any.
    fn load_bytes(&self, session_id: &str) -> Option<Vec<u8>> {
        std::fs::read(self.file(session_id)?).ok()
    }

    /// The most recently saved snapshot: its files are the latest state of
    /// a storage the sessions share.
    fn newest_bytes(&self) -> Option<Vec<u8>> {
        let newest = self.files().into_iter().max_by_key(|(_, modified)| *modified)?;
        std::fs::read(newest.0).ok()
    }

    /// The session files and when each was last written.
    fn files(&self) -> Vec<(PathBuf, SystemTime)> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else { return Vec::new() };
        entries
            .filter_map(|entry| {
                let entry = entry.ok()?;
                let path = entry.path();
                if !path.to_string_lossy().ends_with(SUFFIX) {
                    return None;
                }
                Some((path, entry.metadata().ok()?.modified().ok()?))
            })
            .collect()
    }

    /// Removes files past the age cap, then the oldest past the count cap.
    fn prune(&self) {
        let now = SystemTime::now();
        let mut files: Vec<(PathBuf, SystemTime)> = Vec::new();
        for (path, modified) in self.files() {
            if now.duration_since(modified).unwrap_or_default() > self.max_age {
                let _ = std::fs::remove_file(&path);
            } else {
                files.push((path, modified));
            }
        }
        if files.len() > self.max_sessions {
            files.sort_by_key(|(_, modified)| std::cmp::Reverse(*modified));
            for (path, _) in files.drain(self.max_sessions..) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

impl SessionKeeper for SessionStore {
    fn save(&self, session_id: &str, shell: &Shell) -> Result<(), String> {
        self.save_shell(session_id, shell)
    }

    fn load(&self, session_id: &str) -> Option<Vec<u8>> {
        self.load_bytes(session_id)
    }

    fn newest(&self) -> Option<Vec<u8>> {
        self.newest_bytes()
    }
}
