//! Virtual paths: absolute, `/`-separated, with no `.`, `..` or empty
//! components, and `..` never climbing above `/`; and the one symlink walk
//! every storage shares.

use super::StorageError;

/// The normal form of `path`, taken relative to `/` when it is not absolute:
/// `a//b/./c/../d` → `/a/b/d`, `/../..` → `/`.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    let mut out = String::with_capacity(path.len() + 1);
    for part in &parts {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// `path` resolved against the directory `base` (itself normalised), as a
/// shell resolves a relative path against its working directory.
pub fn join(base: &str, path: &str) -> String {
    if path.starts_with('/') {
        normalize(path)
    } else {
        normalize(&format!("{base}/{path}"))
    }
}

/// The directory holding a normalised path, and the path's last component;
/// `None` for `/`.
pub fn parent(path: &str) -> Option<(&str, &str)> {
    if path == "/" {
        return None;
    }
    let cut = path.rfind('/')?;
    Some((if cut == 0 { "/" } else { &path[..cut] }, &path[cut + 1..]))
}

/// What a storage holds at a real (symlink-free) path, as the resolver needs
/// to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// Nothing is there.
    Missing,
    /// A directory.
    Directory,
    /// A file, or anything else that cannot hold entries.
    File,
    /// A symlink, with its target as written.
    Symlink(String),
}

/// How many symlinks one path may pass through, as Linux allows.
const MAX_SYMLINK_HOPS: usize = 40;

/// Follows symlinks along `path` and returns the real path it names, asking
/// `lookup` about each real path on the way. Every component but the last
/// must exist and be a directory (after following); the last may be absent.
/// With `follow_last`, a final symlink is followed too. A symlink's target is
/// read in the storage's own namespace: an absolute target starts at the
/// storage's `/`, and `..` stops there, so no symlink can lead outside it.
pub(crate) fn resolve(
    path: &str,
    follow_last: bool,
    mut lookup: impl FnMut(&str) -> Result<Lookup, StorageError>,
) -> Result<String, StorageError> {
    let components = |path: &str| -> Vec<String> {
        path.split('/').filter(|part| !part.is_empty()).rev().map(str::to_owned).collect()
    };
    let mut pending = components(&normalize(path));
    let mut current = String::from("/");
    let mut hops = 0;
    while let Some(part) = pending.pop() {
        let next = if current == "/" { format!("/{part}") } else { format!("{current}/{part}") };
        let is_last = pending.is_empty();
        match lookup(&next)? {
            Lookup::Symlink(target) if !is_last || follow_last => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(StorageError::SymlinkLoop(normalize(path)));
                }
                pending.extend(components(&join(&current, &target)));
                current = String::from("/");
            }
            Lookup::File | Lookup::Symlink(_) if !is_last => return Err(StorageError::NotADirectory(next)),
            Lookup::Missing if !is_last => return Err(StorageError::NotFound(next)),
            _ => current = next,
        }
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_never_climbs_above_the_root() {
        for (input, expected) in [
            ("", "/"),
            ("/", "/"),
            ("a", "/a"),
            ("a//b/./c/../d/", "/a/b/d"),
            ("/../../etc/passwd", "/etc/passwd"),
            ("..", "/"),
            ("/a/b/../../..", "/"),
            ("./x/.", "/x"),
        ] {
            assert_eq!(normalize(input), expected, "normalize({input:?})");
        }
    }

    #[test]
    fn joining_resolves_relative_paths_against_a_directory() {
        assert_eq!(join("/work", "notes.txt"), "/work/notes.txt");
        assert_eq!(join("/work", "../../x"), "/x");
        assert_eq!(join("/work", "/abs"), "/abs");
        assert_eq!(parent("/a/b"), Some(("/a", "b")));
        assert_eq!(parent("/a"), Some(("/", "a")));
        assert_eq!(parent("/"), None);
    }
}
