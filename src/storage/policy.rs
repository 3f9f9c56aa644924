//! Path policy: which paths may be read, written or listed, as rules in a
//! gitignore-like language.
//!
//! For each kind of access, a path is allowed when it matches no deny rule
//! of that kind and, if there are allow rules of that kind, at least one of
//! them.
//!
//! # Rules
//!
//! - A pattern with no `/` (other than a trailing one) matches a name at
//!   any depth: `*.env` matches `/.env`, `/app/prod.env` and
//!   `/a/b/c/x.env`; `secrets` matches every folder or file named so.
//! - A pattern with a `/` is anchored at the storage's root: `/src/*.rs`
//!   and `src/*.rs` both match `/src/main.rs`, not `/lib/src/main.rs`.
//! - `*` matches within one component, `?` one character, `[a-z]` / `[!x]`
//!   a class; `**` matches across components: `**/x` is `x` at any depth
//!   (the root included), `/a/**` everything under `/a` (and `/a` itself),
//!   `/a/**/b` `b` anywhere under `/a`.
//! - A trailing `/` names a folder: `build/` matches folders named `build`
//!   (a file of that name too, which errs on the safe side for a deny rule).
//! - A rule that matches a folder covers everything in it, as in a
//!   `.gitignore`: deny-read `secrets` also denies `/x/secrets/key`.
//!
//! # What is checked
//!
//! The policy is decided on the real path an operation acts on, resolved
//! once (symlinks followed; every symlink passed is checked as a read of
//! the link), and the access is done on that real path while a lock keeps
//! every other change through this policy out, so the decision and the
//! access refer to the same object: swapping a folder for a symlink from
//! another session cannot lead a checked path somewhere else.
//!
//! A rename or removal must not move or delete what the policy protects:
//! a removal is refused when anything it would delete is denied any
//! access, and a rename when anything it moves would become reachable in a
//! way it was not (an access denied at its old path but allowed at its new
//! one), or when it would replace something protected.
//!
//! A denied access is [`StorageError::PermissionDenied`], naming the path
//! asked for, and nothing is changed.

use std::sync::RwLock;

use super::path::{normalize, resolve, Lookup};
use super::{asked, DirEntry, FileKind, Metadata, Storage, StorageError};

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

const ACCESSES: [Access; 3] = [Access::Read, Access::Write, Access::List];

#[derive(Debug, Clone)]
struct Rule {
    access: Access,
    allow: bool,
    /// The pattern made absolute: `*.env` is `/**/*.env`.
    glob: String,
}

/// A set of allow and deny rules.
#[derive(Debug, Clone, Default)]
pub struct PathPolicy {
    rules: Vec<Rule>,
}

/// A rule's pattern as an absolute glob (see the module's rules).
fn compile(pattern: &str) -> String {
    let trimmed = pattern.trim_end_matches('/');
    let trimmed = if trimmed.is_empty() && !pattern.is_empty() { "/" } else { trimmed };
    if trimmed.starts_with('/') {
        trimmed.to_owned()
    } else if trimmed.contains('/') {
        format!("/{trimmed}")
    } else {
        format!("/**/{trimmed}")
    }
}

/// Whether the absolute glob matches `path` or a folder above it.
fn covers(glob: &str, path: &str) -> bool {
    if path == "/" {
        return whole(glob, "/");
    }
    path.match_indices('/').skip(1).any(|(cut, _)| whole(glob, &path[..cut])) || whole(glob, path)
}

/// Whether the absolute glob matches the whole `path`; `/a/**` matches
/// `/a` too.
fn whole(glob: &str, path: &str) -> bool {
    if let Some(folder) = glob.strip_suffix("/**") {
        if matches(folder.as_bytes(), path.as_bytes(), false) {
            return true;
        }
    }
    matches(glob.as_bytes(), path.as_bytes(), false)
}

/// Whether the absolute glob could match something strictly under the
/// folder `directory` (or covers it, and so everything under it).
fn could_cover_below(glob: &str, directory: &str) -> bool {
    let below = if directory == "/" { "/".to_owned() } else { format!("{directory}/") };
    covers(glob, directory) || matches(glob.as_bytes(), below.as_bytes(), true)
}

impl PathPolicy {
    /// A policy with no rules: everything allowed.
    pub fn new() -> Self {
        PathPolicy::default()
    }

    /// Adds a rule allowing `access` to paths matching `pattern`.
    pub fn allow(mut self, access: Access, pattern: &str) -> Self {
        self.rules.push(Rule { access, allow: true, glob: compile(pattern) });
        self
    }

    /// Adds a rule denying `access` to paths matching `pattern`.
    pub fn deny(mut self, access: Access, pattern: &str) -> Self {
        self.rules.push(Rule { access, allow: false, glob: compile(pattern) });
        self
    }

    /// Whether `access` to the normalised `path` is allowed.
    pub fn permits(&self, access: Access, path: &str) -> bool {
        let rules = self.rules.iter().filter(|rule| rule.access == access);
        let mut any_allow = false;
        let mut allowed = false;
        for rule in rules {
            let matches = covers(&rule.glob, path);
            if !rule.allow && matches {
                return false;
            }
            any_allow |= rule.allow;
            allowed |= rule.allow && matches;
        }
        allowed || !any_allow
    }

    /// The accesses denied at `path`, as a bit set.
    fn denied(&self, path: &str) -> u8 {
        ACCESSES
            .iter()
            .enumerate()
            .filter(|(_, &access)| !self.permits(access, path))
            .fold(0, |set, (bit, _)| set | 1 << bit)
    }

    /// Whether everything strictly under the folder `directory` is allowed
    /// and denied exactly as `directory` is, whatever its name: then a walk
    /// need not look inside.
    fn uniform_below(&self, directory: &str) -> bool {
        ACCESSES.iter().all(|&access| {
            let rules: Vec<&Rule> = self.rules.iter().filter(|rule| rule.access == access).collect();
            let deny_settled = rules
                .iter()
                .filter(|rule| !rule.allow)
                .all(|rule| covers(&rule.glob, directory) || !could_cover_below(&rule.glob, directory));
            let allows: Vec<&&Rule> = rules.iter().filter(|rule| rule.allow).collect();
            let allow_settled = allows.is_empty()
                || allows.iter().any(|rule| covers(&rule.glob, directory))
                || allows.iter().all(|rule| !could_cover_below(&rule.glob, directory));
            deny_settled && allow_settled
        })
    }

    fn check(&self, access: Access, path: &str) -> Result<(), StorageError> {
        if self.permits(access, path) {
            Ok(())
        } else {
            Err(StorageError::PermissionDenied(path.to_owned()))
        }
    }
}

/// Whether `pattern` (a rule, as the module describes) matches the
/// normalised `path` or a folder above it.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    covers(&compile(pattern), path)
}

/// Matches `pattern` against all of `text`; with `prefix`, whether some
/// continuation of `text` would match (the text may end before the pattern).
fn matches(pattern: &[u8], text: &[u8], prefix: bool) -> bool {
    if prefix && text.is_empty() {
        return true;
    }
    match pattern.first() {
        None => text.is_empty(),
        Some(b'*') if pattern.get(1) == Some(&b'*') => {
            let rest = &pattern[2..];
            // `**/` also matches no folder at all.
            (rest.first() == Some(&b'/') && matches(&rest[1..], text, prefix))
                || (0..=text.len()).any(|skip| matches(rest, &text[skip..], prefix))
        }
        Some(b'*') => {
            let rest = &pattern[1..];
            let limit = text.iter().position(|&byte| byte == b'/').unwrap_or(text.len());
            (0..=limit).any(|skip| matches(rest, &text[skip..], prefix))
        }
        Some(b'?') => text.first().is_some_and(|&byte| byte != b'/') && matches(&pattern[1..], &text[1..], prefix),
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
                inside != negated && byte != b'/' && matches(&pattern[end + 1..], &text[1..], prefix)
            }
            _ => text.first() == Some(&b'[') && matches(&pattern[1..], &text[1..], prefix),
        },
        Some(&literal) => text.first() == Some(&literal) && matches(&pattern[1..], &text[1..], prefix),
    }
}

/// Any storage behind a [`PathPolicy`].
pub struct Policy<S> {
    inner: S,
    policy: PathPolicy,
    /// Held for reading while an operation resolves, decides and acts, for
    /// writing while one changes something.
    lock: RwLock<()>,
}

impl<S: Storage> Policy<S> {
    /// `inner`, reachable only as `policy` allows.
    pub fn new(inner: S, policy: PathPolicy) -> Self {
        Policy { inner, policy, lock: RwLock::new(()) }
    }

    fn reading(&self) -> std::sync::RwLockReadGuard<'_, ()> {
        self.lock.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn writing(&self) -> std::sync::RwLockWriteGuard<'_, ()> {
        self.lock.write().unwrap_or_else(|poisoned| poisoned.into_inner())
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
        resolve(path, follow_last, |candidate| self.lookup(candidate, true))
    }

    /// What the inner storage has at a real path; with `check`, reading a
    /// symlink there must be allowed.
    fn lookup(&self, real: &str, check: bool) -> Result<Lookup, StorageError> {
        Ok(match self.inner.lstat(real) {
            Err(StorageError::NotFound(_) | StorageError::NotADirectory(_)) => Lookup::Missing,
            Err(error) => return Err(error),
            Ok(metadata) => match metadata.kind {
                FileKind::Directory => Lookup::Directory,
                FileKind::File => Lookup::File,
                FileKind::Symlink => {
                    if check {
                        self.policy.check(Access::Read, real)?;
                    }
                    Lookup::Symlink(self.inner.readlink(real)?)
                }
            },
        })
    }

    /// The entries of a real directory, as paths.
    fn children(&self, directory: &str) -> Result<Vec<String>, StorageError> {
        let entries = self.inner.list(directory)?;
        Ok(entries
            .into_iter()
            .map(
                |entry| {
                    if directory == "/" {
                        format!("/{}", entry.name)
                    } else {
                        format!("{directory}/{}", entry.name)
                    }
                },
            )
            .collect())
    }

    /// Refuses when anything at or under the real path `real` is denied
    /// any access: removing it would delete what the policy protects.
    fn unprotected(&self, real: &str) -> Result<(), StorageError> {
        if self.policy.denied(real) != 0 {
            return Err(StorageError::PermissionDenied(real.to_owned()));
        }
        if self.lookup(real, false)? == Lookup::Directory && !self.policy.uniform_below(real) {
            for child in self.children(real)? {
                self.unprotected(&child)?;
            }
        }
        Ok(())
    }

    /// Refuses when anything at or under `old` would be allowed an access
    /// at its new place under `new` that it is denied where it is.
    fn movable(&self, old: &str, new: &str) -> Result<(), StorageError> {
        let (before, after) = (self.policy.denied(old), self.policy.denied(new));
        if before & !after != 0 {
            return Err(StorageError::PermissionDenied(old.to_owned()));
        }
        if self.lookup(old, false)? == Lookup::Directory
            && !(self.policy.uniform_below(old) && self.policy.uniform_below(new))
        {
            for child in self.children(old)? {
                let name = &child[child.rfind('/').map_or(0, |cut| cut + 1)..];
                let moved = if new == "/" { format!("/{name}") } else { format!("{new}/{name}") };
                self.movable(&child, &moved)?;
            }
        }
        Ok(())
    }
}

impl<S: Storage> Storage for Policy<S> {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, true, Access::Read).and_then(|real| self.inner.read(&real)))
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, true, Access::Read).and_then(|real| self.inner.read_range(&real, offset, len)))
    }
    /// The policy is checked once, when the file is opened, as a
    /// descriptor's permissions are.
    fn open_read(&self, path: &str) -> Result<std::sync::Arc<dyn super::OpenFile>, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, true, Access::Read).and_then(|real| self.inner.open_read(&real)))
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let _held = self.writing();
        asked(path, self.real(path, true, Access::Write).and_then(|real| self.inner.write(&real, data)))
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        let _held = self.writing();
        asked(path, self.real(path, true, Access::Write).and_then(|real| self.inner.append(&real, data)))
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, true, Access::Read).and_then(|real| self.inner.stat(&real)))
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, false, Access::Read).and_then(|real| self.inner.lstat(&real)))
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, true, Access::List).and_then(|real| self.inner.list(&real)))
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        let _held = self.writing();
        let target = normalize(path);
        if !parents {
            return asked(
                path,
                self.real(&target, false, Access::Write).and_then(|real| self.inner.mkdir(&real, false)),
            );
        }
        // Every folder mkdir -p would create is a write of its own, made
        // here on its real path; folders that exist are only passed through.
        let mut prefix = String::new();
        for part in target.split('/').filter(|part| !part.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            let made = self.resolve_checked(&prefix, true).and_then(|real| match self.lookup(&real, false)? {
                Lookup::Directory => Ok(()),
                Lookup::Missing => {
                    self.policy.check(Access::Write, &real)?;
                    self.inner.mkdir(&real, false)
                }
                _ => Err(StorageError::AlreadyExists(real)),
            });
            asked(path, made)?;
        }
        Ok(())
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        let _held = self.writing();
        let removed = self.real(path, false, Access::Write).and_then(|real| {
            self.unprotected(&real)?;
            self.inner.remove(&real, recursive)
        });
        asked(path, removed)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        let _held = self.writing();
        let source = asked(from, self.real(from, false, Access::Write))?;
        let destination = asked(to, self.real(to, false, Access::Write))?;
        if source == destination {
            return asked(from, self.inner.lstat(&source).map(drop));
        }
        asked(from, self.movable(&source, &destination))?;
        if self.lookup(&destination, false)? != Lookup::Missing {
            asked(to, self.unprotected(&destination))?;
        }
        self.inner.rename(&source, &destination).map_err(|error| {
            let at = if error.path() == destination { to } else { from };
            error.with_path(|_| normalize(at))
        })
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        let _held = self.writing();
        asked(link, self.real(link, false, Access::Write).and_then(|real| self.inner.symlink(target, &real)))
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        let _held = self.reading();
        asked(path, self.real(path, false, Access::Read).and_then(|real| self.inner.readlink(&real)))
    }
    fn file_size_limit(&self, path: &str) -> Option<u64> {
        self.inner.file_size_limit(path)
    }
    fn set_mode(&self, path: &str, mode: u32) -> Result<(), StorageError> {
        let _held = self.writing();
        asked(path, self.real(path, true, Access::Write).and_then(|real| self.inner.set_mode(&real, mode)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    #[test]
    fn rules_match_like_a_gitignore() {
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
            ("/exact", "/exact/more", true),
            ("/exact", "/exactly", false),
            // No slash: the name at any depth.
            ("*.env", "/.env", true),
            ("*.env", "/app/prod.env", true),
            ("*.env", "/a/b/c/x.env", true),
            ("*.env", "/a/b/env.txt", false),
            ("secrets", "/x/secrets/key", true),
            ("secrets", "/x/secretsfile", false),
            // A slash anchors it at the root, with or without the leading one.
            ("src/*.rs", "/src/main.rs", true),
            ("src/*.rs", "/lib/src/main.rs", false),
            // `**/` matches no folder too; a trailing slash names a folder.
            ("/**/x", "/x", true),
            ("/a/**/b", "/a/b", true),
            ("/a/**/b", "/a/p/q/b", true),
            ("build/", "/build/out.o", true),
            ("build/", "/src/build/out.o", true),
            ("/build/", "/src/build/out.o", false),
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
        denied(storage.mkdir("/work/secrets/new/deeper", true), "/work/secrets/new/deeper");
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
            StorageError::PermissionDenied("/work/shortcut".to_owned())
        );
        assert_eq!(
            storage.write("/work/shortcut", b"overwrite").unwrap_err(),
            StorageError::PermissionDenied("/work/shortcut".to_owned())
        );
        assert_eq!(storage.inner.read("/work/secrets/key").unwrap(), b"hunter2");
    }

    #[test]
    fn renames_and_removals_cannot_take_protected_paths_away() {
        let inner = MemoryStorage::default();
        inner.mkdir("/work/a/secrets", true).unwrap();
        inner.write("/work/a/secrets/key", b"hunter2").unwrap();
        inner.write("/work/a/notes", b"notes").unwrap();
        inner.mkdir("/work/empty", true).unwrap();
        let storage = Policy::new(
            inner,
            PathPolicy::new().deny(Access::Read, "/work/a/secrets/**").deny(Access::Write, "/work/a/secrets/**"),
        );
        let denied = |result: Result<(), StorageError>, path: &str| {
            assert_eq!(result.unwrap_err(), StorageError::PermissionDenied(path.to_owned()));
        };
        denied(storage.rename("/work/a", "/work/b"), "/work/a");
        denied(storage.rename("/work", "/elsewhere"), "/work");
        denied(storage.remove("/work/a", true), "/work/a");
        denied(storage.remove("/work", true), "/work");
        assert!(matches!(storage.read("/work/b/secrets/key"), Err(StorageError::NotFound(_))));
        assert_eq!(storage.inner.read("/work/a/secrets/key").unwrap(), b"hunter2");
        // What holds nothing protected moves and goes as before.
        storage.rename("/work/a/notes", "/work/notes").unwrap();
        storage.rename("/work/empty", "/work/moved").unwrap();
        storage.remove("/work/moved", true).unwrap();
        // A name-wide rule keeps protecting what moves with it.
        let inner = MemoryStorage::default();
        inner.mkdir("/app/config", true).unwrap();
        inner.write("/app/config/prod.env", b"TOKEN=1").unwrap();
        let storage = Policy::new(inner, PathPolicy::new().deny(Access::Read, "*.env"));
        storage.rename("/app", "/service").unwrap();
        denied(storage.read("/service/config/prod.env").map(drop), "/service/config/prod.env");
        denied(storage.remove("/service", true), "/service");
        denied(storage.rename("/service/config/prod.env", "/service/config/prod.txt"), "/service/config/prod.env");
    }
}
