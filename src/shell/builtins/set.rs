//! The shell's options and positional parameters: `set`, `shift`,
//! `unset` and `shopt`.

use super::*;

pub(super) fn set_option<E: BuiltinEnv + ?Sized>(interp: &mut E, name: &str, on: bool) -> bool {
    let options = &mut interp.state_mut().options;
    match name {
        "e" | "errexit" => options.errexit = on,
        "u" | "nounset" => options.nounset = on,
        "x" | "xtrace" => options.xtrace = on,
        "f" | "noglob" => options.noglob = on,
        "C" | "noclobber" => options.noclobber = on,
        "pipefail" => options.pipefail = on,
        "E" | "errtrace" => options.errtrace = on,
        "T" | "functrace" => options.functrace = on,
        // Accepted and ignored.
        "h"
        | "B"
        | "H"
        | "v"
        | "verbose"
        | "hashall"
        | "braceexpand"
        | "histexpand"
        | "monitor"
        | "m"
        | "posix"
        | "emacs"
        | "vi"
        | "notify"
        | "b"
        | "a"
        | "allexport"
        | "k"
        | "t"
        | "P"
        | "physical"
        | "interactive-comments"
        | "ignoreeof"
        | "history" => {}
        _ => return false,
    }
    true
}

pub(super) fn set<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    if argv.len() == 1 {
        let mut names: Vec<&String> = interp.state().vars.keys().collect();
        names.sort();
        let mut text = String::new();
        for name in names {
            if let Some(var) = interp.state().vars.get(name) {
                text.push_str(&declare_line(name, var, false));
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(0);
    }
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if arg == "--" {
            i += 1;
            interp.state_mut().positional = Arc::new(argv[i..].to_vec());
            return Ok(0);
        }
        let (on, flags) = match arg.as_bytes().first() {
            Some(b'-') => (true, &arg[1..]),
            Some(b'+') => (false, &arg[1..]),
            _ => break,
        };
        if flags.is_empty() {
            i += 1;
            if !on {
                // A lone `+` is ignored.
                continue;
            }
            // `set -` ends the options and turns `-x` and `-v` off; with no
            // word after it, the positional parameters stay.
            interp.state_mut().options.xtrace = false;
            if i == argv.len() {
                return Ok(0);
            }
            break;
        }
        for flag in flags.chars() {
            if flag == 'o' {
                i += 1;
                match argv.get(i) {
                    Some(name) => {
                        if !set_option(interp, name, on) {
                            interp.error(format_args!("set: {name}: invalid option name"))?;
                            return Ok(2);
                        }
                    }
                    None => {
                        // Every option bash lists, in its order: `set -o` as a
                        // table, `set +o` as the commands that restore them.
                        let o = interp.state().options;
                        let mut text = String::new();
                        for (name, value) in [
                            ("allexport", false),
                            ("braceexpand", true),
                            ("emacs", false),
                            ("errexit", o.errexit),
                            ("errtrace", o.errtrace),
                            ("functrace", o.functrace),
                            ("hashall", true),
                            ("histexpand", false),
                            ("history", false),
                            ("ignoreeof", false),
                            ("interactive-comments", true),
                            ("keyword", false),
                            ("monitor", false),
                            ("noclobber", o.noclobber),
                            ("noexec", false),
                            ("noglob", o.noglob),
                            ("nolog", false),
                            ("notify", false),
                            ("nounset", o.nounset),
                            ("onecmd", false),
                            ("physical", false),
                            ("pipefail", o.pipefail),
                            ("posix", false),
                            ("privileged", false),
                            ("verbose", false),
                            ("vi", false),
                            ("xtrace", o.xtrace),
                        ] {
                            if on {
                                text.push_str(&format!("{name:<15}\t{}\n", if value { "on" } else { "off" }));
                            } else {
                                text.push_str(&format!("set {}o {name}\n", if value { '-' } else { '+' }));
                            }
                        }
                        interp.out(text.as_bytes())?;
                        return Ok(0);
                    }
                }
            } else if !set_option(interp, &flag.to_string(), on) {
                interp.error(format_args!("set: {}{flag}: invalid option", if on { '-' } else { '+' }))?;
                return Ok(2);
            }
        }
        i += 1;
    }
    if i < argv.len() {
        interp.state_mut().positional = Arc::new(argv[i..].to_vec());
    }
    Ok(0)
}

pub(super) fn shift<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let n = match argv.get(1) {
        None => 1,
        Some(text) => match text.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                interp.error(format_args!("shift: {text}: numeric argument required"))?;
                return Ok(1);
            }
        },
    };
    if n > interp.state().positional.len() {
        return Ok(1);
    }
    Arc::make_mut(&mut interp.state_mut().positional).drain(..n);
    Ok(0)
}

pub(super) fn unset<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut functions = false;
    let mut unset_ref = false;
    let mut status = 0;
    for arg in &argv[1..] {
        match arg.as_str() {
            "-f" => functions = true,
            "-v" => functions = false,
            "-n" => unset_ref = true,
            name => {
                // `unset ref` unsets what a nameref names; `unset -n ref` the reference.
                let target =
                    if unset_ref || functions { name.to_string() } else { interp.state().resolved(name).into_owned() };
                let name = target.as_str();
                if functions {
                    if interp.state().functions.contains_key(name) {
                        Arc::make_mut(&mut interp.state_mut().functions).remove(name);
                    }
                    continue;
                }
                if let Some((base, index)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) {
                    unset_element(interp, base, index)?;
                    continue;
                }
                if interp.state().vars.get(name).is_some_and(|v| v.readonly) {
                    interp.error(format_args!("unset: {name}: cannot unset: readonly variable"))?;
                    status = 1;
                    continue;
                }
                if interp.state().vars.contains_key(name) {
                    interp.state_mut().unset(name);
                } else if interp.state().functions.contains_key(name) {
                    Arc::make_mut(&mut interp.state_mut().functions).remove(name);
                }
            }
        }
    }
    Ok(status)
}

pub(super) fn unset_element<E: BuiltinEnv + ?Sized>(interp: &mut E, name: &str, index: &str) -> Result<(), Flow> {
    if index == "@" || index == "*" {
        interp.state_mut().unset(name);
        return Ok(());
    }
    match interp.state().vars.get(name).map(|v| &v.value) {
        Some(Value::Assoc(_)) => {
            let key = interp.expand_string(index)?;
            if let Some(Value::Assoc(map)) = interp.state_mut().vars_mut().get_mut(name).map(|v| &mut v.value) {
                map.shift_remove(&key);
            }
        }
        Some(Value::Indexed(_)) | Some(Value::Str(_)) => {
            let i = interp.arith_expand(index)?;
            let Some(i) = interp.state().resolve_index(name, i) else { return Ok(()) };
            let var = interp.state_mut().vars_mut().get_mut(name);
            match var.map(|v| &mut v.value) {
                Some(Value::Indexed(map)) => {
                    map.remove(&i);
                }
                Some(Value::Str(_)) if i == 0 => interp.state_mut().unset(name),
                _ => {}
            }
        }
        None => {}
    }
    Ok(())
}

/// `shopt -s/-u/-q/-p name…`: `nullglob`, `dotglob`, `lastpipe`,
/// `extglob`, `globstar`, `failglob`, `nocaseglob` and `nocasematch` work;
/// bash's other options are accepted and ignored (shown as off), an unknown
/// name is an error (status 1). `extglob` changes the parser from the next
/// line on, as in bash.
pub(super) fn shopt<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut mode = None;
    let mut quiet = false;
    let mut print = false;
    let mut status = 0;
    let mut names = Vec::new();
    for arg in &argv[1..] {
        match arg.as_str() {
            "-s" => mode = Some(true),
            "-u" => mode = Some(false),
            "-q" => quiet = true,
            "-p" => print = true,
            "-o" => {}
            name => names.push(name),
        }
    }
    let mut text = String::new();
    for name in names {
        let options = &mut interp.state_mut().options;
        let slot = match name {
            "nullglob" => Some(&mut options.nullglob),
            "dotglob" => Some(&mut options.dotglob),
            "lastpipe" => Some(&mut options.lastpipe),
            "extglob" => Some(&mut options.extglob),
            "globstar" => Some(&mut options.globstar),
            "failglob" => Some(&mut options.failglob),
            "nocaseglob" => Some(&mut options.nocaseglob),
            "nocasematch" => Some(&mut options.nocasematch),
            _ => None,
        };
        let on = match (slot, mode) {
            (Some(slot), Some(on)) => {
                *slot = on;
                continue;
            }
            (Some(slot), None) => *slot,
            (None, _) if !BASH_SHOPT_NAMES.contains(&name) => {
                interp.error(format_args!("shopt: {name}: invalid shell option name"))?;
                status = 1;
                continue;
            }
            (None, Some(_)) => continue,
            (None, None) => BASH_SHOPT_ON.contains(&name),
        };
        if !on {
            status = 1;
        }
        if print {
            text.push_str(&format!("shopt {} {name}\n", if on { "-s" } else { "-u" }));
        } else if !quiet {
            text.push_str(&format!("{name:<15}\t{}\n", if on { "on" } else { "off" }));
        }
    }
    interp.caches_mut().popts.enable_extended_globbing = interp.state().options.extglob;
    interp.out(text.as_bytes())?;
    Ok(status)
}

/// The options on in a fresh `bash -c` (and here: what they govern is
/// bash's default behaviour or does not apply).
const BASH_SHOPT_ON: &[&str] = &[
    "checkwinsize",
    "cmdhist",
    "complete_fullquote",
    "extquote",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "hostcomplete",
    "interactive_comments",
    "patsub_replacement",
    "progcomp",
    "promptvars",
    "sourcepath",
];

/// The names bash 5.2's `shopt` knows.
const BASH_SHOPT_NAMES: &[&str] = &[
    "autocd",
    "assoc_expand_once",
    "cdable_vars",
    "cdspell",
    "checkhash",
    "checkjobs",
    "checkwinsize",
    "cmdhist",
    "compat31",
    "compat32",
    "compat40",
    "compat41",
    "compat42",
    "compat43",
    "compat44",
    "complete_fullquote",
    "direxpand",
    "dirspell",
    "dotglob",
    "execfail",
    "expand_aliases",
    "extdebug",
    "extglob",
    "extquote",
    "failglob",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "globstar",
    "gnu_errfmt",
    "histappend",
    "histreedit",
    "histverify",
    "hostcomplete",
    "huponexit",
    "inherit_errexit",
    "interactive_comments",
    "lastpipe",
    "lithist",
    "localvar_inherit",
    "localvar_unset",
    "login_shell",
    "mailwarn",
    "no_empty_cmd_completion",
    "nocaseglob",
    "nocasematch",
    "noexpand_translation",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "progcomp_alias",
    "promptvars",
    "restricted_shell",
    "shift_verbose",
    "sourcepath",
    "varredir_close",
    "xpg_echo",
];
