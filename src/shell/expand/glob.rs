//! Pathname expansion over the storage.

use super::*;

impl Interp<'_> {
    /// Pathname expansion of a pattern over the storage: sorted matches,
    /// empty when nothing matches.
    pub(crate) fn glob(&mut self, pattern: &str) -> Vec<String> {
        let absolute = pattern.starts_with('/');
        let mut paths: Vec<String> = vec![if absolute { "/".to_string() } else { String::new() }];
        let components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
        let trailing_slash = pattern.ends_with('/') && pattern.len() > 1;
        let storage = self.rt.storage;
        let mut literal_tail = false;
        for (i, component) in components.iter().enumerate() {
            let last = i + 1 == components.len();
            let mut next = Vec::new();
            if pattern::has_glob_chars(component) {
                literal_tail = false;
                let compiled = Pattern::new(component);
                let dot = compiled.starts_with_dot() || self.st.options.dotglob;
                for base in &paths {
                    let dir = storage_path(&self.st.cwd, if base.is_empty() { "." } else { base });
                    let Ok(entries) = storage.list(&dir) else { continue };
                    for entry in entries {
                        if entry.name.starts_with('.') && !dot {
                            continue;
                        }
                        if !compiled.matches(&entry.name) {
                            continue;
                        }
                        let path = join_display(base, &entry.name);
                        if !last || trailing_slash {
                            let is_dir = entry.kind == FileKind::Directory
                                || (entry.kind == FileKind::Symlink
                                    && storage
                                        .stat(&storage_path(&self.st.cwd, &path))
                                        .is_ok_and(|m| m.kind == FileKind::Directory));
                            if !is_dir {
                                continue;
                            }
                        }
                        next.push(path);
                    }
                }
            } else {
                literal_tail = true;
                let name = pattern::literal(component).unwrap_or_else(|| component.to_string());
                for base in &paths {
                    next.push(join_display(base, &name));
                }
            }
            paths = next;
            if paths.is_empty() {
                return paths;
            }
        }
        if literal_tail {
            paths.retain(|p| storage.lstat(&storage_path(&self.st.cwd, p)).is_ok());
        }
        if trailing_slash {
            for p in &mut paths {
                p.push('/');
            }
        }
        paths.sort();
        paths
    }
}

pub(super) fn join_display(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else if base.ends_with('/') {
        format!("{base}{name}")
    } else {
        format!("{base}/{name}")
    }
}
