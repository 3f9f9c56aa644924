//! jq's command line: its own parser, not getopt (options such as `--arg
//! NAME VALUE` take two arguments, long names are never abbreviated, and
//! the messages are jq's).

use super::*;

/// How to print each output value.
#[derive(Clone, Debug)]
pub(super) struct Style {
    /// `None`: compact; `Some(s)`: pretty, indenting by `s` per level.
    pub(super) indent: Option<String>,
    pub(super) sort_keys: bool,
    pub(super) ascii: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style { indent: Some("  ".into()), sort_keys: false, ascii: false }
    }
}

#[derive(Default)]
pub(super) struct Options {
    pub(super) filter: Option<String>,
    pub(super) files: Vec<String>,
    pub(super) style: Style,
    pub(super) raw_output: bool,
    pub(super) join_output: bool,
    pub(super) null_input: bool,
    pub(super) raw_input: bool,
    pub(super) slurp: bool,
    pub(super) exit_status: bool,
    /// `--arg`, `--argjson`, `--slurpfile`, `--rawfile`: `$name` = value.
    pub(super) named: Vec<(String, Val)>,
    pub(super) positional: Vec<Val>,
}

pub(super) enum Parsed {
    Run(Box<Options>),
    Exit(i32),
}

const USAGE: &str = "Usage:\tjq [OPTIONS] FILTER [FILES...]\n\tjq [OPTIONS] --args FILTER [STRINGS...]\n\
\tjq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]\n\n\
jq is a tool for processing JSON inputs, applying the given filter to\n\
its JSON text inputs and producing the filter's results as JSON on\n\
standard output.\n\n\
Options: -n -r -j -a -s -R -c -S -e --tab --indent n --arg name value\n\
--argjson name text --slurpfile name file --rawfile name file\n\
--args --jsonargs -f file\n";

fn unknown_option(ctx: &mut Context<'_>, option: &str) -> Result<Parsed, LimitHit> {
    ctx.stderr.write_str(&format!(
        "jq: Unknown option: {option}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n"
    ))?;
    Ok(Parsed::Exit(STATUS_USAGE))
}

pub(super) fn parse_args(ctx: &mut Context<'_>, args: &[String]) -> Result<Parsed, LimitHit> {
    let mut opts = Options::default();
    let mut from_file: Option<String> = None;
    // After --args / --jsonargs, operands past the filter are values.
    let mut positional_mode: Option<bool> = None;
    let mut operands: Vec<&String> = Vec::new();
    let mut only_operands = false;
    let mut i = 0;
    // The value after an option that takes one, or a usage error.
    macro_rules! value {
        ($what:expr) => {{
            i += 1;
            match args.get(i) {
                Some(value) => value,
                None => {
                    ctx.stderr.write_str(&format!("jq: error: {} takes a parameter\n", $what))?;
                    return Ok(Parsed::Exit(STATUS_USAGE));
                }
            }
        }};
    }
    while i < args.len() {
        let arg = &args[i];
        if only_operands || arg == "-" || !arg.starts_with('-') {
            operands.push(arg);
            i += 1;
            continue;
        }
        match arg.as_str() {
            "--" => only_operands = true,
            "--raw-output" => opts.raw_output = true,
            "--join-output" => {
                opts.raw_output = true;
                opts.join_output = true;
            }
            "--ascii-output" => opts.style.ascii = true,
            "--compact-output" => opts.style.indent = None,
            "--null-input" => opts.null_input = true,
            "--raw-input" => opts.raw_input = true,
            "--slurp" => opts.slurp = true,
            "--exit-status" => opts.exit_status = true,
            "--sort-keys" => opts.style.sort_keys = true,
            "--monochrome-output" | "--color-output" | "--unbuffered" => {}
            "--tab" => opts.style.indent = Some("\t".into()),
            "--indent" => {
                let text = value!("--indent");
                match text.parse::<usize>() {
                    Ok(n) if n <= 7 => opts.style.indent = if n == 0 { None } else { Some(" ".repeat(n)) },
                    Ok(_) => {
                        ctx.stderr.write_str("jq: Cannot indent more than 7 characters\n")?;
                        return Ok(Parsed::Exit(STATUS_USAGE));
                    }
                    Err(_) => {
                        ctx.stderr.write_str("jq: --indent takes a number\n")?;
                        return Ok(Parsed::Exit(STATUS_USAGE));
                    }
                }
            }
            "--arg" => {
                let name = value!("--arg").clone();
                let text = value!("--arg");
                opts.named.push((name, Val::from(text.clone())));
            }
            "--argjson" => {
                let name = value!("--argjson").clone();
                let text = value!("--argjson");
                match parse_one(text.as_bytes()) {
                    Ok(value) => opts.named.push((name, value)),
                    Err(_) => {
                        ctx.stderr.write_str(&format!("jq: Invalid JSON text passed to --argjson\n{USAGE}"))?;
                        return Ok(Parsed::Exit(STATUS_USAGE));
                    }
                }
            }
            "--slurpfile" | "--rawfile" => {
                let raw = arg == "--rawfile";
                let name = value!(arg).clone();
                let path = value!(arg);
                let bytes = match ctx.read(path) {
                    Ok(bytes) => bytes,
                    Err(err) => {
                        let reason = crate::shell::command::error_reason(&err);
                        ctx.stderr.write_str(&format!("jq: error: Could not open {path}: {reason}\n"))?;
                        return Ok(Parsed::Exit(STATUS_USAGE));
                    }
                };
                let value = if raw {
                    Val::from(String::from_utf8_lossy(&bytes).into_owned())
                } else {
                    let mut parser = JsonParser::new(&bytes);
                    let mut items = Vec::new();
                    loop {
                        match parser.next_value() {
                            None => break,
                            Some(Ok(value)) => items.push(value),
                            Some(Err(err)) => {
                                ctx.stderr.write_str(&format!("jq: Bad JSON in --slurpfile {name} {path}: {err}\n"))?;
                                return Ok(Parsed::Exit(STATUS_USAGE));
                            }
                        }
                    }
                    Val::Arr(Rc::new(items))
                };
                opts.named.push((name, value));
            }
            "--args" => positional_mode = Some(false),
            "--jsonargs" => positional_mode = Some(true),
            "--from-file" => from_file = Some(value!("--from-file").clone()),
            "--help" => {
                ctx.stdout.write_str(USAGE)?;
                return Ok(Parsed::Exit(0));
            }
            "--version" => {
                ctx.stdout.write_str("jq-1.7.1\n")?;
                return Ok(Parsed::Exit(0));
            }
            long if long.starts_with("--") => return unknown_option(ctx, long),
            short => {
                // Short options combine: `-nr`, `-rc`.
                for letter in short[1..].chars() {
                    match letter {
                        'r' => opts.raw_output = true,
                        'j' => {
                            opts.raw_output = true;
                            opts.join_output = true;
                        }
                        'a' => opts.style.ascii = true,
                        'c' => opts.style.indent = None,
                        'n' => opts.null_input = true,
                        'R' => opts.raw_input = true,
                        's' => opts.slurp = true,
                        'e' => opts.exit_status = true,
                        'S' => opts.style.sort_keys = true,
                        'C' | 'M' => {}
                        'f' => from_file = Some(value!("-f").clone()),
                        'h' => {
                            ctx.stdout.write_str(USAGE)?;
                            return Ok(Parsed::Exit(0));
                        }
                        'V' => {
                            ctx.stdout.write_str("jq-1.7.1\n")?;
                            return Ok(Parsed::Exit(0));
                        }
                        _ => return unknown_option(ctx, short),
                    }
                }
            }
        }
        i += 1;
    }
    let mut operands = operands.into_iter();
    if let Some(path) = from_file {
        match ctx.read(&path) {
            Ok(bytes) => opts.filter = Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(err) => {
                let reason = crate::shell::command::error_reason(&err);
                ctx.stderr.write_str(&format!("jq: error: Could not open {path}: {reason}\n"))?;
                return Ok(Parsed::Exit(STATUS_USAGE));
            }
        }
    } else {
        opts.filter = operands.next().cloned();
    }
    for operand in operands {
        match positional_mode {
            None => opts.files.push(operand.clone()),
            Some(false) => opts.positional.push(Val::from(operand.clone())),
            Some(true) => match parse_one(operand.as_bytes()) {
                Ok(value) => opts.positional.push(value),
                Err(_) => {
                    ctx.stderr.write_str(&format!("jq: Invalid JSON text passed to --jsonargs\n{USAGE}"))?;
                    return Ok(Parsed::Exit(STATUS_USAGE));
                }
            },
        }
    }
    Ok(Parsed::Run(Box::new(opts)))
}
