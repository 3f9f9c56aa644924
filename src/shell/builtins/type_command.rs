//! What a name is: `type`, `command` (`-v`, `-V`, running past functions)
//! and `compgen`.

use super::*;

pub(super) enum Kind {
    Function,
    Builtin,
    Keyword,
    File,
}

pub(super) fn kind_of<E: BuiltinEnv + ?Sized>(interp: &E, name: &str, functions: bool) -> Option<Kind> {
    if KEYWORDS.contains(&name) {
        Some(Kind::Keyword)
    } else if functions && interp.state().functions.contains_key(name) {
        Some(Kind::Function)
    } else if lookup(name).is_some() {
        Some(Kind::Builtin)
    } else if commands::lookup(name).is_some() {
        Some(Kind::File)
    } else {
        None
    }
}

/// The folders of `$PATH` in order (an empty entry is the working folder).
fn path_dirs<E: BuiltinEnv + ?Sized>(interp: &E) -> Vec<String> {
    let path = interp.state().get("PATH").unwrap_or("").to_string();
    path.split(':').map(|d| if d.is_empty() { ".".to_string() } else { d.to_string() }).collect()
}

/// Where `name` is found along `$PATH`, in its order: a regular file of the
/// storage with an execute bit, or a command of the table, which lives in
/// `/usr/bin` and `/bin` (as on the machine bash ran on). The first match,
/// or every one with `all`. A name holding a `/` is itself the path.
pub(crate) fn path_matches<E: BuiltinEnv + ?Sized>(interp: &E, name: &str, all: bool) -> Vec<String> {
    let executable = |path: &str| {
        let full = storage_path(&interp.state().cwd, path);
        interp.runtime().storage.stat(&full).is_ok_and(|m| m.kind == FileKind::File && m.mode & 0o111 != 0)
    };
    if name.contains('/') {
        return if executable(name) { vec![name.to_string()] } else { Vec::new() };
    }
    if name.is_empty() {
        return Vec::new();
    }
    let in_table = commands::lookup(name).is_some();
    let mut found = Vec::new();
    for dir in path_dirs(interp) {
        let candidate = format!("{}/{name}", dir.trim_end_matches('/'));
        let candidate = if dir == "/" { format!("/{name}") } else { candidate };
        if (in_table && matches!(dir.trim_end_matches('/'), "/usr/bin" | "/bin")) || executable(&candidate) {
            found.push(candidate);
            if !all {
                break;
            }
        }
    }
    // The commands of the table are found whatever `$PATH` says.
    if found.is_empty() && in_table {
        found.push(format!("/usr/bin/{name}"));
    }
    found
}

/// A readable regular file called `name` in a folder of `$PATH` (`source
/// NAME` looks there first): its path.
pub(crate) fn path_file<E: BuiltinEnv + ?Sized>(interp: &E, name: &str) -> Option<String> {
    if name.contains('/') {
        return None;
    }
    path_dirs(interp).into_iter().map(|dir| format!("{}/{name}", dir.trim_end_matches('/'))).find(|candidate| {
        let full = storage_path(&interp.state().cwd, candidate);
        interp.runtime().storage.stat(&full).is_ok_and(|m| m.kind == FileKind::File)
    })
}

pub(super) fn type_<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut terse = false;
    // `-p`: the path when the name is a file; `-P`: search `$PATH` even for
    // a builtin or function.
    let mut path_only = false;
    let mut force_path = false;
    let mut all = false;
    let mut status = 0;
    let mut text = String::new();
    let mut names = Vec::new();
    let mut options_done = false;
    for arg in &argv[1..] {
        if !options_done && arg.len() > 1 && arg.starts_with('-') {
            if arg == "--" {
                options_done = true;
                continue;
            }
            for flag in arg[1..].chars() {
                match flag {
                    't' => terse = true,
                    'p' => path_only = true,
                    'P' => force_path = true,
                    'a' => all = true,
                    'f' => {}
                    _ => {
                        interp.out(text.as_bytes())?;
                        interp.error(format_args!("type: -{flag}: invalid option"))?;
                        interp.err(b"type: usage: type [-afptP] name [name ...]\n")?;
                        return Ok(2);
                    }
                }
            }
            continue;
        }
        options_done = true;
        names.push(arg.clone());
    }
    for name in &names {
        let name = name.as_str();
        let mut found = false;
        if force_path {
            let paths = path_matches(interp, name, all);
            found = !paths.is_empty();
            for path in paths {
                text.push_str(&path);
                text.push('\n');
            }
            if !found {
                status = 1;
            }
            continue;
        }
        let mut kinds = Vec::new();
        if KEYWORDS.contains(&name) {
            kinds.push(Kind::Keyword);
        }
        if interp.state().functions.contains_key(name) {
            kinds.push(Kind::Function);
        }
        if lookup(name).is_some() {
            kinds.push(Kind::Builtin);
        }
        let files = path_matches(interp, name, all);
        if !all {
            kinds.truncate(1);
        }
        for kind in kinds {
            found = true;
            if path_only {
                continue;
            }
            let line = match (kind, terse) {
                (Kind::Function, true) => "function\n".to_string(),
                (Kind::Builtin, true) => "builtin\n".to_string(),
                (Kind::Keyword, true) => "keyword\n".to_string(),
                (Kind::Function, false) => match interp.state().functions.get(name) {
                    Some(body) => format!("{name} is a function\n{}", super::declare::function_text(name, body)),
                    None => format!("{name} is a function\n"),
                },
                (Kind::Builtin, false) => format!("{name} is a shell builtin\n"),
                (Kind::Keyword, false) => format!("{name} is a shell keyword\n"),
                (Kind::File, _) => String::new(),
            };
            text.push_str(&line);
            if !all {
                break;
            }
        }
        if !found || all {
            for path in files {
                found = true;
                let line = match (terse, path_only) {
                    (true, _) => "file\n".to_string(),
                    (_, true) => format!("{path}\n"),
                    _ => format!("{name} is {path}\n"),
                };
                text.push_str(&line);
                if !all {
                    break;
                }
            }
        }
        if !found {
            status = 1;
            if !terse && !path_only {
                interp.out(text.as_bytes())?;
                text.clear();
                interp.error(format_args!("type: {name}: not found"))?;
            }
        }
    }
    interp.out(text.as_bytes())?;
    Ok(status)
}

/// `command`'s options: `Some(long)` for `-v` (`-V`: long), and the words
/// after them.
pub(super) fn command_args(argv: &[String]) -> (Option<bool>, &[String]) {
    let mut i = 1;
    let mut verbose = None;
    while let Some(arg) = argv.get(i) {
        match arg.as_str() {
            "-v" => verbose = Some(false),
            "-V" => verbose = Some(true),
            "-p" => {}
            "--" => {
                i += 1;
                break;
            }
            _ => break,
        }
        i += 1;
    }
    let rest = &argv[i.min(argv.len())..];
    (verbose, rest)
}

/// `command -v NAME...` (`-V`: `long`): how each name would run. The
/// status is 0 when any name was found, as bash's.
pub(super) fn command_v<E: BuiltinEnv + ?Sized>(interp: &mut E, rest: &[String], long: bool) -> Res {
    let mut any = false;
    for name in rest {
        let kind = kind_of(interp, name, true);
        let line = match kind {
            Some(Kind::File) | None => match path_matches(interp, name, false).into_iter().next() {
                Some(path) if long => format!("{name} is {path}\n"),
                Some(path) => format!("{path}\n"),
                None => {
                    if long {
                        interp.error(format_args!("command: {name}: not found"))?;
                    }
                    continue;
                }
            },
            Some(Kind::Function) if long => match interp.state().functions.get(name.as_str()) {
                Some(body) => format!("{name} is a function\n{}", super::declare::function_text(name, body)),
                None => format!("{name} is a function\n"),
            },
            Some(Kind::Builtin) if long => format!("{name} is a shell builtin\n"),
            Some(Kind::Keyword) if long => format!("{name} is a shell keyword\n"),
            Some(_) => format!("{name}\n"),
        };
        any = true;
        interp.out(line.as_bytes())?;
    }
    Ok(if any || rest.is_empty() { 0 } else { 1 })
}

/// `compgen -c [prefix]` (commands: builtins, functions, the table),
/// `compgen -v` (variables), `compgen -A function`.
pub(super) fn compgen<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut kind = None;
    let mut prefix = "";
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "-c" => kind = Some("command"),
            "-v" => kind = Some("variable"),
            "-A" => {
                i += 1;
                kind = argv.get(i).map(String::as_str).map(|k| if k == "function" { "function" } else { "other" });
            }
            word => prefix = word,
        }
        i += 1;
    }
    let mut names: Vec<String> = match kind {
        Some("command") => {
            let mut all: Vec<String> = commands::names().into_iter().map(String::from).collect();
            all.extend(BUILTINS.iter().map(|b| b.to_string()));
            all.extend(KEYWORDS.iter().map(|k| k.to_string()));
            all.extend(interp.state().functions.keys().cloned());
            all
        }
        Some("variable") => interp.state().vars.keys().cloned().collect(),
        Some("function") => interp.state().functions.keys().cloned().collect(),
        _ => {
            interp.error("compgen: only -c, -v and -A function are supported")?;
            return Ok(2);
        }
    };
    names.retain(|n| n.starts_with(prefix));
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Ok(1);
    }
    let mut text = names.join("\n");
    text.push('\n');
    interp.out(text.as_bytes())?;
    Ok(0)
}
