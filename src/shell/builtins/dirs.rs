//! The working directory: `cd`, `pwd`, and the stack of `pushd`, `popd`
//! and `dirs`.

use super::*;

/// Changes the working directory for `pushd`/`popd` (`who` names the
/// builtin in messages). Returns the status.
pub(super) fn change_dir<E: BuiltinEnv + ?Sized>(interp: &mut E, who: &str, target: &str) -> Result<i32, Flow> {
    let path = storage_path(&interp.state().cwd, target);
    match interp.runtime().storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {}
        Ok(_) => {
            interp.error(format_args!("{who}: {target}: Not a directory"))?;
            return Ok(1);
        }
        Err(error) => {
            interp.error(format_args!("{who}: {target}: {}", crate::shell::command::error_reason(&error)))?;
            return Ok(1);
        }
    }
    let path = crate::storage::normalize(&path);
    let old = interp.state().cwd.to_string();
    interp.state_mut().set_scalar("OLDPWD", old);
    interp.state_mut().set_scalar("PWD", path.clone());
    interp.state_mut().cwd = path.into();
    Ok(0)
}

/// The stack as `dirs` prints it: the working directory first, `$HOME` as `~`.
pub(super) fn dir_stack_words<E: BuiltinEnv + ?Sized>(interp: &E) -> Vec<String> {
    let home = interp.state().get("HOME").unwrap_or("").to_string();
    std::iter::once(interp.state().cwd.to_string())
        .chain(interp.state().dir_stack.iter().cloned())
        .map(|dir| match dir.strip_prefix(home.as_str()) {
            Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => format!("~{rest}"),
            _ => dir,
        })
        .collect()
}

/// `dirs [-c] [-p] [-v] [-l]`.
pub(super) fn dirs<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let (mut clear, mut lines, mut numbered, mut long) = (false, false, false, false);
    for arg in &argv[1..] {
        match arg.as_str() {
            "-c" => clear = true,
            "-p" => lines = true,
            "-v" => numbered = true,
            "-l" => long = true,
            other => {
                interp.error(format_args!("dirs: {other}: invalid option"))?;
                interp.error("dirs: usage: dirs [-clpv] [+N] [-N]")?;
                return Ok(2);
            }
        }
    }
    if clear {
        interp.state_mut().dir_stack.clear();
        return Ok(0);
    }
    let words = if long {
        std::iter::once(interp.state().cwd.to_string()).chain(interp.state().dir_stack.iter().cloned()).collect()
    } else {
        dir_stack_words(interp)
    };
    let text = if numbered {
        words.iter().enumerate().map(|(i, w)| format!("{i:2}  {w}\n")).collect::<String>()
    } else if lines {
        words.iter().map(|w| format!("{w}\n")).collect::<String>()
    } else {
        format!("{}\n", words.join(" "))
    };
    interp.out(text.as_bytes())?;
    Ok(0)
}

/// `pushd [-n] [DIR]`: pushes the working directory and goes to DIR (or
/// swaps the top two), then prints the stack.
pub(super) fn pushd<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let quiet = argv[1..].iter().any(|a| a == "-n");
    let args: Vec<&String> = argv[1..].iter().filter(|a| *a != "-n" && *a != "--").collect();
    if args.len() > 1 {
        interp.error("pushd: too many arguments")?;
        return Ok(1);
    }
    let old = interp.state().cwd.to_string();
    match args.first() {
        None => {
            let Some(top) = interp.state().dir_stack.first().cloned() else {
                interp.error("pushd: no other directory")?;
                return Ok(1);
            };
            let status = change_dir(interp, "pushd", &top)?;
            if status != 0 {
                return Ok(status);
            }
            interp.state_mut().dir_stack[0] = old;
        }
        Some(dir) => {
            let status = change_dir(interp, "pushd", dir)?;
            if status != 0 {
                return Ok(status);
            }
            interp.state_mut().dir_stack.insert(0, old);
        }
    }
    if !quiet {
        dirs(interp, &["dirs".to_string()])?;
    }
    Ok(0)
}

/// `popd [-n]`: goes back to the directory on top of the stack.
pub(super) fn popd<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let quiet = argv[1..].iter().any(|a| a == "-n");
    let Some(top) = interp.state().dir_stack.first().cloned() else {
        interp.error("popd: directory stack empty")?;
        return Ok(1);
    };
    let status = change_dir(interp, "popd", &top)?;
    if status != 0 {
        return Ok(status);
    }
    interp.state_mut().dir_stack.remove(0);
    if !quiet {
        dirs(interp, &["dirs".to_string()])?;
    }
    Ok(0)
}

pub(super) fn cd<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let args: Vec<&String> = argv[1..].iter().filter(|a| !matches!(a.as_str(), "-L" | "-P" | "--")).collect();
    if args.len() > 1 {
        return usage(interp, "cd", "too many arguments").map(|_| 1);
    }
    let mut print = false;
    let target = match args.first().map(|s| s.as_str()) {
        None => match interp.state().get("HOME") {
            Some(home) => home.to_string(),
            None => {
                interp.error("cd: HOME not set")?;
                return Ok(1);
            }
        },
        Some("-") => match interp.state().get("OLDPWD") {
            Some(old) => {
                print = true;
                old.to_string()
            }
            None => {
                interp.error("cd: OLDPWD not set")?;
                return Ok(1);
            }
        },
        Some(dir) => dir.to_string(),
    };
    if target.is_empty() {
        return Ok(0);
    }
    let path = storage_path(&interp.state().cwd, &target);
    match interp.runtime().storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {}
        Ok(_) => {
            interp.error(format_args!("cd: {target}: Not a directory"))?;
            return Ok(1);
        }
        Err(error) => {
            interp.error(format_args!("cd: {target}: {}", crate::shell::command::error_reason(&error)))?;
            return Ok(1);
        }
    }
    let old = interp.state().cwd.to_string();
    interp.state_mut().set_scalar("OLDPWD", old);
    interp.state_mut().set_scalar("PWD", path.clone());
    if print {
        interp.out(format!("{path}\n").as_bytes())?;
    }
    interp.state_mut().cwd = path.into();
    Ok(0)
}

pub(super) fn pwd<E: BuiltinEnv + ?Sized>(interp: &mut E, _argv: &[String]) -> Res {
    let line = format!("{}\n", interp.state().cwd);
    interp.out(line.as_bytes())?;
    Ok(0)
}
