//! `comm`: the lines two sorted files have in common or not (GNU coreutils).

use crate::shell::command::{error_reason, Context};
use crate::shell::LimitHit;

use super::super::text::common::{parse, tick, usage, Arg, HasArg, Spec};

const COMM_SPEC: Spec = Spec {
    short: "123z",
    long: &[
        ("check-order", "check-order", HasArg::No),
        ("nocheck-order", "nocheck-order", HasArg::No),
        ("output-delimiter", "output-delimiter", HasArg::Yes),
        ("total", "total", HasArg::No),
        ("zero-terminated", "z", HasArg::No),
    ],
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum OrderCheck {
    Default,
    Enabled,
    Disabled,
}

pub(super) fn comm(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&COMM_SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut show = [true; 3];
    let mut check = OrderCheck::Default;
    let mut delimiter: Option<Vec<u8>> = None;
    let mut total = false;
    let mut eol = b'\n';
    let mut operands = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(operand) => operands.push(operand),
            Arg::Opt("1", _) => show[0] = false,
            Arg::Opt("2", _) => show[1] = false,
            Arg::Opt("3", _) => show[2] = false,
            Arg::Opt("z", _) => eol = 0,
            Arg::Opt("check-order", _) => check = OrderCheck::Enabled,
            Arg::Opt("nocheck-order", _) => check = OrderCheck::Disabled,
            Arg::Opt("total", _) => total = true,
            Arg::Opt("output-delimiter", Some(value)) => {
                let value = if value.is_empty() { vec![0] } else { value.into_bytes() };
                if delimiter.as_ref().is_some_and(|old| *old != value) {
                    ctx.error("multiple output delimiters specified")?;
                    return Ok(1);
                }
                delimiter = Some(value);
            }
            Arg::Opt(..) => {}
        }
    }
    match operands.len() {
        0 => return usage(ctx, "missing operand", 1),
        1 => return usage(ctx, &format!("missing operand after '{}'", operands[0]), 1),
        2 => {}
        _ => return usage(ctx, &format!("extra operand '{}'", operands[2]), 1),
    }
    let delimiter = delimiter.unwrap_or_else(|| b"\t".to_vec());
    let mut files = Vec::new();
    for name in &operands {
        match ctx.read(name) {
            Ok(bytes) => files.push(bytes),
            Err(error) => {
                let line = format!("{}: {name}: {}\n", ctx.name, error_reason(&error));
                ctx.stderr.write_str(&line)?;
                return Ok(1);
            }
        }
    }
    let split = |data: &[u8]| -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = data.split(|&b| b == eol).map(<[u8]>::to_vec).collect();
        if data.is_empty() || data.ends_with(&[eol]) {
            lines.pop();
        }
        lines
    };
    let lines = [split(&files[0]), split(&files[1])];
    let mut at = [0usize, 0usize];
    let mut warned = [false, false];
    let mut seen_unpairable = false;
    let mut counts = [0u64; 3];
    let mut out = Vec::new();
    let mut counter = 0;
    let mut status = 0;
    while at[0] < lines[0].len() || at[1] < lines[1].len() {
        tick(ctx, &mut counter)?;
        let order = match (lines[0].get(at[0]), lines[1].get(at[1])) {
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
            (Some(x), Some(y)) => x.cmp(y),
        };
        if order.is_ne() {
            seen_unpairable = true;
        }
        let column = match order {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 2,
        };
        counts[column] += 1;
        if show[column] {
            let indent = (0..column).filter(|&c| show[c]).count();
            for _ in 0..indent {
                out.extend_from_slice(&delimiter);
            }
            let line = if column == 1 { &lines[1][at[1]] } else { &lines[0][at[0]] };
            out.extend_from_slice(line);
            out.push(eol);
        }
        for file in 0..2 {
            let steps = match file {
                0 => order.is_le(),
                _ => order.is_ge(),
            };
            if !steps {
                continue;
            }
            at[file] += 1;
            let checking = match check {
                OrderCheck::Disabled => false,
                OrderCheck::Enabled => true,
                OrderCheck::Default => seen_unpairable,
            };
            if checking
                && !warned[file]
                && at[file] < lines[file].len()
                && lines[file][at[file] - 1] > lines[file][at[file]]
            {
                warned[file] = true;
                ctx.stdout.write(&std::mem::take(&mut out))?;
                ctx.error(format!("file {} is not in sorted order", file + 1))?;
                if check == OrderCheck::Enabled {
                    return Ok(1);
                }
                status = 1;
            }
        }
    }
    if total {
        let mut line = Vec::new();
        for count in counts {
            line.extend_from_slice(count.to_string().as_bytes());
            line.extend_from_slice(&delimiter);
        }
        line.extend_from_slice(b"total");
        line.push(eol);
        out.extend_from_slice(&line);
    }
    ctx.stdout.write(&out)?;
    if status != 0 {
        ctx.error("input is not in sorted order")?;
    }
    Ok(status)
}
