//! `getopts`.

use super::*;

pub(super) fn getopts<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    if argv.len() < 3 {
        interp.error("getopts: usage: getopts optstring name [arg ...]")?;
        return Ok(2);
    }
    let spec = argv[1].as_str();
    let name = argv[2].clone();
    let args: Vec<String> = if argv.len() > 3 { argv[3..].to_vec() } else { interp.state().positional.to_vec() };
    let silent = spec.starts_with(':');
    let spec = spec.trim_start_matches(':');
    let optind: usize = interp.state().get("OPTIND").and_then(|v| v.parse().ok()).filter(|&v| v >= 1).unwrap_or(1);
    let mut sub: usize = interp.state().get("_AIKIDO_OPTPOS").and_then(|v| v.parse().ok()).unwrap_or(0);
    let set = |interp: &mut E, n: &str, v: String| interp.set_var(n, v).map_err(|_| ());
    // The name is checked after the options are read (bash still moves
    // OPTIND and sets OPTARG), and makes the status 1.
    let bad_name = !is_name(&name);
    let set_name = |interp: &mut E, v: String| {
        if bad_name {
            let _ = interp.error(format_args!("getopts: `{name}': not a valid identifier"));
        } else {
            let _ = interp.set_var(&name, v);
        }
    };
    // The end of the options: name is `?`, OPTARG unset, OPTIND at the
    // first operand (never past one after the last argument).
    let end = |interp: &mut E, optind: usize| -> Res {
        interp.state_mut().unset("OPTARG");
        let _ = interp.set_var("OPTIND", optind.min(args.len() + 1).to_string());
        let _ = interp.set_var("_AIKIDO_OPTPOS", "0".to_string());
        set_name(interp, "?".to_string());
        Ok(1)
    };
    if sub > 0 && args.get(optind - 1).is_none_or(|a| a.chars().count() <= sub) {
        sub = 0;
    }
    let Some(arg) = args.get(optind - 1) else {
        return end(interp, optind);
    };
    if sub == 0 {
        if arg == "--" {
            return end(interp, optind + 1);
        }
        if !arg.starts_with('-') || arg.len() < 2 {
            return end(interp, optind);
        }
        sub = 1;
    }
    let chars: Vec<char> = arg.chars().collect();
    let opt = chars.get(sub).copied().unwrap_or('?');
    let mut next_optind = optind;
    let mut next_sub = sub + 1;
    if next_sub >= chars.len() {
        next_optind += 1;
        next_sub = 0;
    }
    let position = spec.find(opt).filter(|_| opt != ':');
    let status = match position {
        None => {
            if silent {
                let _ = set(interp, "OPTARG", opt.to_string());
            } else {
                interp.state_mut().unset("OPTARG");
                // As bash: `$0: …`, without a line.
                let text = format!("{}: illegal option -- {opt}\n", interp.state().arg0);
                interp.err(text.as_bytes())?;
            }
            set_name(interp, "?".to_string());
            0
        }
        Some(p) => {
            let takes = spec[p + opt.len_utf8()..].starts_with(':');
            if takes {
                let value = if next_sub != 0 {
                    let v: String = chars[next_sub..].iter().collect();
                    next_optind += 1;
                    next_sub = 0;
                    Some(v)
                } else {
                    let v = args.get(next_optind - 1).cloned();
                    if v.is_some() {
                        next_optind += 1;
                    }
                    v
                };
                match value {
                    Some(v) => {
                        let _ = set(interp, "OPTARG", v);
                        set_name(interp, opt.to_string());
                    }
                    None => {
                        if silent {
                            let _ = set(interp, "OPTARG", opt.to_string());
                            set_name(interp, ":".to_string());
                        } else {
                            interp.state_mut().unset("OPTARG");
                            let text = format!("{}: option requires an argument -- {opt}\n", interp.state().arg0);
                            interp.err(text.as_bytes())?;
                            set_name(interp, "?".to_string());
                        }
                    }
                }
            } else {
                interp.state_mut().unset("OPTARG");
                set_name(interp, opt.to_string());
            }
            0
        }
    };
    let _ = set(interp, "OPTIND", next_optind.to_string());
    let _ = set(interp, "_AIKIDO_OPTPOS", next_sub.to_string());
    Ok(if bad_name { 1 } else { status })
}
