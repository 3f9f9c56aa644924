//! What outlives a process, on the host's own files: a session snapshot
//! written to a file so that a crash never leaves half of one, and the
//! folder of sessions `aikido-mcp --sessions` keeps. The one part above the
//! shell that may use the host's files (the shell itself never does: every
//! file it sees is a file of its `Storage`).

mod session_store;

pub use session_store::{SessionStore, DEFAULT_MAX_AGE, DEFAULT_MAX_SESSIONS};

/// Writes `bytes` to `file` so that a crash at any moment leaves `file`
/// either as it was or whole: into a temporary file beside it, synced,
/// renamed over `file`, then the folder synced (so the rename is on disk).
/// The temporary file is removed when a step fails.
pub fn write_atomically(file: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = match file.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    let name = file.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?;
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = folder.join(format!(".{}.{}-{unique}.tmp", name.to_string_lossy(), std::process::id()));
    let written = (|| {
        let mut out = std::fs::File::create(&temporary)?;
        out.write_all(bytes)?;
        out.sync_all()?;
        std::fs::rename(&temporary, file)?;
        std::fs::File::open(folder)?.sync_all()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}
