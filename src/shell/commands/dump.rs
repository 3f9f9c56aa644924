//! `od` (GNU coreutils 9.1) and `xxd` (vim's): bytes shown as numbers.
//!
//! od: `-A d|o|x|n`, `-t` with `c`, `a`, `d`/`u`/`o`/`x` and a size
//! (`1 2 4 8`, `C S I L`), the old `-b -c -d -o -s -x -i -l`, `-j`, `-N`,
//! `-w`, `-v`; repeated lines become `*` as GNU's. No floats (`-t f`).
//! xxd: the default dump, `-p`, `-i`, `-b`, `-r` (of the default and the
//! `-p` forms), `-l`, `-s` (negative from the end), `-c`, `-g`, `-u`.

use crate::shell::command::{error_reason, CommandFn, Context};
use crate::shell::LimitHit;

use super::text::common::{parse, parse_size, quote, usage, Arg, HasArg, Spec};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("od", od), ("xxd", xxd)];

// ----- od -----

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Char,
    Named,
    Signed,
    Unsigned,
    Octal,
    Hex,
}

#[derive(Clone, Copy)]
struct Format {
    kind: Kind,
    size: usize,
    /// Characters of the widest value (without the separating space).
    width: usize,
}

fn format(kind: Kind, size: usize) -> Format {
    let width = match kind {
        Kind::Char | Kind::Named => 3,
        Kind::Hex => size * 2,
        Kind::Octal => (size * 8).div_ceil(3),
        Kind::Unsigned => [3, 5, 10, 20][size.trailing_zeros() as usize],
        Kind::Signed => [4, 6, 11, 20][size.trailing_zeros() as usize],
    };
    Format { kind, size, width }
}

/// One `-t` argument: `x1`, `d`, `c`, `o2`, `xC`, `u4z` (`z` not kept)…
fn parse_types(text: &str) -> Option<Vec<Format>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let kind = match bytes[at] {
            b'c' => Kind::Char,
            b'a' => Kind::Named,
            b'd' => Kind::Signed,
            b'u' => Kind::Unsigned,
            b'o' => Kind::Octal,
            b'x' => Kind::Hex,
            _ => return None,
        };
        at += 1;
        let mut size = if matches!(kind, Kind::Char | Kind::Named) { 1 } else { 4 };
        if !matches!(kind, Kind::Char | Kind::Named) && at < bytes.len() {
            match bytes[at] {
                b'C' => (size, at) = (1, at + 1),
                b'S' => (size, at) = (2, at + 1),
                b'I' => (size, at) = (4, at + 1),
                b'L' => (size, at) = (8, at + 1),
                b'0'..=b'9' => {
                    let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
                    size = text[at..at + digits].parse().ok()?;
                    at += digits;
                    if ![1, 2, 4, 8].contains(&size) {
                        return None;
                    }
                }
                _ => {}
            }
        }
        if at < bytes.len() && bytes[at] == b'z' {
            at += 1;
        }
        out.push(format(kind, size));
    }
    Some(out)
}

const NAMES: [&str; 33] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si", "dle",
    "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
];

/// One value as text (without padding).
fn render(format: &Format, chunk: &[u8]) -> String {
    let mut raw = [0u8; 8];
    raw[..chunk.len()].copy_from_slice(chunk);
    let value = u64::from_le_bytes(raw);
    match format.kind {
        Kind::Char => match chunk[0] {
            0 => "\\0".into(),
            7 => "\\a".into(),
            8 => "\\b".into(),
            9 => "\\t".into(),
            10 => "\\n".into(),
            11 => "\\v".into(),
            12 => "\\f".into(),
            13 => "\\r".into(),
            b @ 0x20..=0x7e => (b as char).to_string(),
            b => format!("{b:03o}"),
        },
        Kind::Named => match chunk[0] & 0x7f {
            b @ 0..=0x20 => NAMES[b as usize].into(),
            0x7f => "del".into(),
            b => (b as char).to_string(),
        },
        Kind::Hex => format!("{value:0width$x}", width = format.size * 2),
        Kind::Octal => format!("{value:0width$o}", width = format.width),
        Kind::Unsigned => value.to_string(),
        Kind::Signed => {
            let shift = 64 - 8 * format.size as u32;
            (((value << shift) as i64) >> shift).to_string()
        }
    }
}

fn od(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "A:bcdDfhHiIj:lLN:oOsS:t:vw:xX",
        long: &[
            ("address-radix", "A", HasArg::Yes),
            ("skip-bytes", "j", HasArg::Yes),
            ("read-bytes", "N", HasArg::Yes),
            ("format", "t", HasArg::Yes),
            ("output-duplicates", "v", HasArg::No),
            ("width", "w", HasArg::Optional),
            ("endian", "endian", HasArg::Yes),
        ],
    };
    // `-w` alone means 32: GNU's short -w takes an optional argument.
    let args: Vec<String> = args.iter().map(|a| if a == "-w" { "--width".to_string() } else { a.clone() }).collect();
    let parsed = match parse(&spec, &args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut radix, mut skip, mut limit, mut width, mut verbose) = ('o', 0u64, None::<u64>, 16usize, false);
    let mut formats = Vec::new();
    let mut files = Vec::new();
    for arg in parsed {
        let legacy = |kind, size| vec![format(kind, size)];
        match arg {
            Arg::Opt("A", Some(value)) => match value.as_str() {
                "d" | "o" | "x" | "n" => radix = value.as_bytes()[0] as char,
                _ => {
                    let message =
                        format!("invalid output address radix '{value}'; it must be one character from [doxn]");
                    ctx.error(message)?;
                    return Ok(1);
                }
            },
            Arg::Opt(key @ ("j" | "N"), Some(value)) => {
                let number = if let Some(hex) = value.strip_prefix("0x").or_else(|| value.strip_prefix("0X")) {
                    u64::from_str_radix(hex, 16).ok()
                } else if value.len() > 1 && value.starts_with('0') {
                    u64::from_str_radix(&value[1..], 8).ok()
                } else {
                    parse_size(&value)
                };
                let Some(number) = number else {
                    ctx.error(format!("invalid argument {}", quote(&value)))?;
                    return Ok(1);
                };
                if key == "j" {
                    skip = number;
                } else {
                    limit = Some(number);
                }
            }
            Arg::Opt("t", Some(value)) => match parse_types(&value) {
                Some(list) => formats.extend(list),
                None => {
                    ctx.error(format!("invalid type string {}", quote(&value)))?;
                    return Ok(1);
                }
            },
            Arg::Opt("w", value) => {
                width = match value {
                    None => 32,
                    Some(value) => match value.parse::<usize>() {
                        Ok(n) if n > 0 => n,
                        _ => {
                            ctx.error(format!("invalid -w argument {}", quote(&value)))?;
                            return Ok(1);
                        }
                    },
                }
            }
            Arg::Opt("v", _) => verbose = true,
            Arg::Opt("b", _) => formats.extend(legacy(Kind::Octal, 1)),
            Arg::Opt("c", _) => formats.extend(legacy(Kind::Char, 1)),
            Arg::Opt("d", _) => formats.extend(legacy(Kind::Unsigned, 2)),
            Arg::Opt("D", _) => formats.extend(legacy(Kind::Unsigned, 4)),
            Arg::Opt("o", _) => formats.extend(legacy(Kind::Octal, 2)),
            Arg::Opt("O", _) => formats.extend(legacy(Kind::Octal, 4)),
            Arg::Opt("s", _) => formats.extend(legacy(Kind::Signed, 2)),
            Arg::Opt("i", _) => formats.extend(legacy(Kind::Signed, 4)),
            Arg::Opt("I" | "L" | "l", _) => formats.extend(legacy(Kind::Signed, 8)),
            Arg::Opt("x" | "h", _) => formats.extend(legacy(Kind::Hex, 2)),
            Arg::Opt("X" | "H", _) => formats.extend(legacy(Kind::Hex, 4)),
            Arg::Opt("f" | "F" | "e", _) => {
                ctx.error("floating-point formats are not supported here")?;
                return Ok(1);
            }
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    if formats.is_empty() {
        formats.push(format(Kind::Octal, 2));
    }
    let lcm = formats.iter().fold(1, |acc, f| num_lcm(acc, f.size));
    if width % lcm != 0 {
        ctx.error(format!("warning: invalid width {width}; using {lcm} instead"))?;
        width = lcm;
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut data = Vec::new();
    let mut status = 0;
    for file in &files {
        match ctx.read(file) {
            Ok(bytes) => data.extend_from_slice(&bytes),
            Err(error) => {
                ctx.error(format!("{file}: {}", error_reason(&error)))?;
                status = 1;
            }
        }
    }
    if skip > data.len() as u64 {
        ctx.error("cannot skip past end of combined input")?;
        return Ok(1);
    }
    let start = skip as usize;
    let end = limit.map_or(data.len(), |n| data.len().min(start.saturating_add(n as usize)));
    let body = &data[start..end];
    // GNU's padding: every format's block is as wide as the widest one.
    let block_width = formats.iter().map(|f| (f.width + 1) * (width / f.size)).max().unwrap_or(0);
    let address = |offset: usize| -> String {
        match radix {
            'd' => format!("{offset:07}"),
            'x' => format!("{offset:06x}"),
            'n' => String::new(),
            _ => format!("{offset:07o}"),
        }
    };
    let blank_address = " ".repeat(address(0).len());
    let mut out = String::new();
    let mut previous: Option<&[u8]> = None;
    let mut starred = false;
    for (index, block) in body.chunks(width).enumerate() {
        if index % 4096 == 0 {
            (ctx.check)()?;
        }
        let offset = start + index * width;
        if !verbose && previous == Some(block) && block.len() == width {
            if !starred {
                out.push_str("*\n");
                starred = true;
            }
            continue;
        }
        starred = false;
        previous = Some(block);
        for (n, fmt) in formats.iter().enumerate() {
            if n == 0 {
                out.push_str(&address(offset));
            } else {
                out.push_str(&blank_address);
            }
            let fields = width / fmt.size;
            let pad = block_width - fmt.width * fields;
            let present = block.len().div_ceil(fmt.size);
            let mut pad_remaining = pad;
            for i in 0..present {
                let next_pad = pad * (fields - i - 1) / fields;
                let field_width = pad_remaining - next_pad + fmt.width;
                let chunk = &block[i * fmt.size..((i + 1) * fmt.size).min(block.len())];
                let text = render(fmt, chunk);
                out.push_str(&format!("{text:>field_width$}"));
                pad_remaining = next_pad;
            }
            out.push('\n');
        }
        if out.len() > 1 << 16 {
            ctx.stdout.write_str(&out)?;
            out.clear();
        }
    }
    if radix != 'n' {
        out.push_str(&address(start + body.len()));
        out.push('\n');
    }
    ctx.stdout.write_str(&out)?;
    Ok(status)
}

fn num_lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

// ----- xxd -----

fn xxd(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "bc:eg:il:o:prs:uE",
        long: &[
            ("bits", "b", HasArg::No),
            ("cols", "c", HasArg::Yes),
            ("groupsize", "g", HasArg::Yes),
            ("include", "i", HasArg::No),
            ("len", "l", HasArg::Yes),
            ("postscript", "p", HasArg::No),
            ("plain", "p", HasArg::No),
            ("ps", "p", HasArg::No),
            ("revert", "r", HasArg::No),
            ("seek", "s", HasArg::Yes),
            ("uppercase", "u", HasArg::No),
        ],
    };
    // xxd takes `-len 4`, `-cols 8`… with one dash too.
    let args: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "-len" | "-cols" | "-seek" | "-plain" | "-ps" | "-postscript" | "-revert" | "-include" | "-bits"
            | "-groupsize" | "-uppercase" => format!("-{a}"),
            _ => a.clone(),
        })
        .collect();
    let parsed = match parse(&spec, &args) {
        Ok(parsed) => parsed,
        Err(message) => {
            ctx.error(message)?;
            return Ok(1);
        }
    };
    let (mut bits, mut cols, mut group, mut include, mut len) = (false, None::<usize>, None::<usize>, false, None);
    let (mut plain, mut revert, mut seek, mut upper) = (false, false, None::<String>, false);
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("b", _) => bits = true,
            Arg::Opt("c", Some(v)) => cols = number(&v).map(|n| n as usize),
            Arg::Opt("g", Some(v)) => group = number(&v).map(|n| n as usize),
            Arg::Opt("i", _) => include = true,
            Arg::Opt("l", Some(v)) => len = number(&v),
            Arg::Opt("p", _) => plain = true,
            Arg::Opt("r", _) => revert = true,
            Arg::Opt("s", Some(v)) => seek = Some(v),
            Arg::Opt("u", _) => upper = true,
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    if files.len() > 2 {
        ctx.stderr.write_str("Usage:\n       xxd [options] [infile [outfile]]\n")?;
        return Ok(1);
    }
    let input = files.first().cloned().unwrap_or_else(|| "-".to_string());
    let data = match ctx.read(&input) {
        Ok(data) => data,
        Err(error) => {
            ctx.error(format!("{input}: {}", error_reason(&error)))?;
            return Ok(2);
        }
    };
    let mut out: Vec<u8> = Vec::new();
    if revert {
        out = if plain { unhex_plain(&data) } else { unhex_dump(&data) };
    } else {
        let seek_value = match seek.as_deref() {
            None => 0i64,
            Some(text) => {
                let (negative, digits) = match text.strip_prefix('-') {
                    Some(rest) => (true, rest),
                    None => (false, text.strip_prefix('+').unwrap_or(text)),
                };
                let Some(n) = number(digits) else {
                    ctx.error("invalid seek offset")?;
                    return Ok(1);
                };
                if negative {
                    -(n as i64)
                } else {
                    n as i64
                }
            }
        };
        let start = if seek_value < 0 {
            (data.len() as i64 + seek_value).max(0) as usize
        } else {
            (seek_value as usize).min(data.len())
        };
        let end = len.map_or(data.len(), |n| data.len().min(start.saturating_add(n as usize)));
        let body = &data[start..end];
        let hex = |b: u8| if upper { format!("{b:02X}") } else { format!("{b:02x}") };
        if plain {
            let cols = cols.filter(|&c| c > 0).unwrap_or(30);
            for line in body.chunks(cols) {
                for &b in line {
                    out.extend_from_slice(hex(b).as_bytes());
                }
                out.push(b'\n');
            }
        } else if include {
            let cols = cols.filter(|&c| c > 0).unwrap_or(12);
            let name: Option<String> = (input != "-").then(|| {
                let mut name: String = input.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    name.insert(0, '_');
                }
                name
            });
            if let Some(name) = &name {
                out.extend_from_slice(format!("unsigned char {name}[] = {{\n").as_bytes());
            }
            let lines: Vec<String> = body
                .chunks(cols)
                .map(|line| {
                    let items: Vec<String> =
                        line.iter().map(|&b| if upper { format!("0X{b:02X}") } else { format!("0x{b:02x}") }).collect();
                    format!("  {}", items.join(", "))
                })
                .collect();
            out.extend_from_slice(lines.join(",\n").as_bytes());
            if !lines.is_empty() {
                out.push(b'\n');
            }
            if let Some(name) = &name {
                out.extend_from_slice(format!("}};\nunsigned int {name}_len = {};\n", body.len()).as_bytes());
            }
        } else {
            let cols = cols.filter(|&c| c > 0).unwrap_or(if bits { 6 } else { 16 });
            let group = group.unwrap_or(if bits { 1 } else { 2 });
            for (index, line) in body.chunks(cols).enumerate() {
                if index % 4096 == 0 {
                    (ctx.check)()?;
                }
                let offset = start + index * cols;
                let mut text = if upper { format!("{offset:08X}: ") } else { format!("{offset:08x}: ") };
                for i in 0..cols {
                    match line.get(i) {
                        Some(&b) if bits => text.push_str(&format!("{b:08b}")),
                        Some(&b) => text.push_str(&hex(b)),
                        None => text.push_str(if bits { "        " } else { "  " }),
                    }
                    if group > 0 && (i + 1) % group == 0 && i + 1 < cols {
                        text.push(' ');
                    }
                }
                text.push_str("  ");
                text.extend(line.iter().map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '.' }));
                text.push('\n');
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
    match files.get(1) {
        Some(target) => {
            if let Err(error) = ctx.storage.write(&ctx.path(target), &out) {
                ctx.error(format!("{target}: {}", error_reason(&error)))?;
                return Ok(3);
            }
        }
        None => ctx.stdout.write(&out)?,
    }
    Ok(0)
}

/// A number as xxd reads it: decimal, `0x` hex or leading-0 octal.
fn number(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        u64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse().ok()
    }
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// `xxd -r -p`: every pair of hex digits, anything else skipped.
fn unhex_plain(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut high: Option<u8> = None;
    for &b in data {
        let Some(v) = hex_value(b) else { continue };
        match high.take() {
            Some(h) => out.push(h << 4 | v),
            None => high = Some(v),
        }
    }
    out
}

/// `xxd -r`: `offset: hex pairs  text` lines, each written at its offset
/// (gaps filled with zeros); the text column after two spaces is ignored.
fn unhex_dump(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
        let address = std::str::from_utf8(&line[..colon]).ok().and_then(|t| u64::from_str_radix(t.trim(), 16).ok());
        let Some(address) = address else { continue };
        let mut at = address as usize;
        let rest = &line[colon + 1..];
        let mut i = 0;
        let mut spaces = 0;
        let mut high: Option<u8> = None;
        while i < rest.len() {
            let b = rest[i];
            i += 1;
            if b == b' ' || b == b'\t' {
                spaces += 1;
                if spaces >= 2 && high.is_none() && i > 2 {
                    break;
                }
                continue;
            }
            spaces = 0;
            let Some(v) = hex_value(b) else { break };
            match high.take() {
                Some(h) => {
                    if out.len() < at {
                        out.resize(at, 0);
                    }
                    if at < out.len() {
                        out[at] = h << 4 | v;
                    } else {
                        out.push(h << 4 | v);
                    }
                    at += 1;
                }
                None => high = Some(v),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    const DATA: &[u8] = b"hello\tworld\n\x01\xffabcdefghijklmnop";

    #[test]
    fn od_matches_gnu() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/b", DATA).unwrap();
        let run = |args: &[&str]| run_for_test(&storage, "od", args, "").1;
        assert_eq!(
            run(&["b"]),
            "0000000 062550 066154 004557 067567 066162 005144 177401 061141\n\
             0000020 062143 063145 064147 065151 066153 067155 070157\n0000036\n"
        );
        assert_eq!(
            run(&["-c", "b"]),
            "0000000   h   e   l   l   o  \\t   w   o   r   l   d  \\n 001 377   a   b\n\
             0000020   c   d   e   f   g   h   i   j   k   l   m   n   o   p\n0000036\n"
        );
        assert_eq!(
            run(&["-An", "-tx1", "b"]),
            " 68 65 6c 6c 6f 09 77 6f 72 6c 64 0a 01 ff 61 62\n 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70\n"
        );
        assert_eq!(run(&["-t", "d1", "-N", "4", "b"]), "0000000  104  101  108  108\n0000004\n");
        assert_eq!(run(&["-A", "x", "-t", "x4", "-N", "8", "b"]), "000000 6c6c6568 6f77096f\n000008\n");
        assert_eq!(run(&["-t", "d", "-j", "28", "b"]), "0000034       28783\n0000036\n");
        assert_eq!(run(&["-x", "-N", "3", "b"]), "0000000 6568 006c\n0000003\n");
        let (_, out, _) = run_for_test(&storage, "od", &["-c"], &"a".repeat(36));
        assert_eq!(
            out,
            "0000000   a   a   a   a   a   a   a   a   a   a   a   a   a   a   a   a\n*\n\
             0000040   a   a   a   a\n0000044\n"
        );
        assert_eq!(run(&["-A", "n", "-c", "-w4", "-N", "8", "b"]), "   h   e   l   l\n   o  \\t   w   o\n");
    }

    #[test]
    fn xxd_matches_vim() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/b", DATA).unwrap();
        let run = |args: &[&str]| run_for_test(&storage, "xxd", args, "").1;
        let dump = "00000000: 6865 6c6c 6f09 776f 726c 640a 01ff 6162  hello.world...ab\n\
                    00000010: 6364 6566 6768 696a 6b6c 6d6e 6f70       cdefghijklmnop\n";
        assert_eq!(run(&["b"]), dump);
        assert_eq!(run(&["-p", "b"]), "68656c6c6f09776f726c640a01ff6162636465666768696a6b6c6d6e6f70\n");
        assert_eq!(run(&["-l", "5", "b"]), "00000000: 6865 6c6c 6f                             hello\n");
        assert_eq!(run(&["-s", "3", "-l", "8", "b"]), "00000003: 6c6f 0977 6f72 6c64                      lo.world\n");
        assert_eq!(run(&["-s", "-4", "b"]), "0000001a: 6d6e 6f70                                mnop\n");
        assert_eq!(run(&["-c", "8", "-l", "8", "b"]), "00000000: 6865 6c6c 6f09 776f  hello.wo\n");
        assert_eq!(run(&["-i", "-l", "2", "b"]), "unsigned char b[] = {\n  0x68, 0x65\n};\nunsigned int b_len = 2;\n");
        let (_, out, _) = run_for_test(&storage, "xxd", &["-r"], dump);
        assert_eq!(out.as_bytes(), String::from_utf8_lossy(DATA).as_bytes());
        let (_, out, _) = run_for_test(&storage, "xxd", &["-r", "-p"], "6869 0a\n");
        assert_eq!(out, "hi\n");
        let (_, out, _) = run_for_test(&storage, "xxd", &["-r"], "00000002: 4142\n");
        assert_eq!(out, "\0\0AB");
    }
}
