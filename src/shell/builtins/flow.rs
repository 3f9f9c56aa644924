//! The builtins that drive the interpreter, and so take `Interp` itself:
//! leaving (`exit`, `return`, `break`, `continue`) and running code
//! (`eval`, `source`, `command`, `builtin`, `printf` without `-v`, which
//! runs the command of the table). `let` is here beside them. The others
//! (`scripts.rs` aside) see the shell through [`BuiltinEnv`].

use super::*;

pub(super) fn status_arg(interp: &mut Interp<'_>, name: &str, arg: Option<&String>) -> Result<Option<i32>, Flow> {
    match arg {
        None => Ok(Some(interp.st.last_status)),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(n) => Ok(Some((n & 0xff) as i32)),
            Err(_) => {
                interp.error(format_args!("{name}: {text}: numeric argument required"))?;
                Ok(None)
            }
        },
    }
}

pub(super) fn exit(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    match status_arg(interp, "exit", argv.get(1))? {
        Some(status) => Err(Flow::Exit(status)),
        None => Err(Flow::Exit(2)),
    }
}

pub(super) fn return_(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if interp.at.depth == 0 && interp.at.sourcing == 0 {
        interp.error("return: can only `return' from a function or sourced script")?;
        return Ok(2);
    }
    match status_arg(interp, "return", argv.get(1))? {
        Some(status) => Err(Flow::Return(status)),
        None => Err(Flow::Return(2)),
    }
}

pub(super) fn break_continue(interp: &mut Interp<'_>, argv: &[String], is_break: bool) -> Res {
    let name = if is_break { "break" } else { "continue" };
    if argv.len() > 2 {
        // bash stops the script here.
        interp.error(format_args!("{name}: too many arguments"))?;
        return Err(Flow::Exit(1));
    }
    let n = match argv.get(1) {
        None => 1,
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n >= 1 => n.min(i64::from(u32::MAX)) as u32,
            Ok(_) => {
                interp.error(format_args!("{name}: {text}: loop count out of range"))?;
                return Ok(1);
            }
            Err(_) => {
                interp.error(format_args!("{name}: {text}: numeric argument required"))?;
                return Ok(1);
            }
        },
    };
    if interp.at.loops == 0 {
        interp.error(format_args!("{name}: only meaningful in a `for', `while', or `until' loop"))?;
        return Ok(0);
    }
    let n = n.min(interp.at.loops);
    Err(if is_break { Flow::Break(n) } else { Flow::Continue(n) })
}

pub(super) fn eval(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    // `eval -- words` skips the `--`; any other option is an error.
    let words = match argv.get(1).map(String::as_str) {
        Some("--") => &argv[2..],
        Some(option) if option.len() > 1 && option.starts_with('-') => {
            let flag = option.chars().nth(1).unwrap_or('-');
            interp.error(format_args!("eval: -{flag}: invalid option"))?;
            interp.err(b"eval: usage: eval [arg ...]\n")?;
            return Ok(2);
        }
        _ => &argv[1..],
    };
    let script = words.join(" ");
    if script.trim().is_empty() {
        return Ok(0);
    }
    match nested(interp, |i| i.eval_string(&script)) {
        // What abandons a line inside the string ends only the eval (bash).
        Err(Flow::Abort(status)) => Ok(status),
        other => other,
    }
}

/// Runs `f` one level deeper (function depth also bounds `eval` and `source`).
pub(super) fn nested(interp: &mut Interp<'_>, f: impl FnOnce(&mut Interp<'_>) -> Res) -> Res {
    if interp.at.depth >= interp.rt.limits.max_function_depth {
        return Err(Flow::Limit(crate::shell::LimitHit::FunctionDepth));
    }
    interp.rt.check_stack()?;
    interp.at.depth += 1;
    let result = f(interp);
    interp.at.depth -= 1;
    result
}

pub(super) fn source(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let Some(file) = argv.get(1) else {
        interp.error(format_args!("{}: filename argument required", argv[0]))?;
        return Ok(2);
    };
    // A name without a `/` is looked for along `$PATH` first, then here.
    let found = path_file(&*interp, file);
    let path = storage_path(&interp.st.cwd, found.as_deref().unwrap_or(file));
    // `source <(cmd)`: a process substitution's path.
    let data = match interp.io.proc_fd_input(&path).map_or_else(|| interp.rt.storage.read(&path), Ok) {
        Ok(data) => data,
        Err(error) => {
            interp.error(format_args!("{file}: {}", crate::shell::command::error_reason(&error)))?;
            return Ok(1);
        }
    };
    let script = String::from_utf8_lossy(&data).into_owned();
    let saved_positional = if argv.len() > 2 {
        Some(std::mem::replace(&mut interp.st.positional, Arc::new(argv[2..].to_vec())))
    } else {
        None
    };
    interp.at.sourcing += 1;
    let result = nested(interp, |i| i.eval_string(&script));
    interp.at.sourcing -= 1;
    if let Some(saved) = saved_positional {
        interp.st.positional = saved;
    }
    let result = match result {
        Err(Flow::Return(status)) => Ok(status),
        other => other,
    };
    // `trap … RETURN` runs when a sourced file finishes, as after a function.
    if let (Ok(status), Some((_, action))) = (&result, interp.st.traps.get(&crate::shell::state::RETURN_TRAP).cloned())
    {
        if !interp.st.in_trap {
            interp.run_trap_action(&action, *status)?;
        }
    }
    result
}

pub(super) fn let_(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.len() < 2 {
        interp.error("let: expression expected")?;
        return Ok(1);
    }
    let mut last = 0;
    for expr in &argv[1..] {
        match interp.arith_value(expr) {
            Ok(v) => last = v,
            Err(error) => {
                let message = super::super::arith::message(expr, &error);
                interp.error(format_args!("let: {message}"))?;
                return Ok(1);
            }
        }
    }
    Ok(i32::from(last == 0))
}

/// `command [-pvV] NAME [ARG]...`: runs NAME skipping functions (`-v`,
/// `-V`: says how it would run).
pub(super) fn command(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let (verbose, rest) = command_args(argv);
    if let Some(long) = verbose {
        return command_v(interp, rest, long);
    }
    if rest.is_empty() {
        return Ok(0);
    }
    // `command name`: skip functions.
    let name = rest[0].as_str();
    if let Some(builtin) = lookup(name) {
        return builtin(interp, rest);
    }
    let saved = interp.st.functions.clone();
    if saved.contains_key(name) {
        let mut without = (*saved).clone();
        without.remove(name);
        interp.st.functions = Arc::new(without);
        let result = interp.dispatch(rest, None);
        interp.st.functions = saved;
        return result;
    }
    interp.dispatch(rest, None)
}

/// `builtin NAME [ARG]...`: runs the builtin NAME, skipping functions.
pub(super) fn builtin(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let argv = if argv.get(1).is_some_and(|a| a == "--") { &argv[1..] } else { argv };
    let Some(name) = argv.get(1) else { return Ok(0) };
    match lookup(name).filter(|_| BUILTINS.contains(&name.as_str()) && !matches!(name.as_str(), "bash" | "sh")) {
        Some(function) => function(interp, &argv[1..]),
        None => {
            interp.error(format_args!("builtin: {name}: not a shell builtin"))?;
            Ok(1)
        }
    }
}

/// `printf -v NAME …` sets a variable ([`printf_var`]); any other `printf`
/// runs the command of the table.
pub(super) fn printf(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    if argv.get(1).map(String::as_str) == Some("-v") {
        return printf_var(interp, argv);
    }
    if argv.len() == 1 {
        interp.err(b"printf: usage: printf [-v var] format [arguments]\n")?;
        return Ok(2);
    }
    // A builtin's messages say where: `bash: line N: printf: abc: invalid number`.
    let source = if interp.at.functions_running > 0 { "environment" } else { "bash" };
    let mut named = argv.to_vec();
    named[0] = format!("{source}: line {}: printf", interp.at.line);
    match commands::lookup("printf") {
        Some(command) => interp.run_table(command, &named),
        None => Ok(127),
    }
}
