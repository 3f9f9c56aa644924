//! Small commands agents reach for: `sleep`, `env`, `printenv`, `tac`,
//! `base64`, `expr`, `which`, `uname`, `whoami`, `id`, `hostname`, `date`.
//!
//! The machine they describe is fixed: user `user` (uid and gid 1000, the
//! owner `ls -l` shows), host `aikido`, `Linux aikido 6.0.0 #1 SMP x86_64
//! GNU/Linux`, every command of the shell in `/usr/bin`, and the clock in
//! UTC (`TZ` is not read).

use std::time::{Duration, Instant};

use crate::shell::command::{CommandFn, Context, EnvChange};
use crate::shell::LimitHit;

use super::text::common::{parse, quote, read_input, tick, usage, Arg, HasArg, OpenStyle, Spec};

mod date;
mod expr;
mod timeout;
mod yes;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("sleep", sleep),
    ("env", env),
    ("printenv", printenv),
    ("tac", tac),
    ("base64", base64),
    ("expr", expr::expr),
    ("which", which),
    ("uname", uname),
    ("whoami", whoami),
    ("id", id),
    ("hostname", hostname),
    ("date", date::date),
    ("yes", yes::yes),
    ("timeout", timeout::timeout),
];

/// The user every file belongs to (as `ls -l` and `stat` show it).
const USER: &str = "user";
/// Its uid and gid.
const UID: u32 = 1000;
/// The host name.
const HOST: &str = "aikido";

/// Parses with `spec`; on a getopt error prints it GNU's way.
fn options(
    ctx: &mut Context<'_>,
    spec: &Spec,
    args: &[String],
    status: i32,
) -> Result<Result<Vec<Arg>, i32>, LimitHit> {
    match parse(spec, args) {
        Ok(parsed) => Ok(Ok(parsed)),
        Err(message) => Ok(Err(usage(ctx, &message, status)?)),
    }
}

// ----- sleep -----

/// `sleep NUMBER[smhd]...`: waits for the sum of the operands (`infinity`
/// too), in small steps so the time limit and cancellation stop it.
fn sleep(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &Spec { short: "", long: &[] }, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let operands: Vec<String> = parsed
        .into_iter()
        .filter_map(|arg| match arg {
            Arg::Operand(op) => Some(op),
            Arg::Opt(..) => None,
        })
        .collect();
    if operands.is_empty() {
        return usage(ctx, "missing operand", 1);
    }
    let mut total = 0.0_f64;
    let mut ok = true;
    for operand in &operands {
        match interval(operand) {
            Some(seconds) => total += seconds,
            None => {
                ctx.error(format!("invalid time interval {}", quote(operand)))?;
                ok = false;
            }
        }
    }
    if !ok {
        let line = format!("Try '{} --help' for more information.\n", ctx.name);
        ctx.stderr.write_str(&line)?;
        return Ok(1);
    }
    let total = Duration::try_from_secs_f64(total).unwrap_or(Duration::MAX);
    let start = Instant::now();
    loop {
        (ctx.check)()?;
        let elapsed = start.elapsed();
        if elapsed >= total {
            return Ok(0);
        }
        std::thread::sleep((total - elapsed).min(Duration::from_millis(10)));
    }
}

/// Seconds in a `sleep` operand: a non-negative C float (`1.5`, `.5`,
/// `1e3`, `inf`) and at most one suffix `s`, `m`, `h` or `d`.
fn interval(text: &str) -> Option<f64> {
    let (number, scale) = match text.as_bytes().last()? {
        b's' => (&text[..text.len() - 1], 1.0),
        b'm' => (&text[..text.len() - 1], 60.0),
        b'h' => (&text[..text.len() - 1], 3600.0),
        b'd' if !text.eq_ignore_ascii_case("inf") => (&text[..text.len() - 1], 86_400.0),
        _ => (text, 1.0),
    };
    // Rust's float syntax is C's less hex floats and leading blanks; it also
    // takes "inf" and "infinity" in any case, as strtod does.
    let value: f64 = number.parse().ok()?;
    (value >= 0.0 && !number.starts_with('-')).then_some(value * scale)
}

// ----- env, printenv -----

/// env's options (GNU's less `-C`, `-S`, `-v` and the signal ones, which
/// are refused); they end at the first operand.
const ENV_SPEC: Spec = Spec {
    short: "+iu:0",
    long: &[("ignore-environment", "i", HasArg::No), ("null", "0", HasArg::No), ("unset", "u", HasArg::Yes)],
};

/// `env [-i] [-0] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]`: prints
/// the environment, or runs COMMAND in a changed one.
fn env(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut change = EnvChange::default();
    let mut null = false;
    let parsed = match parse(&ENV_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 125),
    };
    let mut rest = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("i", _) => change.clear = true,
            Arg::Opt("0", _) => null = true,
            Arg::Opt(_, name) => change.unset.push(name.unwrap_or_default()),
            Arg::Operand(operand) => rest.push(operand),
        }
    }
    // A lone `-` first is `-i`.
    let args = &rest[..];
    let mut at = 0;
    if args.first().is_some_and(|arg| arg == "-") {
        change.clear = true;
        at = 1;
    }
    while let Some((name, value)) = args.get(at).and_then(|arg| arg.split_once('=')) {
        change.set.push((name.to_string(), value.to_string()));
        at += 1;
    }
    let command = &args[at..];
    if command.is_empty() {
        let mut vars = if change.clear { Vec::new() } else { ctx.runner.exported() };
        vars.retain(|(name, _)| !change.unset.contains(name) && !change.set.iter().any(|(set, _)| set == name));
        let mut out = String::new();
        for (name, value) in vars.iter().chain(&change.set) {
            out.push_str(&format!("{name}={value}{}", if null { '\0' } else { '\n' }));
        }
        ctx.stdout.write_str(&out)?;
        return Ok(0);
    }
    if null {
        return usage(ctx, "cannot specify --null (-0) with command", 125);
    }
    // env runs programs, never the shell's functions or its other builtins.
    if !is_program(&command[0]) && !command[0].contains('/') {
        ctx.error(format!("{}: No such file or directory", quote(&command[0])))?;
        return Ok(127);
    }
    let stdin = ctx.stdin.read_all()?;
    ctx.runner.run_with_env(&change, command, &stdin, ctx.stdout, ctx.stderr)
}

const PRINTENV_SPEC: Spec = Spec { short: "0", long: &[("null", "0", HasArg::No)] };

/// `printenv [-0] [NAME]...`: the value of each exported NAME, or every
/// `NAME=value`; status 1 when a NAME is not exported.
fn printenv(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &PRINTENV_SPEC, args, 2)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let mut end = '\n';
    let mut names = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt(..) => end = '\0',
            Arg::Operand(name) => names.push(name),
        }
    }
    let vars = ctx.runner.exported();
    let mut out = String::new();
    let mut status = 0;
    if names.is_empty() {
        for (name, value) in &vars {
            out.push_str(&format!("{name}={value}{end}"));
        }
    }
    for name in &names {
        match vars.iter().find(|(var, _)| var == name) {
            Some((_, value)) if !name.contains('=') => out.push_str(&format!("{value}{end}")),
            _ => status = 1,
        }
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

// ----- tac -----

const TAC_SPEC: Spec = Spec { short: "bs:", long: &[("before", "b", HasArg::No), ("separator", "s", HasArg::Yes)] };

/// `tac [-b] [-s STRING] [FILE]...`: each file's records, last first.
fn tac(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &TAC_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let mut before = false;
    let mut separator = b"\n".to_vec();
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("b", _) => before = true,
            Arg::Opt(_, value) => separator = value.unwrap_or_default().into_bytes(),
            Arg::Operand(file) => files.push(file),
        }
    }
    if separator.is_empty() {
        // GNU reads an empty separator as the NUL byte.
        separator.push(0);
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut status = 0;
    let mut ticks = 0;
    for file in &files {
        let data = if file == "-" {
            ctx.stdin.read_all()?
        } else {
            match ctx.read(file) {
                Ok(data) => data,
                Err(error) => {
                    let reason = crate::shell::command::error_reason(&error);
                    ctx.error(format!("failed to open {} for reading: {reason}", quote(file)))?;
                    status = 1;
                    continue;
                }
            }
        };
        // Record boundaries: after each separator (or before it with -b).
        let mut cuts = vec![0];
        let mut at = 0;
        while let Some(pos) = memchr::memmem::find(&data[at..], &separator) {
            tick(ctx, &mut ticks)?;
            let sep = at + pos;
            cuts.push(if before { sep } else { sep + separator.len() });
            at = sep + separator.len();
        }
        cuts.push(data.len());
        cuts.dedup();
        let mut out = Vec::with_capacity(data.len());
        for pair in cuts.windows(2).rev() {
            out.extend_from_slice(&data[pair[0]..pair[1]]);
        }
        ctx.stdout.write(&out)?;
    }
    Ok(status)
}

// ----- base64 -----

const BASE64_SPEC: Spec = Spec {
    short: "diw:",
    long: &[("decode", "d", HasArg::No), ("ignore-garbage", "i", HasArg::No), ("wrap", "w", HasArg::Yes)],
};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64 [-d] [-i] [-w COLS] [FILE]`: RFC 4648 encoding, lines of 76 by default.
fn base64(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &BASE64_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let (mut decode, mut garbage, mut wrap) = (false, false, 76_usize);
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("d", _) => decode = true,
            Arg::Opt("i", _) => garbage = true,
            Arg::Opt(_, value) => {
                let value = value.unwrap_or_default();
                match value.parse::<u64>() {
                    Ok(n) => wrap = usize::try_from(n).unwrap_or(usize::MAX),
                    Err(_) => {
                        ctx.error(format!("invalid wrap size: {}", quote(&value)))?;
                        return Ok(1);
                    }
                }
            }
            Arg::Operand(file) => files.push(file),
        }
    }
    if files.len() > 1 {
        return usage(ctx, &format!("extra operand {}", quote(&files[1])), 1);
    }
    let file = files.pop().unwrap_or_else(|| "-".to_string());
    let Some(data) = read_input(ctx, &file, OpenStyle::Plain)? else {
        return Ok(1);
    };
    let data = data.into_owned();
    if decode {
        let (bytes, ok) = base64_decode(&data, garbage);
        ctx.stdout.write(&bytes)?;
        if !ok {
            ctx.error("invalid input")?;
            return Ok(1);
        }
        return Ok(0);
    }
    let mut encoded = Vec::with_capacity(data.len() / 3 * 4 + 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            encoded.push(if i <= chunk.len() { ALPHABET[(n >> shift) as usize & 63] } else { b'=' });
        }
    }
    let mut out = Vec::with_capacity(encoded.len() + encoded.len() / wrap.max(1) + 1);
    if wrap == 0 {
        out = encoded;
    } else {
        for line in encoded.chunks(wrap) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    ctx.stdout.write(&out)?;
    Ok(0)
}

/// Decodes base64, skipping newlines (and every non-alphabet byte when
/// `garbage`); returns what decoded and whether the input was valid.
/// Padded groups may follow each other (`aGk=aGk=`).
fn base64_decode(data: &[u8], garbage: bool) -> (Vec<u8>, bool) {
    let value = |b: u8| ALPHABET.iter().position(|&a| a == b).map(|v| v as u32);
    let mut out = Vec::with_capacity(data.len() / 4 * 3);
    let mut group: Vec<u8> = Vec::with_capacity(4);
    for &byte in data {
        if byte == b'\n' || (garbage && byte != b'=' && value(byte).is_none()) {
            continue;
        }
        group.push(byte);
        if group.len() < 4 {
            continue;
        }
        let pads = group.iter().rev().take_while(|&&b| b == b'=').count();
        let digits: Option<Vec<u32>> = group[..4 - pads].iter().map(|&b| value(b)).collect();
        let Some(digits) = digits.filter(|_| pads <= 2) else {
            return (out, false);
        };
        let n = digits.iter().enumerate().fold(0, |n, (i, d)| n | d << (18 - 6 * i));
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..3 - pads]);
        group.clear();
    }
    if group.is_empty() {
        return (out, true);
    }
    // A short last group: what it holds decodes, and the input is invalid.
    let digits: Vec<u32> = group.iter().map_while(|&b| value(b)).collect();
    if digits.len() >= 2 {
        let n = digits.iter().enumerate().fold(0, |n, (i, d)| n | d << (18 - 6 * i));
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8][..digits.len() - 1]);
    }
    (out, false)
}

// ----- which -----

/// Builtins that are also programs in `/usr/bin` on a real system.
const PROGRAM_BUILTINS: &[&str] = &["[", "bash", "echo", "false", "printf", "pwd", "sh", "test", "true"];

/// Whether `/usr/bin/NAME` would exist: a command of the table, or a
/// builtin that is also a program.
fn is_program(name: &str) -> bool {
    super::lookup(name).is_some() || PROGRAM_BUILTINS.contains(&name)
}

/// `which [-a] NAME...`: `/usr/bin/NAME` for each command the shell has
/// (as `command -v` prints a command of the table); status 1 when one is
/// missing.
fn which(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut names = Vec::new();
    let mut options_done = false;
    for arg in args {
        if !options_done && arg.starts_with('-') && arg.len() > 1 {
            if arg == "--" {
                options_done = true;
            } else if let Some(bad) = arg[1..].chars().find(|&c| c != 'a') {
                ctx.stderr.write_str(&format!("Illegal option -{bad}\n"))?;
                ctx.stdout.write_str("Usage: /usr/bin/which [-a] args\n")?;
                return Ok(2);
            }
            continue;
        }
        options_done = true;
        names.push(arg);
    }
    if names.is_empty() {
        return Ok(1);
    }
    let mut status = 0;
    let mut out = String::new();
    for name in names {
        if !name.contains('/') && is_program(name) {
            out.push_str(&format!("/usr/bin/{name}\n"));
        } else {
            status = 1;
        }
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

// ----- uname, whoami, id, hostname -----

const UNAME_SPEC: Spec = Spec {
    short: "asnrvmpio",
    long: &[
        ("all", "a", HasArg::No),
        ("kernel-name", "s", HasArg::No),
        ("nodename", "n", HasArg::No),
        ("kernel-release", "r", HasArg::No),
        ("kernel-version", "v", HasArg::No),
        ("machine", "m", HasArg::No),
        ("processor", "p", HasArg::No),
        ("hardware-platform", "i", HasArg::No),
        ("operating-system", "o", HasArg::No),
    ],
};

/// `uname [-asnrvmpio]`: fixed values (`Linux aikido 6.0.0 #1 SMP x86_64
/// GNU/Linux`); `-p` and `-i` say `unknown` and `-a` leaves them out, as
/// GNU does on Linux.
fn uname(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &UNAME_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let fields = [
        ("s", "Linux"),
        ("n", HOST),
        ("r", "6.0.0"),
        ("v", "#1 SMP"),
        ("m", "x86_64"),
        ("p", "unknown"),
        ("i", "unknown"),
        ("o", "GNU/Linux"),
    ];
    let mut wanted: Vec<&str> = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("a", _) => wanted.extend(["s", "n", "r", "v", "m", "o"]),
            Arg::Opt(key, _) => wanted.push(key),
            Arg::Operand(extra) => return usage(ctx, &format!("extra operand {}", quote(&extra)), 1),
        }
    }
    if wanted.is_empty() {
        wanted.push("s");
    }
    let shown: Vec<&str> = fields.iter().filter(|(key, _)| wanted.contains(key)).map(|(_, value)| *value).collect();
    ctx.stdout.write_str(&format!("{}\n", shown.join(" ")))?;
    Ok(0)
}

/// `whoami`: `user`.
fn whoami(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &Spec { short: "", long: &[] }, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    if let Some(Arg::Operand(extra)) = parsed.first() {
        return usage(ctx, &format!("extra operand {}", quote(extra)), 1);
    }
    ctx.stdout.write_str(&format!("{USER}\n"))?;
    Ok(0)
}

const ID_SPEC: Spec = Spec {
    short: "ugGnr",
    long: &[
        ("user", "u", HasArg::No),
        ("group", "g", HasArg::No),
        ("groups", "G", HasArg::No),
        ("name", "n", HasArg::No),
        ("real", "r", HasArg::No),
    ],
};

/// `id [-u|-g|-G] [-n] [-r] [user]`: uid and gid 1000, named `user`.
fn id(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match options(ctx, &ID_SPEC, args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let (mut which, mut name, mut real, mut users) = (None, false, false, Vec::new());
    for arg in parsed {
        match arg {
            Arg::Opt("n", _) => name = true,
            Arg::Opt("r", _) => real = true,
            Arg::Opt(key, _) => {
                if which.is_some_and(|k| k != key) {
                    ctx.error("cannot print \"only\" of more than one choice")?;
                    return Ok(1);
                }
                which = Some(key);
            }
            Arg::Operand(user) => users.push(user),
        }
    }
    if which.is_none() && (name || real) {
        ctx.error("cannot print only names or real IDs in default format")?;
        return Ok(1);
    }
    let mut out = String::new();
    let mut status = 0;
    let default = [USER.to_string()];
    for user in if users.is_empty() { &default[..] } else { &users[..] } {
        if user != USER && user != &UID.to_string() {
            ctx.error(format!("{}: no such user", quote(user)))?;
            status = 1;
            continue;
        }
        out.push_str(&match (which, name) {
            (None, _) => format!("uid={UID}({USER}) gid={UID}({USER}) groups={UID}({USER})\n"),
            (Some(_), true) => format!("{USER}\n"),
            (Some(_), false) => format!("{UID}\n"),
        });
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

const HOSTNAME_SPEC: Spec = Spec { short: "sf", long: &[("short", "s", HasArg::No), ("fqdn", "f", HasArg::No)] };

/// `hostname [-s|-f]`: `aikido`. Setting it is refused as for a non-root user.
fn hostname(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&HOSTNAME_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => {
            // net-tools prints its usage to stderr and exits with -1.
            ctx.error(message)?;
            ctx.stderr.write_str("Usage: hostname [-s|-f]\n")?;
            return Ok(255);
        }
    };
    if parsed.iter().any(|arg| matches!(arg, Arg::Operand(_))) {
        ctx.error("you must be root to change the host name")?;
        return Ok(1);
    }
    ctx.stdout.write_str(&format!("{HOST}\n"))?;
    Ok(0)
}

#[cfg(test)]
mod tests;
