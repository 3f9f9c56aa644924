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

pub(super) fn type_<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut terse = false;
    let mut path_only = false;
    let mut status = 0;
    let mut text = String::new();
    for arg in &argv[1..] {
        match arg.as_str() {
            "-t" => terse = true,
            "-p" | "-P" => path_only = true,
            "-a" | "-f" => {}
            name => match kind_of(interp, name, true) {
                Some(kind) => {
                    let line = match (kind, terse, path_only) {
                        (Kind::File, _, true) => format!("/usr/bin/{name}\n"),
                        (_, _, true) => String::new(),
                        (Kind::Function, true, _) => "function\n".to_string(),
                        (Kind::Builtin, true, _) => "builtin\n".to_string(),
                        (Kind::Keyword, true, _) => "keyword\n".to_string(),
                        (Kind::File, true, _) => "file\n".to_string(),
                        (Kind::Function, false, _) => match interp.state().functions.get(name) {
                            Some(body) => {
                                format!("{name} is a function\n{}", super::declare::function_text(name, body))
                            }
                            None => format!("{name} is a function\n"),
                        },
                        (Kind::Builtin, false, _) => format!("{name} is a shell builtin\n"),
                        (Kind::Keyword, false, _) => format!("{name} is a shell keyword\n"),
                        (Kind::File, false, _) => format!("{name} is /usr/bin/{name}\n"),
                    };
                    text.push_str(&line);
                }
                None => {
                    status = 1;
                    if !terse && !path_only {
                        interp.out(text.as_bytes())?;
                        text.clear();
                        interp.error(format_args!("type: {name}: not found"))?;
                    }
                }
            },
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

/// `command -v NAME...` (`-V`: `long`): how each name would run.
pub(super) fn command_v<E: BuiltinEnv + ?Sized>(interp: &mut E, rest: &[String], long: bool) -> Res {
    let mut status = 0;
    for name in rest {
        let line = match kind_of(interp, name, true) {
            Some(Kind::File) => {
                if long {
                    format!("{name} is /usr/bin/{name}\n")
                } else {
                    format!("/usr/bin/{name}\n")
                }
            }
            Some(Kind::Function) if long => format!("{name} is a function\n"),
            Some(Kind::Builtin) if long => format!("{name} is a shell builtin\n"),
            Some(Kind::Keyword) if long => format!("{name} is a shell keyword\n"),
            Some(_) => format!("{name}\n"),
            None => {
                status = 1;
                if long {
                    interp.error(format_args!("command: {name}: not found"))?;
                }
                continue;
            }
        };
        interp.out(line.as_bytes())?;
    }
    Ok(status)
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
