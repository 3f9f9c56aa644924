//! A file read in pieces through one handle: the one loop every reader of
//! a large file uses (the shell's commands, its `<` redirection).

use std::sync::Arc;

use super::{OpenFile, Storage, StorageError};

/// A file opened once ([`Storage::open_read`]) and read from its start, a
/// piece at a time, so that a reader holds one piece, never the file, and
/// every piece is of the version opened. A clone reads on from the same
/// place of the same version.
#[derive(Clone)]
pub struct Pieces {
    file: Arc<dyn OpenFile>,
    offset: u64,
    piece: usize,
    done: bool,
}

impl std::fmt::Debug for Pieces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pieces").field("offset", &self.offset).field("done", &self.done).finish()
    }
}

impl Pieces {
    /// Opens `path` (with [`Storage::open_read`]'s errors) to read it
    /// `piece` bytes at a time.
    pub fn open(storage: &dyn Storage, path: &str, piece: usize) -> Result<Pieces, StorageError> {
        Ok(Pieces { file: storage.open_read(path)?, offset: 0, piece: piece.max(1), done: false })
    }

    /// The next piece (never empty); `None` at the end. A failed read is
    /// an error, never an early end.
    pub fn next_piece(&mut self) -> Result<Option<Vec<u8>>, StorageError> {
        if self.done {
            return Ok(None);
        }
        let piece = self.file.read_at(self.offset, self.piece)?;
        if piece.is_empty() {
            self.done = true;
            return Ok(None);
        }
        self.offset += piece.len() as u64;
        Ok(Some(piece))
    }

    /// The open file itself, for a reader that reads at offsets of its
    /// own (`tail` reading from the end).
    pub fn file(&self) -> &Arc<dyn OpenFile> {
        &self.file
    }
}
