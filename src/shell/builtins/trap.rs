//! `trap`: `EXIT`, `ERR` and `RETURN` run; other conditions are kept for
//! `trap -p`.

use super::*;

pub(super) fn trap<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let args = &argv[1..];
    if args.is_empty() || args[0] == "-p" {
        let names = if args.is_empty() { &[][..] } else { &args[1..] };
        let mut text = String::new();
        let mut status = 0;
        let line = |name: &str, action: &str| format!("trap -- {} {name}\n", single_quote(action));
        if names.is_empty() {
            if let Some(action) = interp.state().exit_trap.clone() {
                text.push_str(&line("EXIT", &action));
            }
            for (name, action) in interp.state().traps.values() {
                text.push_str(&line(name, action));
            }
        }
        for name in names {
            match crate::shell::state::trap_number(name) {
                Some((0, _)) => {
                    if let Some(action) = interp.state().exit_trap.clone() {
                        text.push_str(&line("EXIT", &action));
                    }
                }
                Some((n, _)) => {
                    if let Some((name, action)) = interp.state().traps.get(&n) {
                        text.push_str(&line(name, action));
                    }
                }
                None => {
                    interp.error(format_args!("trap: {name}: invalid signal specification"))?;
                    status = 1;
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    if args[0] == "-l" {
        return Ok(0);
    }
    let args = if args[0] == "--" { &args[1..] } else { args };
    // `trap N…` with a number first resets those signals, as `trap - N…`.
    let reset_all = args.len() == 1 || args[0].parse::<u32>().is_ok();
    let (action, signals) = if reset_all || args[0] == "-" {
        (None, if reset_all { args } else { &args[1..] })
    } else {
        (Some(args[0].clone()), &args[1..])
    };
    let mut status = 0;
    for signal in signals {
        match crate::shell::state::trap_number(signal) {
            Some((0, _)) => {
                interp.state_mut().exit_trap = action.clone().filter(|a| !a.is_empty()).map(Arc::from);
            }
            Some((n, name)) => match &action {
                Some(action) => {
                    interp.state_mut().traps.insert(n, (name, Arc::from(action.as_str())));
                }
                None => {
                    interp.state_mut().traps.remove(&n);
                }
            },
            None => {
                interp.error(format_args!("trap: {signal}: invalid signal specification"))?;
                status = 1;
            }
        }
    }
    Ok(status)
}
