//! `join` (GNU coreutils 9.1): joins the lines of two sorted files on a
//! field. Options: `-t CHAR`, `-1 F`, `-2 F`, `-j F`, `-a 1|2`, `-v 1|2`,
//! `-o LIST|auto`, `-e EMPTY`, `-i`, `--header`, `--check-order`,
//! `--nocheck-order`, `-z`. Keys compare as bytes (the C locale).

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::common::{lines, parse, quote, read_input, tick, usage, Arg, HasArg, OpenStyle, Spec};

/// One `-o` item: `0` (the join field) or FILE.FIELD.
#[derive(Clone, Copy)]
enum OutField {
    Key,
    Field(usize, usize),
}

struct Options {
    sep: Option<u8>,
    fields: [usize; 2],
    unpaired: [bool; 2],
    only_unpaired: [bool; 2],
    format: Option<Vec<OutField>>,
    auto: bool,
    empty: Option<String>,
    ignore_case: bool,
    header: bool,
    check: Option<bool>,
}

/// A line split into fields.
struct Line<'a> {
    fields: Vec<&'a [u8]>,
    raw: &'a [u8],
}

/// Every line of an input, numbered from 1.
fn parse_all(data: &[u8], delim: u8, sep: Option<u8>) -> Vec<(usize, Line<'_>)> {
    lines(data, delim).enumerate().map(|(n, raw)| (n + 1, Line { fields: split_fields(raw, sep), raw })).collect()
}

fn split_fields(line: &[u8], sep: Option<u8>) -> Vec<&[u8]> {
    match sep {
        Some(sep) => line.split(move |&b| b == sep).collect(),
        None => line.split(|b| *b == b' ' || *b == b'\t').filter(|f| !f.is_empty()).collect(),
    }
}

pub(super) fn join(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "a:e:i1:2:j:o:t:v:z",
        long: &[
            ("ignore-case", "i", HasArg::No),
            ("check-order", "check-order", HasArg::No),
            ("nocheck-order", "nocheck-order", HasArg::No),
            ("header", "header", HasArg::No),
            ("zero-terminated", "z", HasArg::No),
        ],
    };
    // GNU takes `-j1`/`-j2` (obsolete) too; the common forms are enough.
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut opts = Options {
        sep: None,
        fields: [0, 0],
        unpaired: [false; 2],
        only_unpaired: [false; 2],
        format: None,
        auto: false,
        empty: None,
        ignore_case: false,
        header: false,
        check: None,
    };
    let mut delim = b'\n';
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt(key @ ("1" | "2" | "j"), Some(value)) => {
                let Some(field) = value.parse::<usize>().ok().filter(|&n| n > 0) else {
                    ctx.error(format!("invalid field number: {}", quote(&value)))?;
                    return Ok(1);
                };
                match key {
                    "1" => opts.fields[0] = field - 1,
                    "2" => opts.fields[1] = field - 1,
                    _ => opts.fields = [field - 1, field - 1],
                }
            }
            Arg::Opt(key @ ("a" | "v"), Some(value)) => {
                let which = match value.as_str() {
                    "1" => 0,
                    "2" => 1,
                    _ => {
                        ctx.error(format!("invalid file number: {}", quote(&value)))?;
                        return Ok(1);
                    }
                };
                if key == "a" {
                    opts.unpaired[which] = true;
                } else {
                    opts.only_unpaired[which] = true;
                }
            }
            Arg::Opt("e", value) => opts.empty = value,
            Arg::Opt("i", _) => opts.ignore_case = true,
            Arg::Opt("o", Some(value)) => {
                if value == "auto" {
                    opts.auto = true;
                    continue;
                }
                let mut list = opts.format.take().unwrap_or_default();
                for item in value.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
                    let field = if item == "0" {
                        Some(OutField::Key)
                    } else {
                        item.split_once('.').and_then(|(file, field)| {
                            let file = match file {
                                "1" => 0,
                                "2" => 1,
                                _ => return None,
                            };
                            let field = field.parse::<usize>().ok().filter(|&n| n > 0)?;
                            Some(OutField::Field(file, field - 1))
                        })
                    };
                    match field {
                        Some(field) => list.push(field),
                        None => {
                            ctx.error(format!("invalid field specifier: {}", quote(item)))?;
                            return Ok(1);
                        }
                    }
                }
                opts.format = Some(list);
            }
            Arg::Opt("t", Some(value)) => {
                let bytes = value.as_bytes();
                match bytes.len() {
                    0 => opts.sep = Some(b'\n'),
                    1 => opts.sep = Some(bytes[0]),
                    _ if value == "\\0" => opts.sep = Some(0),
                    _ => {
                        ctx.error(format!("multi-character tab {}", quote(&value)))?;
                        return Ok(1);
                    }
                }
            }
            Arg::Opt("z", _) => delim = 0,
            Arg::Opt("header", _) => opts.header = true,
            Arg::Opt("check-order", _) => opts.check = Some(true),
            Arg::Opt("nocheck-order", _) => opts.check = Some(false),
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    match files.len() {
        0 => return usage(ctx, "missing operand", 1),
        1 => return usage(ctx, &format!("missing operand after {}", quote(&files[0])), 1),
        2 => {}
        _ => return usage(ctx, &format!("extra operand {}", quote(&files[2])), 1),
    }
    if files[0] == "-" && files[1] == "-" {
        ctx.error("both files cannot be standard input")?;
        return Ok(1);
    }
    let Some(first) = read_input(ctx, &files[0], OpenStyle::Plain)? else { return Ok(1) };
    let first = first.into_owned();
    let Some(second) = read_input(ctx, &files[1], OpenStyle::Plain)? else { return Ok(1) };
    let second = second.into_owned();
    let inputs = [parse_all(&first, delim, opts.sep), parse_all(&second, delim, opts.sep)];
    let names = [files[0].clone(), files[1].clone()];
    if opts.auto && opts.format.is_none() {
        // `-o auto`: the join field, then the other fields of each file's
        // first line, so every line has as many.
        let mut list = vec![OutField::Key];
        for (which, input) in inputs.iter().enumerate() {
            let count = input.first().map_or(0, |(_, line)| line.fields.len());
            list.extend((0..count).filter(|&f| f != opts.fields[which]).map(|f| OutField::Field(which, f)));
        }
        opts.format = Some(list);
    }
    let mut out = Vec::new();
    let mut counter = 0;
    let key = |line: &Line<'_>, which: usize| -> Vec<u8> {
        let field = line.fields.get(opts.fields[which]).copied().unwrap_or(b"");
        if opts.ignore_case {
            field.to_ascii_lowercase()
        } else {
            field.to_vec()
        }
    };
    let mut pos = [0usize, 0usize];
    if opts.header {
        match (inputs[0].first(), inputs[1].first()) {
            (Some((_, a)), Some((_, b))) => write_joined(&mut out, &opts, Some(a), Some(b), delim),
            (Some((_, a)), None) => write_joined(&mut out, &opts, Some(a), None, delim),
            (None, Some((_, b))) => write_joined(&mut out, &opts, None, Some(b), delim),
            (None, None) => {}
        }
        pos = [1.min(inputs[0].len()), 1.min(inputs[1].len())];
    }
    let mut disorder: [bool; 2] = [false, false];
    let mut disorder_seen = false;
    let mut unpaired_seen = false;
    let check_order = |which: usize,
                       at: usize,
                       enabled: bool,
                       ctx: &mut Context<'_>,
                       disorder: &mut [bool; 2]|
     -> Result<bool, LimitHit> {
        // Checked by default only once an unpairable line was seen.
        let enabled = enabled || opts.check == Some(true);
        if !enabled || at == 0 || at >= inputs[which].len() || disorder[which] || opts.check == Some(false) {
            return Ok(false);
        }
        let (number, line) = &inputs[which][at];
        if key(line, which) < key(&inputs[which][at - 1].1, which) {
            disorder[which] = true;
            if opts.check != Some(false) {
                let text = String::from_utf8_lossy(line.raw);
                ctx.error(format!("{}:{number}: is not sorted: {text}", names[which]))?;
            }
            return Ok(true);
        }
        Ok(false)
    };
    while pos[0] < inputs[0].len() && pos[1] < inputs[1].len() {
        tick(ctx, &mut counter)?;
        let k1 = key(&inputs[0][pos[0]].1, 0);
        let k2 = key(&inputs[1][pos[1]].1, 1);
        match k1.cmp(&k2) {
            std::cmp::Ordering::Less => {
                if opts.unpaired[0] || opts.only_unpaired[0] {
                    write_joined(&mut out, &opts, Some(&inputs[0][pos[0]].1), None, delim);
                }
                pos[0] += 1;
                // GNU checks the line it reads before it notes the unpaired one.
                disorder_seen |= check_order(0, pos[0], unpaired_seen, ctx, &mut disorder)?;
                unpaired_seen = true;
            }
            std::cmp::Ordering::Greater => {
                if opts.unpaired[1] || opts.only_unpaired[1] {
                    write_joined(&mut out, &opts, None, Some(&inputs[1][pos[1]].1), delim);
                }
                pos[1] += 1;
                disorder_seen |= check_order(1, pos[1], unpaired_seen, ctx, &mut disorder)?;
                unpaired_seen = true;
            }
            std::cmp::Ordering::Equal => {
                let mut end = [pos[0], pos[1]];
                for which in 0..2 {
                    while end[which] < inputs[which].len() && key(&inputs[which][end[which]].1, which) == k1 {
                        end[which] += 1;
                    }
                }
                if !opts.only_unpaired[0] && !opts.only_unpaired[1] {
                    for (_, a) in &inputs[0][pos[0]..end[0]] {
                        for (_, b) in &inputs[1][pos[1]..end[1]] {
                            tick(ctx, &mut counter)?;
                            write_joined(&mut out, &opts, Some(a), Some(b), delim);
                            if out.len() > ctx.stdout.cap().min(ctx.max_memory) {
                                ctx.stdout.write(&out)?;
                            }
                        }
                    }
                }
                pos = end;
                disorder_seen |= check_order(0, pos[0], unpaired_seen, ctx, &mut disorder)?;
                disorder_seen |= check_order(1, pos[1], unpaired_seen, ctx, &mut disorder)?;
            }
        }
    }
    for which in 0..2 {
        while pos[which] < inputs[which].len() {
            tick(ctx, &mut counter)?;
            unpaired_seen = true;
            if opts.unpaired[which] || opts.only_unpaired[which] {
                let line = &inputs[which][pos[which]].1;
                let (a, b) = if which == 0 { (Some(line), None) } else { (None, Some(line)) };
                write_joined(&mut out, &opts, a, b, delim);
            }
            pos[which] += 1;
            disorder_seen |= check_order(which, pos[which], unpaired_seen, ctx, &mut disorder)?;
        }
    }
    ctx.stdout.write(&out)?;
    if disorder_seen && opts.check != Some(false) {
        ctx.error("input is not in sorted order")?;
        return Ok(1);
    }
    Ok(0)
}

/// One output line: a pair, or an unpaired line of file 1 or 2.
fn write_joined(out: &mut Vec<u8>, opts: &Options, a: Option<&Line<'_>>, b: Option<&Line<'_>>, delim: u8) {
    let sep = opts.sep.unwrap_or(b' ');
    let empty = opts.empty.as_deref().map(str::as_bytes);
    let key = a
        .and_then(|l| l.fields.get(opts.fields[0]).copied())
        .or_else(|| b.and_then(|l| l.fields.get(opts.fields[1]).copied()));
    let mut items: Vec<&[u8]> = Vec::new();
    let format = opts.format.clone();
    match format {
        Some(list) => {
            for item in list {
                let value = match item {
                    OutField::Key => key,
                    OutField::Field(0, field) => a.and_then(|l| l.fields.get(field).copied()),
                    OutField::Field(_, field) => b.and_then(|l| l.fields.get(field).copied()),
                };
                items.push(value.or(empty).unwrap_or(b""));
            }
        }
        None => {
            items.push(key.or(empty).unwrap_or(b""));
            for (which, line) in [(0, a), (1, b)] {
                if let Some(line) = line {
                    for (i, field) in line.fields.iter().enumerate() {
                        if i != opts.fields[which] {
                            items.push(field);
                        }
                    }
                }
            }
        }
    }
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        out.extend_from_slice(item);
    }
    out.push(delim);
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    #[test]
    fn joins_like_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/A", b"a 1\nb 2\nc 3\n").unwrap();
        storage.write("/B", b"a x\nc y\nd z\n").unwrap();
        storage.write("/C", b"a,1\nb,2\n").unwrap();
        storage.write("/D", b"a,q,r\n").unwrap();
        storage.write("/U", b"b 1\na 2\n").unwrap();
        storage.write("/M", b"a 1\na 2\n").unwrap();
        storage.write("/N", b"a x\na y\n").unwrap();
        let run = |args: &[&str]| run_for_test(&storage, "join", args, "");
        assert_eq!(run(&["A", "B"]).1, "a 1 x\nc 3 y\n");
        assert_eq!(run(&["-a1", "A", "B"]).1, "a 1 x\nb 2\nc 3 y\n");
        assert_eq!(run(&["-a1", "-a2", "A", "B"]).1, "a 1 x\nb 2\nc 3 y\nd z\n");
        assert_eq!(run(&["-v2", "A", "B"]).1, "d z\n");
        assert_eq!(run(&["-o", "1.1,2.2,1.2", "A", "B"]).1, "a x 1\nc y 3\n");
        assert_eq!(run(&["-a2", "-e", "NULL", "-o", "0,1.2,2.2", "A", "B"]).1, "a 1 x\nc 3 y\nd NULL z\n");
        assert_eq!(run(&["-t,", "C", "D"]).1, "a,1,q,r\n");
        assert_eq!(run(&["-o", "auto", "-a1", "-e", "-", "A", "B"]).1, "a 1 x\nb 2 -\nc 3 y\n");
        assert_eq!(run(&["M", "N"]).1, "a 1 x\na 1 y\na 2 x\na 2 y\n");
        let (status, out, err) = run(&["U", "B"]);
        assert_eq!((status, out.as_str()), (1, ""));
        assert_eq!(err, "join: U:2: is not sorted: a 2\njoin: input is not in sorted order\n");
        let (status, _, err) = run(&["A"]);
        assert_eq!(status, 1);
        assert!(err.starts_with("join: missing operand after 'A'\n"));
    }
}
