//! Moving trees between the host and a [`Storage`], and the tree manifest of
//! the shell corpus. Shared by `tests/shell_corpus.rs` and `examples/shell.rs`
//! (each includes it with `#[path]`), so the test and the example seed and
//! read a storage the same way.
//!
//! A manifest is one line per path under the root (the root left out), sorted
//! by the path's bytes:
//! `d PATH` for a directory, `f PATH SIZE HASH` for a file (HASH is the
//! FNV-1a 64-bit hash of the content, 16 lowercase hex digits) and
//! `l PATH -> TARGET` for a symlink. PATH is relative, `/`-separated.

use std::fs;
use std::io;
use std::path::Path;

use aikido::storage::{join, FileKind, Storage};

/// FNV-1a, 64 bits: trivial to write in any language, enough to tell two
/// small files apart.
pub fn fnv1a64(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// Copies the host directory `dir` (files, directories and symlinks, kept as
/// written) into `storage` under `/`.
pub fn seed(storage: &dyn Storage, dir: &Path) -> io::Result<()> {
    seed_into(storage, dir, "/")
}

fn seed_into(storage: &dyn Storage, dir: &Path, at: &str) -> io::Result<()> {
    let mut entries = fs::read_dir(dir)?.collect::<io::Result<Vec<_>>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().into_string().map_err(|n| invalid(format!("{n:?}: not UTF-8")))?;
        let virtual_path = join(at, &name);
        let kind = entry.file_type()?;
        let result = if kind.is_symlink() {
            let target = fs::read_link(entry.path())?;
            let target = target.to_str().ok_or_else(|| invalid(format!("{target:?}: not UTF-8")))?;
            storage.symlink(target, &virtual_path)
        } else if kind.is_dir() {
            storage.mkdir(&virtual_path, false).map_err(to_io)?;
            seed_into(storage, &entry.path(), &virtual_path)?;
            Ok(())
        } else {
            storage.write(&virtual_path, &fs::read(entry.path())?)
        };
        result.map_err(to_io)?;
    }
    Ok(())
}

/// One path of a storage's tree.
pub enum Node {
    /// A directory.
    Dir,
    /// A file and its content.
    File(Vec<u8>),
    /// A symlink and its target.
    Link(String),
}

/// Every path under `/` with what it is, sorted by path; the paths are
/// relative (`src/app.py`).
pub fn walk(storage: &dyn Storage) -> io::Result<Vec<(String, Node)>> {
    let mut out = Vec::new();
    walk_into(storage, "/", &mut out)?;
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(out)
}

fn walk_into(storage: &dyn Storage, dir: &str, out: &mut Vec<(String, Node)>) -> io::Result<()> {
    for entry in storage.list(dir).map_err(to_io)? {
        let path = join(dir, &entry.name);
        let relative = path.trim_start_matches('/').to_string();
        match entry.kind {
            FileKind::Directory => {
                out.push((relative, Node::Dir));
                walk_into(storage, &path, out)?;
            }
            FileKind::File => out.push((relative, Node::File(storage.read(&path).map_err(to_io)?))),
            FileKind::Symlink => out.push((relative, Node::Link(storage.readlink(&path).map_err(to_io)?))),
        }
    }
    Ok(())
}

/// The manifest lines of a storage's tree (see the module's doc).
pub fn manifest(storage: &dyn Storage) -> io::Result<Vec<String>> {
    Ok(walk(storage)?
        .into_iter()
        .map(|(path, node)| match node {
            Node::Dir => format!("d {path}"),
            Node::File(data) => format!("f {path} {} {:016x}", data.len(), fnv1a64(&data)),
            Node::Link(target) => format!("l {path} -> {target}"),
        })
        .collect())
}

/// Writes a storage's tree into the host directory `out`, which must be
/// absent or empty.
pub fn dump(storage: &dyn Storage, out: &Path) -> io::Result<()> {
    if out.exists() && fs::read_dir(out)?.next().is_some() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{}: refusing to dump into a non-empty directory", out.display()),
        ));
    }
    fs::create_dir_all(out)?;
    for (path, node) in walk(storage)? {
        let host = out.join(&path);
        match node {
            Node::Dir => fs::create_dir(&host)?,
            Node::File(data) => fs::write(&host, data)?,
            #[cfg(unix)]
            Node::Link(target) => std::os::unix::fs::symlink(target, &host)?,
            #[cfg(not(unix))]
            Node::Link(target) => fs::write(&host, format!("symlink to {target}\n"))?,
        }
    }
    Ok(())
}

fn to_io(err: aikido::storage::StorageError) -> io::Error {
    io::Error::other(err.to_string())
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}
