//! Path policy: which paths may be read, written or listed, as glob rules.
//!
//! For each kind of access, a path is allowed when it matches no deny rule
//! of that kind and, if there are allow rules of that kind, at least one of
//! them. The policy is checked on the real path each operation acts on and
//! on every symlink passed while resolving it (as a read of the link), so a
//! link inside an allowed folder cannot lead to a denied one. A denied
//! access is [`StorageError::PermissionDenied`] and nothing is written.
//!
//! Globs match whole normalised paths: `*` matches within one component,
//! `**` across components, `?` one character, `[a-z]` / `[!x]` a class. A
//! pattern ending in `/**` also matches the folder itself.

use super::path::{normalize, resolve, Lookup};
use super::{DirEntry, FileKind, Metadata, Storage, StorageError};

/// A kind of access a rule governs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reading files, metadata and symlinks.
    Read,
    /// Creating, changing, renaming and removing.
    Write,
    /// Listing a directory.
    List,
}

#[derive(Debug, Clone)]
struct Rule {
    access: Access,
    allow: bool,
    pattern: String,
}

/// A set of allow and deny rules.
#[derive(Debug, Clone, Default)]
pub struct PathPolicy {
    rules: Vec<Rule>,
}

impl PathPolicy {
    /// A policy with no rules: everything allowed.
    pub fn new() -> Self {
        PathPolicy::default()
    }

    /// Adds a rule allowing `access` to paths matching `pattern`.
    pub fn allow(mut self, access: Access, pattern: &str) -> Self {
        self.rules.push(Rule { access, allow: true, pattern: pattern.to_owned() });
        self
    }

    /// Adds a rule denying `access` to paths matching `pattern`.
    pub fn deny(mut self, access: Access, pattern: &str) -> Self {
        self.rules.push(Rule { access, allow: false, pattern: pattern.to_owned() });
        self
    }

    /// Whether `access` to the normalised `path` is allowed.
    pub fn permits(&self, access: Access, path: &str) -> bool {
        let rules = self.rules.iter().filter(|rule| rule.access == access);
        let mut any_allow = false;
        let mut allowed = false;
        for rule in rules {
            let matches = glob_matches(&rule.pattern, path);
            if !rule.allow && matches {
                return false;
            }
            any_allow |= rule.allow;
            allowed |= rule.allow && matches;
        }
        allowed || !any_allow
    }

    fn check(&self, access: Access, path: &str) -> Result<(), StorageError> {
        if self.permits(access, path) {
            Ok(())
        } else {
            Err(StorageError::PermissionDenied(path.to_owned()))
        }
    }
}

/// Whether the glob `pattern` matches the whole `path`.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    if let Some(folder) = pattern.strip_suffix("/**") {
        if glob(folder.as_bytes(), path.as_bytes()) {
            return true;
        }
    }
    glob(pattern.as_bytes(), path.as_bytes())
}

fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.first() {
        None => text.is_empty(),
        Some(b'*') if pattern.get(1) == Some(&b'*') => {
            let rest = &pattern[2..];
            (0..=text.len()).any(|skip| glob(rest, &text[skip..]))
        }
        Some(b'*') => {
            let rest = &pattern[1..];
            let limit = text.iter().position(|&byte| byte == b'/').unwrap_or(text.len());
            (0..=limit).any(|skip| glob(rest, &text[skip..]))
        }
        Some(b'?') => text.first().is_some_and(|&byte| byte != b'/') && glob(&pattern[1..], &text[1..]),
        Some(b'[') => match (pattern.iter().position(|&byte| byte == b']'), text.first()) {
            (Some(end), Some(&byte)) if end > 1 => {
                let class = &pattern[1..end];
                let (negated, class) = match class.first() {
                    Some(b'!' | b'^') => (true, &class[1..]),
                    _ => (false, class),
                };
                let mut inside = false;
                let mut index = 0;
                while index < class.len() {
                    if index + 2 < class.len() && class[index + 1] == b'-' {
                        inside |= (class[index]..=class[index + 2]).contains(&byte);
                        index += 3;
                    } else {
                        inside |= class[index] == byte;
                        index += 1;
                    }
                }
                inside != negated && byte != b'/' && glob(&pattern[end + 1..], &text[1..])
            }
            _ => text.first() == Some(&b'[') && glob(&pattern[1..], &text[1..]),
        },
        Some(&literal) => text.first() == Some(&literal) && glob(&pattern[1..], &text[1..]),
    }
}

/// Any storage behind a [`PathPolicy`].
pub struct Policy<S> {
    inner: S,
    policy: PathPolicy,
}

impl<S: Storage> Policy<S> {
    /// `inner`, reachable only as `policy` allows.
    pub fn new(inner: S, policy: PathPolicy) -> Self {
        Policy { inner, policy }
    }

    /// Resolves `path` through the inner storage, checking every symlink it
    /// passes, and returns the real path after checking `access` on it.
    fn real(&self, path: &str, follow_last: bool, access: Access) -> Result<String, StorageError> {
        let real = self.resolve_checked(path, follow_last)?;
        self.policy.check(access, &real)?;
        Ok(real)
    }

    /// Resolves `path` through the inner storage; reading each symlink on
    /// the way must be allowed.
    fn resolve_checked(&self, path: &str, follow_last: bool) -> Result<String, StorageError> {
        resolve(path, follow_last, |candidate| {
            let lookup = match self.inner.lstat(candidate) {
                Err(StorageError::NotFound(_)) => Lookup::Missing,
                Err(error) => return Err(error),
                Ok(metadata) => match metadata.kind {
                    FileKind::Directory => Lookup::Directory,
                    FileKind::File => Lookup::File,
                    FileKind::Symlink => {
                        self.policy.check(Access::Read, candidate)?;
                        Lookup::Symlink(self.inner.readlink(candidate)?)
                    }
                },
            };
            Ok(lookup)
        })
    }
}

impl<S: Storage> Storage for Policy<S> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        self.inner.read(&self.real(path, true, Access::Read)?)
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.inner.write(&self.real(path, true, Access::Write)?, data)
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.inner.append(&self.real(path, true, Access::Write)?, data)
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.inner.stat(&self.real(path, true, Access::Read)?)
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.inner.lstat(&self.real(path, false, Access::Read)?)
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        self.inner.list(&self.real(path, true, Access::List)?)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let target = normalize(path);
        if !parents {
            return self.inner.mkdir(&self.real(&target, false, Access::Write)?, false);
        }
        // Every folder mkdir -p would create is a write of its own; folders
        // that exist are only passed through.
        let mut prefix = String::new();
        for part in target.split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            let real = self.resolve_checked(&prefix, true)?;
            if matches!(self.inner.lstat(&real), Err(StorageError::NotFound(_))) {
                self.policy.check(Access::Write, &real)?;
            }
        }
        self.inner.mkdir(&target, true)
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.inner.remove(&self.real(path, false, Access::Write)?, recursive)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let from = self.real(from, false, Access::Write)?;
        let to = self.real(to, false, Access::Write)?;
        self.inner.rename(&from, &to)
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.inner.symlink(target, &self.real(link, false, Access::Write)?)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.inner.readlink(&self.real(path, false, Access::Read)?)
    }
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        self.inner.set_mode(&self.real(path, true, Access::Write)?, mode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    #[test]
    fn globs_match_whole_paths() {
        for (pattern, path, expected) in [
            ("/src/*.rs", "/src/main.rs", true),
            ("/src/*.rs", "/src/deep/main.rs", false),
            ("/src/**", "/src/deep/main.rs", true),
            ("/src/**", "/src", true),
            ("/src/**", "/srcs", false),
            ("/**/*.key", "/a/b/c.key", true),
            ("/file?.txt", "/file1.txt", true),
            ("/file?.txt", "/file/.txt", false),
            ("/[a-c]*", "/beta", true),
            ("/[!a-c]*", "/beta", false),
            ("/exact", "/exact/more", false),
        ] {
            assert_eq!(glob_matches(pattern, path), expected, "{pattern} ~ {path}");
        }
    }

    fn storage() -> (MemoryStorage, PathPolicy) {
        let inner = MemoryStorage::default();
        inner.mkdir("/work/secrets", true).unwrap();
        inner.write("/work/notes.txt", b"notes").unwrap();
        inner.write("/work/secrets/key", b"hunter2").unwrap();
        inner.write("/etc-passwd", b"root:x:0:0").unwrap();
        inner.symlink("/work/secrets/key", "/work/shortcut").unwrap();
        let policy = PathPolicy::new()
            .allow(Access::Read, "/work/**")
            .deny(Access::Read, "/work/secrets/**")
            .allow(Access::Write, "/work/**")
            .deny(Access::Write, "/work/secrets/**")
            .deny(Access::List, "/work/secrets");
        (inner, policy)
    }

    #[test]
    fn denied_accesses_fail_and_change_nothing() {
        let (inner, policy) = storage();
        let storage = Policy::new(inner, policy);
        assert_eq!(storage.read("/work/notes.txt").unwrap(), b"notes");
        let denied = |result: Result<(), StorageError>, path: &str| {
            assert_eq!(result.unwrap_err(), StorageError::PermissionDenied(path.to_owned()));
        };
        denied(storage.read("/work/secrets/key").map(drop), "/work/secrets/key");
        denied(storage.read("/etc-passwd").map(drop), "/etc-passwd");
        denied(storage.write("/work/secrets/key", b"x"), "/work/secrets/key");
        denied(storage.write("/outside", b"x"), "/outside");
        denied(storage.list("/work/secrets").map(drop), "/work/secrets");
        denied(storage.remove("/work/secrets", true), "/work/secrets");
        denied(storage.mkdir("/work/secrets/new/deeper", true), "/work/secrets/new");
        denied(storage.rename("/work/notes.txt", "/work/secrets/notes.txt"), "/work/secrets/notes.txt");
        assert_eq!(storage.inner.read("/work/secrets/key").unwrap(), b"hunter2");
        assert_eq!(storage.inner.read("/work/notes.txt").unwrap(), b"notes");
        assert!(storage.inner.stat("/outside").is_err());
        assert!(storage.inner.stat("/work/secrets/new").is_err());
    }

    #[test]
    fn symlinks_cannot_lead_around_the_policy() {
        let (inner, policy) = storage();
        let storage = Policy::new(inner, policy);
        // The link is allowed; where it leads is not.
        assert_eq!(storage.readlink("/work/shortcut").unwrap(), "/work/secrets/key");
        assert_eq!(
            storage.read("/work/shortcut").unwrap_err(),
            StorageError::PermissionDenied("/work/secrets/key".to_owned())
        );
        assert_eq!(
            storage.write("/work/shortcut", b"overwrite").unwrap_err(),
            StorageError::PermissionDenied("/work/secrets/key".to_owned())
        );
        assert_eq!(storage.inner.read("/work/secrets/key").unwrap(), b"hunter2");
    }
}
