//! Virtual paths: absolute, `/`-separated, with no `.`, `..` or empty
//! components, and `..` never climbing above `/`.

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
