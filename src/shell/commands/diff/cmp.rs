//! `cmp`: two files byte by byte (GNU diffutils).

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::super::text::common::{parse, tick, Arg, HasArg, Spec};

use super::*;

const CMP_SPEC: Spec = Spec {
    short: "bi:ln:s",
    long: &[
        ("print-bytes", "b", HasArg::No),
        ("ignore-initial", "i", HasArg::Yes),
        ("verbose", "l", HasArg::No),
        ("bytes", "n", HasArg::Yes),
        ("quiet", "s", HasArg::No),
        ("silent", "s", HasArg::No),
    ],
};

/// `^A`, `M-x`, `a`: how `cmp -b` shows a byte.
fn show_byte(byte: u8) -> String {
    let (meta, low) = if byte >= 128 { ("M-", byte - 128) } else { ("", byte) };
    let shown = match low {
        0..=31 => format!("^{}", (low + 64) as char),
        127 => "^?".to_string(),
        _ => (low as char).to_string(),
    };
    format!("{meta}{shown}")
}

pub(super) fn cmp(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&CMP_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return diffutils_usage(ctx, &message),
    };
    let (mut print_bytes, mut verbose, mut silent) = (false, false, false);
    let mut limit: Option<u64> = None;
    let mut skips: [Option<u64>; 2] = [None, None];
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt("b", _) => print_bytes = true,
            Arg::Opt("l", _) => verbose = true,
            Arg::Opt("s", _) => silent = true,
            Arg::Opt("n", Some(value)) => match super::super::text::common::parse_size(&value) {
                Some(bytes) => limit = Some(bytes),
                None => return diffutils_usage(ctx, &format!("invalid --bytes value '{value}'")),
            },
            Arg::Opt("i", Some(value)) => {
                let parts: Vec<&str> = value.splitn(2, ':').collect();
                for (k, part) in parts.iter().enumerate() {
                    match super::super::text::common::parse_size(part) {
                        Some(bytes) => skips[k] = Some(bytes),
                        None => return diffutils_usage(ctx, &format!("invalid --ignore-initial value '{value}'")),
                    }
                }
                if parts.len() == 1 {
                    skips[1] = skips[0];
                }
            }
            Arg::Opt(..) => {}
        }
    }
    if verbose && silent {
        return diffutils_usage(ctx, "options -l and -s are incompatible");
    }
    for (skip, text) in skips.iter_mut().zip(operands.iter().skip(2)) {
        match super::super::text::common::parse_size(text) {
            Some(bytes) => *skip = Some(bytes),
            None => return diffutils_usage(ctx, &format!("invalid --ignore-initial value '{text}'")),
        }
    }
    match operands.len() {
        0 => return diffutils_usage(ctx, &format!("missing operand after '{}'", ctx.name)),
        1..=4 => {}
        _ => return diffutils_usage(ctx, &format!("extra operand '{}'", operands[4])),
    }
    let name_a = operands[0].clone();
    let name_b = operands.get(1).cloned().unwrap_or_else(|| "-".to_string());
    let mut data = Vec::new();
    for name in [&name_a, &name_b] {
        match ctx.read(name) {
            Ok(bytes) => data.push(bytes),
            Err(error) => {
                ctx.storage_error(name, &error)?;
                return Ok(2);
            }
        }
    }
    let skip = |k: usize| (skips[k].unwrap_or(0) as usize).min(data[k].len());
    let a = &data[0][skip(0)..];
    let b = &data[1][skip(1)..];
    let limit = limit.map_or(usize::MAX, |l| l.min(usize::MAX as u64) as usize);
    let a = &a[..a.len().min(limit)];
    let b = &b[..b.len().min(limit)];
    let common = a.len().min(b.len());
    let mut status = 0;
    let mut counter = 0;
    if verbose {
        let width = common.max(1).to_string().len();
        let mut out = String::new();
        for at in 0..common {
            tick(ctx, &mut counter)?;
            if a[at] != b[at] {
                status = 1;
                if print_bytes {
                    let line = format!(
                        "{:>width$} {:>3o} {:<4} {:>3o} {}\n",
                        at + 1,
                        a[at],
                        show_byte(a[at]),
                        b[at],
                        show_byte(b[at])
                    );
                    out.push_str(&line);
                } else {
                    out.push_str(&format!("{:>width$} {:>3o} {:>3o}\n", at + 1, a[at], b[at]));
                }
            }
        }
        ctx.stdout.write_str(&out)?;
    } else if let Some(at) = (0..common).find(|&at| a[at] != b[at]) {
        if !silent {
            let line_number = memchr::memchr_iter(b'\n', &a[..at]).count() + 1;
            // GNU says "char" in the C locale, "byte" with -b.
            let unit = if print_bytes { "byte" } else { "char" };
            let mut line = format!("{name_a} {name_b} differ: {unit} {}, line {line_number}", at + 1);
            if print_bytes {
                line.push_str(&format!(" is {:>3o} {} {:>3o} {}", a[at], show_byte(a[at]), b[at], show_byte(b[at])));
            }
            line.push('\n');
            ctx.stdout.write_str(&line)?;
        }
        return Ok(1);
    }
    if a.len() != b.len() {
        if !silent {
            let shorter = if a.len() < b.len() { &name_a } else { &name_b };
            let message = if common == 0 {
                format!("EOF on {shorter} which is empty")
            } else if verbose {
                format!("EOF on {shorter} after byte {common}")
            } else {
                let newlines = memchr::memchr_iter(b'\n', &a[..common]).count();
                if a[common - 1] == b'\n' {
                    format!("EOF on {shorter} after byte {common}, line {newlines}")
                } else {
                    format!("EOF on {shorter} after byte {common}, in line {}", newlines + 1)
                }
            };
            ctx.error(message)?;
        }
        return Ok(1);
    }
    Ok(status)
}
