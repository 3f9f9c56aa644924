//! `timeout [-s SIGNAL] [-k DURATION] [--preserve-status] [-v] DURATION
//! COMMAND [ARG]...`: runs COMMAND with the shell's clock narrowed to
//! DURATION. When that runs out the command is stopped where it stands
//! (every loop and long command checks the clock) and `timeout` exits 124,
//! as GNU's does; with `--preserve-status`, 128 plus the signal's number.
//!
//! Differences: nothing is really signalled, so `-k` only is validated, and
//! the command is stopped at its next clock check rather than at once. The
//! command runs as through `xargs` (a builtin or a function is found too,
//! where GNU runs only programs), in a copy of the shell's state.

use std::time::Duration;

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::super::options::{parse, usage, Arg, HasArg, Spec};
use super::super::text::common::quote;
use super::interval;

/// Signal names and numbers `-s` takes (Linux x86-64).
const SIGNALS: &[(&str, i32)] = &[
    ("HUP", 1),
    ("INT", 2),
    ("QUIT", 3),
    ("ILL", 4),
    ("TRAP", 5),
    ("ABRT", 6),
    ("BUS", 7),
    ("FPE", 8),
    ("KILL", 9),
    ("USR1", 10),
    ("SEGV", 11),
    ("USR2", 12),
    ("PIPE", 13),
    ("ALRM", 14),
    ("TERM", 15),
    ("CHLD", 17),
    ("CONT", 18),
    ("STOP", 19),
    ("TSTP", 20),
    ("TTIN", 21),
    ("TTOU", 22),
    ("URG", 23),
    ("XCPU", 24),
    ("XFSZ", 25),
    ("VTALRM", 26),
    ("PROF", 27),
    ("WINCH", 28),
    ("IO", 29),
    ("PWR", 30),
    ("SYS", 31),
];

/// A signal by name (`TERM`, `SIGTERM`, any case) or number.
fn signal(text: &str) -> Option<(String, i32)> {
    if let Ok(number) = text.parse::<i32>() {
        if number == 0 {
            return Some(("0".to_string(), 0));
        }
        return SIGNALS.iter().find(|(_, n)| *n == number).map(|(name, n)| (name.to_string(), *n));
    }
    let upper = text.to_ascii_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    SIGNALS.iter().find(|(name, _)| *name == bare).map(|(name, n)| (name.to_string(), *n))
}

/// GNU timeout's options, which end at the first operand (the duration).
const SPEC: Spec = Spec {
    short: "+k:s:v",
    long: &[
        ("foreground", "foreground", HasArg::No),
        ("kill-after", "k", HasArg::Yes),
        ("preserve-status", "preserve-status", HasArg::No),
        ("signal", "s", HasArg::Yes),
        ("verbose", "v", HasArg::No),
    ],
};

pub(super) fn timeout(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut sig = ("TERM".to_string(), 15);
    let mut preserve = false;
    let mut verbose = false;
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 125),
    };
    let mut rest = Vec::new();
    for arg in parsed {
        let (key, value) = match arg {
            Arg::Operand(operand) => {
                rest.push(operand);
                continue;
            }
            Arg::Opt(key, value) => (key, value.unwrap_or_default()),
        };
        match key {
            "s" => match signal(&value) {
                Some(found) => sig = found,
                None => {
                    ctx.error(format!("{}: invalid signal", quote(&value)))?;
                    return usage_line(ctx);
                }
            },
            "k" if interval(&value).is_none() => {
                ctx.error(format!("invalid time interval {}", quote(&value)))?;
                return usage_line(ctx);
            }
            "preserve-status" => preserve = true,
            "v" => verbose = true,
            _ => {} // --foreground: there is no terminal to keep.
        }
    }
    if rest.len() < 2 {
        return usage_line(ctx);
    }
    let Some(seconds) = interval(&rest[0]) else {
        ctx.error(format!("invalid time interval {}", quote(&rest[0])))?;
        return usage_line(ctx);
    };
    let argv = &rest[1..];
    let stdin = &ctx.stdin.read_all()?;
    // 0 disables the limit, as GNU's.
    let status = if seconds == 0.0 {
        Some(ctx.runner.run(argv, stdin, ctx.stdout, ctx.stderr)?)
    } else {
        let limit = Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX);
        ctx.runner.run_with_timeout(limit, argv, stdin, ctx.stdout, ctx.stderr)?
    };
    match status {
        Some(status) => Ok(status),
        None => {
            if verbose {
                let line = format!("timeout: sending signal {} to command {}\n", sig.0, quote(&argv[0]));
                ctx.stderr.write_str(&line)?;
            }
            // KILL reaches timeout itself too, as in GNU's process group.
            Ok(if preserve || sig.1 == 9 { 128 + sig.1 } else { 124 })
        }
    }
}

/// GNU timeout's usage error: only the `Try` line, status 125.
fn usage_line(ctx: &mut Context<'_>) -> Result<i32, LimitHit> {
    ctx.stderr.write_str("Try 'timeout --help' for more information.\n")?;
    Ok(125)
}

#[cfg(test)]
mod tests {
    use super::signal;

    #[test]
    fn signals_by_name_and_number() {
        assert_eq!(signal("TERM"), Some(("TERM".to_string(), 15)));
        assert_eq!(signal("sigkill"), Some(("KILL".to_string(), 9)));
        assert_eq!(signal("2"), Some(("INT".to_string(), 2)));
        assert_eq!(signal("FOO"), None);
        assert_eq!(signal("99"), None);
    }
}
