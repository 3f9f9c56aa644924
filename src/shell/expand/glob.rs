//! Pathname expansion over the storage, and the pattern options the
//! interpreter's matches use (`case`, `[[ ]]`, `${v#p}`, `${v/p/r}`).
//!
//! As bash 5.2: a pattern is split at each `/` (outside extended groups);
//! each part with a wildcard is matched against the names of a directory
//! (sorted at the end, byte order as in the C locale). Names starting with
//! `.` need a literal `.` unless `dotglob` is on or `GLOBIGNORE` is set and
//! not empty; `.` and `..` are never listed. `globstar`: a part that is
//! exactly `**` matches zero or more directories (not following symlinks,
//! not entering dot directories without `dotglob`); as the last part it
//! matches every file and directory below (and `DIR/**` gives `DIR/`
//! itself), `**/` only the directories. `nocaseglob` compares ASCII letters
//! without case. `GLOBIGNORE` (`:`-separated patterns) drops the paths that
//! match one of them as a whole (`*` crosses `/` there). `failglob` makes a
//! word that matches nothing an error (`bash: no match: WORD`, status 1)
//! that abandons the current top-level command, as `bash -c` does;
//! `nullglob` drops the word; otherwise the word stays as written.
//!
//! Difference: bash turns `dotglob` on when `GLOBIGNORE` is assigned a
//! non-empty value and off when it is unset (so `shopt dotglob` shows it);
//! here a non-empty `GLOBIGNORE` implies `dotglob` while it is set, and the
//! `dotglob` option itself is left as `shopt` set it.

use super::*;
use crate::storage::FileKind;

/// The pattern syntax for `case` and `${…}` (`nocase` where bash lets
/// `nocasematch` apply): `extglob` as set.
pub(super) fn pattern_syntax(state: &State, nocase: bool) -> Syntax {
    Syntax { extglob: state.options.extglob, nocase: nocase && state.options.nocasematch, period: false }
}

/// Whether `text` matches `pattern` (already expanded): `case` and, with
/// `extended` (bash 5.2 reads `[[ ]]` patterns as extended whatever
/// `extglob` says), `[[ == ]]`. `nocasematch` applies.
pub(super) fn pattern_matches(
    state: &State,
    rt: &Runtime<'_>,
    pattern: &str,
    text: &str,
    extended: bool,
) -> Result<bool, Flow> {
    let mut syntax = pattern_syntax(state, true);
    syntax.extglob |= extended;
    Pattern::with(pattern, syntax).matches_checked(text, &|| rt.check()).map_err(Flow::Limit)
}

/// Deepest directory `**` descends into (far beyond a real tree; a bound
/// on the work, with the run's clock asked at every directory).
const MAX_GLOBSTAR_DEPTH: usize = 256;

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// The pattern syntax for `case` and `${…}` (see [`pattern_syntax`]).
    pub(super) fn pattern_syntax(&self, nocase: bool) -> Syntax {
        pattern_syntax(self.state(), nocase)
    }

    /// The fields a globbing word gives: its matches, or under `nullglob`
    /// nothing, or under `failglob` an error, or the word itself (`text`).
    pub(super) fn glob_word(&mut self, pattern: &str, text: String, out: &mut Vec<String>) -> Result<(), Flow> {
        let matches = self.glob(pattern)?;
        if !matches.is_empty() {
            out.extend(matches);
        } else if self.state().options.failglob {
            self.error(format_args!("no match: {text}"))?;
            self.state_mut().last_status = 1;
            return Err(Flow::Abort(1));
        } else if !self.state().options.nullglob {
            out.push(text);
        }
        Ok(())
    }

    /// Pathname expansion of a pattern over the storage: sorted matches,
    /// empty when nothing matches.
    pub(super) fn glob(&mut self, pattern: &str) -> Result<Vec<String>, Flow> {
        let options = self.state().options;
        let ignore: Vec<Pattern> = match self.state().get("GLOBIGNORE") {
            Some(list) if !list.is_empty() => {
                let syntax = Syntax { extglob: options.extglob, ..Syntax::default() };
                list.split(':').filter(|p| !p.is_empty()).map(|p| Pattern::with(p, syntax)).collect()
            }
            _ => Vec::new(),
        };
        let dotglob = options.dotglob || self.state().get("GLOBIGNORE").is_some_and(|v| !v.is_empty());
        let syntax = Syntax { extglob: options.extglob, nocase: options.nocaseglob, period: !dotglob };
        let absolute = pattern.starts_with('/');
        let mut paths: Vec<String> = vec![if absolute { "/".to_string() } else { String::new() }];
        let components: Vec<&str> =
            pattern::split_path(pattern, options.extglob).into_iter().filter(|c| !c.is_empty()).collect();
        let trailing_slash = pattern.ends_with('/') && pattern.len() > 1;
        let mut literal_tail = false;
        // `DIR/**` also gives `DIR/` (the zero directories of `**`).
        let mut with_slash = Vec::new();
        for (i, component) in components.iter().enumerate() {
            let last = i + 1 == components.len();
            let mut next = Vec::new();
            if options.globstar && *component == "**" {
                literal_tail = false;
                for base in &paths {
                    if last && !trailing_slash {
                        if !base.is_empty() && base != "/" {
                            with_slash.push(format!("{base}/"));
                        }
                        self.walk(base, dotglob, false, &mut next, 0)?;
                    } else {
                        // Zero directories, then every directory below.
                        if !(last && base.is_empty()) {
                            next.push(base.clone());
                        }
                        self.walk(base, dotglob, true, &mut next, 0)?;
                    }
                }
            } else if pattern::has_pattern_chars(component, options.extglob) {
                literal_tail = false;
                let compiled = Pattern::with(component, syntax);
                for base in &paths {
                    self.runtime().check().map_err(Flow::Limit)?;
                    let dir = storage_path(&self.state().cwd, if base.is_empty() { "." } else { base });
                    let Ok(entries) = self.runtime().storage.list(&dir) else { continue };
                    for entry in entries {
                        let rt = self.runtime();
                        if !compiled.matches_checked(&entry.name, &|| rt.check()).map_err(Flow::Limit)? {
                            continue;
                        }
                        let path = join_display(base, &entry.name);
                        if (!last || trailing_slash) && !self.is_dir(&path, entry.kind) {
                            continue;
                        }
                        next.push(path);
                    }
                }
            } else {
                literal_tail = true;
                let name = pattern::literal_with(component, options.extglob).unwrap_or_else(|| component.to_string());
                for base in &paths {
                    next.push(join_display(base, &name));
                }
            }
            paths = next;
            if paths.is_empty() && with_slash.is_empty() {
                return Ok(paths);
            }
        }
        let storage = self.runtime().storage;
        if literal_tail {
            paths.retain(|p| storage.lstat(&storage_path(&self.state().cwd, p)).is_ok());
        }
        if trailing_slash {
            for p in &mut paths {
                p.push('/');
            }
        }
        paths.extend(with_slash);
        if !ignore.is_empty() {
            let rt = self.runtime();
            let mut kept = Vec::with_capacity(paths.len());
            for path in paths {
                let mut ignored = false;
                for p in &ignore {
                    if p.matches_checked(&path, &|| rt.check()).map_err(Flow::Limit)? {
                        ignored = true;
                        break;
                    }
                }
                if !ignored {
                    kept.push(path);
                }
            }
            paths = kept;
        }
        paths.sort();
        paths.dedup();
        Ok(paths)
    }

    /// Whether `path` (an entry of kind `kind`) is a directory, following
    /// a symlink.
    fn is_dir(&self, path: &str, kind: FileKind) -> bool {
        kind == FileKind::Directory
            || (kind == FileKind::Symlink
                && self
                    .runtime()
                    .storage
                    .stat(&storage_path(&self.state().cwd, path))
                    .is_ok_and(|m| m.kind == FileKind::Directory))
    }

    /// Everything below `base` (`dirs_only`: the directories), not
    /// following symlinks; dot entries only with `dotglob`.
    fn walk(
        &self,
        base: &str,
        dotglob: bool,
        dirs_only: bool,
        out: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), Flow> {
        if depth >= MAX_GLOBSTAR_DEPTH {
            return Ok(());
        }
        self.runtime().check().map_err(Flow::Limit)?;
        let dir = storage_path(&self.state().cwd, if base.is_empty() { "." } else { base });
        let Ok(entries) = self.runtime().storage.list(&dir) else { return Ok(()) };
        for entry in entries {
            if entry.name.starts_with('.') && !dotglob {
                continue;
            }
            let path = join_display(base, &entry.name);
            let dir = entry.kind == FileKind::Directory;
            if dir || !dirs_only {
                out.push(path.clone());
            }
            if dir {
                self.walk(&path, dotglob, dirs_only, out, depth + 1)?;
            }
        }
        Ok(())
    }
}

fn join_display(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else if base.ends_with('/') {
        format!("{base}{name}")
    } else {
        format!("{base}/{name}")
    }
}
