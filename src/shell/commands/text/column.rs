//! `column` (util-linux 2.38): `-t` makes a table (`-s` input separators,
//! `-o` the output separator, two spaces by default); without `-t` it fills
//! columns (`-x`: rows first) to `-c` characters (80: output is never a
//! terminal), with tabs, as util-linux does. Empty lines are skipped.

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::common::{lines, parse, read_input, usage, Arg, HasArg, OpenStyle, Spec};

pub(super) fn column(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let spec = Spec {
        short: "tc:s:o:xnLR:N:H:ler:J",
        long: &[
            ("table", "t", HasArg::No),
            ("columns", "c", HasArg::Yes),
            ("output-width", "c", HasArg::Yes),
            ("separator", "s", HasArg::Yes),
            ("output-separator", "o", HasArg::Yes),
            ("fillrows", "x", HasArg::No),
            ("table-noextreme", "E", HasArg::Yes),
            ("table-columns", "N", HasArg::Yes),
            ("table-right", "R", HasArg::Yes),
            ("keep-empty-lines", "L", HasArg::No),
        ],
    };
    let parsed = match parse(&spec, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let (mut table, mut width, mut fill_rows, mut keep_empty) = (false, 80usize, false, false);
    let (mut seps, mut out_sep): (Option<String>, String) = (None, "  ".to_string());
    let mut right: Vec<usize> = Vec::new();
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("t", _) => table = true,
            Arg::Opt("c", Some(value)) => match value.parse::<usize>() {
                Ok(n) => width = n,
                Err(_) => {
                    ctx.error(format!("invalid columns argument: '{value}'"))?;
                    return Ok(1);
                }
            },
            Arg::Opt("s", value) => seps = value,
            Arg::Opt("o", value) => out_sep = value.unwrap_or_default(),
            Arg::Opt("x", _) => fill_rows = true,
            Arg::Opt("L", _) => keep_empty = true,
            Arg::Opt("R", Some(value)) => {
                right.extend(value.split(',').filter_map(|n| n.parse::<usize>().ok()).filter(|&n| n > 0));
            }
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let mut status = 0;
    for file in &files {
        let Some(data) = read_input(ctx, file, OpenStyle::Plain)? else {
            status = 1;
            continue;
        };
        rows.extend(lines(&data, b'\n').map(<[u8]>::to_vec));
    }
    let mut out = Vec::new();
    if table {
        let split_row = |row: &[u8]| -> Vec<Vec<u8>> {
            match &seps {
                // Every separator character splits; empty cells are kept.
                Some(seps) if !seps.is_empty() => {
                    row.split(|b| seps.as_bytes().contains(b)).map(<[u8]>::to_vec).collect()
                }
                _ => row.split(|b| *b == b' ' || *b == b'\t').filter(|c| !c.is_empty()).map(<[u8]>::to_vec).collect(),
            }
        };
        let cells: Vec<Option<Vec<Vec<u8>>>> = rows
            .iter()
            .filter(|row| keep_empty || !row.is_empty())
            .map(|row| if row.is_empty() { None } else { Some(split_row(row)) })
            .collect();
        let columns = cells.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0usize; columns];
        for row in cells.iter().flatten() {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell.len());
            }
        }
        for row in &cells {
            let Some(row) = row else {
                out.push(b'\n');
                continue;
            };
            for (i, width) in widths.iter().enumerate() {
                let cell: &[u8] = row.get(i).map_or(b"", Vec::as_slice);
                let last = i + 1 == columns;
                let pad = width.saturating_sub(cell.len());
                if right.contains(&(i + 1)) {
                    out.extend(std::iter::repeat_n(b' ', pad));
                    out.extend_from_slice(cell);
                } else {
                    out.extend_from_slice(cell);
                    if !last {
                        out.extend(std::iter::repeat_n(b' ', pad));
                    }
                }
                if !last {
                    out.extend_from_slice(out_sep.as_bytes());
                }
            }
            out.push(b'\n');
        }
    } else {
        let entries: Vec<&[u8]> = rows.iter().filter(|r| !r.is_empty()).map(Vec::as_slice).collect();
        if !entries.is_empty() {
            let longest = entries.iter().map(|e| e.len()).max().unwrap_or(0);
            let slot = (longest + 8) & !7;
            let count = entries.len();
            let numcols = (width / slot).max(1);
            let tabs_to = |out: &mut Vec<u8>, mut at: usize, endcol: usize| loop {
                let next = (at + 8) & !7;
                if next > endcol {
                    break;
                }
                out.push(b'\t');
                at = next;
            };
            if fill_rows {
                let (mut at, mut col, mut endcol) = (0, 0, slot);
                for entry in &entries {
                    if col > 0 {
                        tabs_to(&mut out, at, endcol);
                        at = endcol;
                        endcol += slot;
                    }
                    out.extend_from_slice(entry);
                    at += entry.len();
                    col += 1;
                    if col == numcols {
                        (at, col, endcol) = (0, 0, slot);
                        out.push(b'\n');
                    }
                }
                if col != 0 {
                    out.push(b'\n');
                }
            } else {
                let numrows = count.div_ceil(numcols);
                for row in 0..numrows {
                    let mut endcol = slot;
                    let mut at = 0;
                    let mut base = row;
                    loop {
                        out.extend_from_slice(entries[base]);
                        at += entries[base].len();
                        base += numrows;
                        if base >= count {
                            break;
                        }
                        tabs_to(&mut out, at, endcol);
                        at = endcol;
                        endcol += slot;
                    }
                    out.push(b'\n');
                }
            }
        }
    }
    ctx.stdout.write(&out)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::MemoryStorage;

    #[test]
    fn tables_and_columns_like_util_linux() {
        let storage = MemoryStorage::new(Default::default());
        let run = |args: &[&str], stdin: &str| run_for_test(&storage, "column", args, stdin).1;
        assert_eq!(run(&["-t"], "a b c\nlonger x y\n\nz\n"), "a       b  c\nlonger  x  y\nz          \n");
        assert_eq!(run(&["-t", "-s,"], "a,b,,c\nlonger,x\n"), "a       b    c\nlonger  x    \n");
        assert_eq!(run(&["-t", "-s,", "-o", "|"], "a,b,,c\nlonger,x\n"), "a     |b||c\nlonger|x||\n");
        let seq: String = (1..=30).map(|i| format!("{i}\n")).collect();
        assert_eq!(
            run(&[], &seq),
            "1\t4\t7\t10\t13\t16\t19\t22\t25\t28\n2\t5\t8\t11\t14\t17\t20\t23\t26\t29\n\
             3\t6\t9\t12\t15\t18\t21\t24\t27\t30\n"
        );
        assert_eq!(run(&["-x", "-c", "40"], &seq[..18]), "1\t2\t3\t4\t5\n6\t7\t8\t9\n");
    }
}
