//! Other scripts: `bash`/`sh` (`-c`, `-n`, a file), a script run by path
//! (`./x.sh`), and `exec`: builtins that drive the interpreter, so they
//! take `Interp`.

use super::*;

pub(super) fn bash(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut options = Vec::new();
    let mut command: Option<String> = None;
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if arg == "-c" {
            i += 1;
            match argv.get(i) {
                Some(c) => command = Some(c.clone()),
                None => return usage(interp, &argv[0], "-c: option requires an argument"),
            }
            i += 1;
            break;
        } else if arg == "-o" {
            i += 1;
            if let Some(o) = argv.get(i) {
                options.push((o.clone(), true));
            }
        } else if arg == "--" {
            i += 1;
            break;
        } else if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty() && !f.starts_with('-')) {
            for flag in flags.chars() {
                if flag == 'c' {
                    i += 1;
                    match argv.get(i) {
                        Some(c) => command = Some(c.clone()),
                        None => return usage(interp, &argv[0], "-c: option requires an argument"),
                    }
                } else {
                    options.push((flag.to_string(), true));
                }
            }
            if command.is_some() {
                i += 1;
                break;
            }
        } else if arg.starts_with("--") {
            // --norc, --noprofile…: accepted.
        } else {
            break;
        }
        i += 1;
    }
    let rest = &argv[i.min(argv.len())..];
    let mut arg0 = None;
    let from_file = command.is_none();
    let (script, positional) = match command {
        Some(c) => {
            arg0 = rest.first().cloned();
            (c, rest.get(1..).map(<[String]>::to_vec).unwrap_or_default())
        }
        None => match rest.first() {
            Some(file) => {
                arg0 = Some(file.clone());
                let path = storage_path(&interp.st.cwd, file);
                match interp.rt.storage.read(&path) {
                    Ok(data) => (String::from_utf8_lossy(&data).into_owned(), rest[1..].to_vec()),
                    Err(error) => {
                        let message = format!("{}: {file}: {}\n", argv[0], crate::shell::command::error_reason(&error));
                        interp.err(message.as_bytes())?;
                        return Ok(127);
                    }
                }
            }
            None => {
                let input = &mut interp.io.ins[interp.io.fd.input];
                let mut data = Vec::new();
                while input.fill()? {
                    data.extend_from_slice(&input.take_rest());
                    if data.len() > interp.rt.limits.max_memory_bytes {
                        return Err(Flow::Limit(crate::shell::LimitHit::Memory));
                    }
                }
                (String::from_utf8_lossy(&data).into_owned(), Vec::new())
            }
        },
    };
    if options.iter().any(|(o, _)| o == "n" || o == "noexec") {
        let file = if from_file { arg0.as_deref() } else { None };
        return syntax_check(interp, &script, file);
    }
    run_in_subshell(interp, &script, arg0, positional, &options)
}

/// `bash -n`: parses the script and runs nothing; a syntax error is
/// reported as bash does (`FILE: line N: …` for a file) with status 2.
pub(super) fn syntax_check(interp: &mut Interp<'_>, script: &str, file: Option<&str>) -> Res {
    match crate::shell::parse::parse_program(script, &interp.cache.popts) {
        Ok(_) => Ok(0),
        Err(message) => {
            let message = match file {
                Some(file) => message.replace("bash: -c: ", &format!("{file}: ")),
                None => message,
            };
            interp.err(message.as_bytes())?;
            Ok(2)
        }
    }
}

pub(super) fn run_in_subshell(
    interp: &mut Interp<'_>,
    script: &str,
    arg0: Option<String>,
    positional: Vec<String>,
    options: &[(String, bool)],
) -> Res {
    nested(interp, |interp| {
        interp.subshell(|s| {
            if let Some(arg0) = arg0 {
                s.st.arg0 = Arc::from(arg0);
            }
            s.st.positional = Arc::new(positional);
            s.st.exit_trap = None;
            for (name, on) in options {
                set_option(s, name, *on);
            }
            let saved_cond = std::mem::replace(&mut s.at.cond, 0);
            let saved_loops = std::mem::replace(&mut s.at.loops, 0);
            let result = s.eval_string(script);
            s.at.cond = saved_cond;
            s.at.loops = saved_loops;
            result
        })
    })
}

/// `./script.sh args`: runs a file of the storage in a subshell.
pub(crate) fn run_script_file(interp: &mut Interp<'_>, name: &str, args: &[String]) -> Res {
    let path = storage_path(&interp.st.cwd, name);
    match interp.rt.storage.stat(&path) {
        Ok(meta) if meta.kind == FileKind::Directory => {
            interp.error(format_args!("{name}: Is a directory"))?;
            return Ok(126);
        }
        // A script run by its path needs an execute bit, as execve(2) does
        // (`bash FILE` and `source FILE` do not).
        Ok(meta) if meta.mode & 0o111 == 0 => {
            interp.error(format_args!("{name}: Permission denied"))?;
            return Ok(126);
        }
        Ok(_) => {}
        Err(_) => {
            interp.error(format_args!("{name}: No such file or directory"))?;
            return Ok(127);
        }
    }
    let data = match interp.rt.storage.read(&path) {
        Ok(data) => data,
        Err(error) => {
            interp.error(format_args!("{name}: {}", crate::shell::command::error_reason(&error)))?;
            return Ok(126);
        }
    };
    let script = String::from_utf8_lossy(&data).into_owned();
    run_in_subshell(interp, &script, Some(name.to_string()), args.to_vec(), &[])
}

pub(super) fn exec(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() < 2 {
        return Ok(0);
    }
    let status = interp.dispatch(&argv[1..], None)?;
    Err(Flow::Exit(status))
}
