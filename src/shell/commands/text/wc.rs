//! `wc`, GNU style: counts in the order lines, words, chars, bytes,
//! max line length, and GNU's column width (from the total size of the
//! regular files, at least 7 when an input is not a regular file, 1 for a
//! single count of a single input). Stdin is always taken to be a pipe
//! (`wc < file` pads like `cat file | wc`): the shell buffers it.

use crate::shell::command::{Context, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

use super::common::{parse, quotef, usage, Arg, HasArg, Spec};

const SPEC: Spec = Spec {
    short: "clmwL",
    long: &[
        ("bytes", "c", HasArg::No),
        ("chars", "m", HasArg::No),
        ("lines", "l", HasArg::No),
        ("words", "w", HasArg::No),
        ("max-line-length", "L", HasArg::No),
    ],
};

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    bytes: u64,
    max_line: u64,
}

#[derive(Clone, Copy)]
struct Wanted {
    lines: bool,
    words: bool,
    chars: bool,
    bytes: bool,
    max_line: bool,
}

/// `wc [-clmwL] [FILE]...`
pub(super) fn wc(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut wanted = Wanted { lines: false, words: false, chars: false, bytes: false, max_line: false };
    let mut files: Vec<String> = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt("c", _) => wanted.bytes = true,
            Arg::Opt("m", _) => wanted.chars = true,
            Arg::Opt("l", _) => wanted.lines = true,
            Arg::Opt("w", _) => wanted.words = true,
            Arg::Opt(_, _) => wanted.max_line = true,
        }
    }
    if !(wanted.lines || wanted.words || wanted.chars || wanted.bytes || wanted.max_line) {
        wanted = Wanted { lines: true, words: true, chars: false, bytes: true, max_line: false };
    }
    let selected = [wanted.lines, wanted.words, wanted.chars, wanted.bytes, wanted.max_line];
    let selected = selected.iter().filter(|&&on| on).count();
    let named = !files.is_empty();
    if !named {
        files.push("-".to_string());
    }
    let width = number_width(ctx, &files, selected);
    let mut total = Counts::default();
    let mut status = 0;
    for file in &files {
        // Stdin as it comes, a file a piece at a time.
        let counts = match ctx.open(file) {
            Ok(mut reader) => {
                let mut counter = Counter::default();
                loop {
                    match reader.next_piece() {
                        Ok(Some(piece)) => counter.feed(ctx, &piece, wanted)?,
                        Ok(None) => break,
                        Err(ReadFailed::Limit(hit)) => return Err(hit),
                        Err(ReadFailed::Storage(error)) => {
                            let reason = crate::shell::command::error_reason(&error);
                            ctx.error(format!("{}: {reason}", quotef(file)))?;
                            status = 1;
                            break;
                        }
                    }
                }
                counter.finish()
            }
            Err(error) => {
                let directory = matches!(error, StorageError::IsADirectory(_));
                let reason = crate::shell::command::error_reason(&error);
                ctx.error(format!("{}: {reason}", quotef(file)))?;
                status = 1;
                if !directory {
                    continue;
                }
                Counts::default()
            }
        };
        total.lines += counts.lines;
        total.words += counts.words;
        total.bytes += counts.bytes;
        total.max_line = total.max_line.max(counts.max_line);
        print(ctx, counts, wanted, width, named.then_some(file.as_str()))?;
    }
    if files.len() > 1 {
        print(ctx, total, wanted, width, Some("total"))?;
    }
    Ok(status)
}

/// GNU's `compute_number_width`.
fn number_width(ctx: &Context<'_>, files: &[String], selected: usize) -> usize {
    if files.len() == 1 && selected == 1 {
        return 1;
    }
    let mut minimum = 1;
    let mut regular_total: u64 = 0;
    for file in files {
        if file == "-" {
            minimum = 7;
            continue;
        }
        match ctx.storage.stat(&ctx.path(file)) {
            Ok(meta) if meta.kind == FileKind::File => regular_total += meta.size,
            Ok(_) => minimum = 7,
            Err(_) => {}
        }
    }
    let digits = regular_total.max(1).ilog10() as usize + 1;
    digits.max(minimum)
}

fn print(
    ctx: &mut Context<'_>,
    counts: Counts,
    wanted: Wanted,
    width: usize,
    name: Option<&str>,
) -> Result<(), LimitHit> {
    let columns = [
        (wanted.lines, counts.lines),
        (wanted.words, counts.words),
        (wanted.chars, counts.bytes),
        (wanted.bytes, counts.bytes),
        (wanted.max_line, counts.max_line),
    ];
    let mut line = String::new();
    for (_, value) in columns.iter().filter(|(on, _)| *on) {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&format!("{value:>width$}"));
    }
    if let Some(name) = name {
        line.push(' ');
        line.push_str(name);
    }
    line.push('\n');
    ctx.stdout.write_str(&line)
}

/// Counts carried from one chunk to the next.
#[derive(Default)]
struct Counter {
    counts: Counts,
    in_word: bool,
    position: u64,
}

impl Counter {
    fn feed(&mut self, ctx: &Context<'_>, data: &[u8], wanted: Wanted) -> Result<(), LimitHit> {
        let counts = &mut self.counts;
        counts.bytes += data.len() as u64;
        if !wanted.words && !wanted.max_line {
            // Lines and bytes only (characters are bytes here): no byte loop.
            if wanted.lines {
                counts.lines += memchr::memchr_iter(b'\n', data).count() as u64;
            }
            return Ok(());
        }
        let (mut in_word, mut position) = (self.in_word, self.position);
        for (index, chunk) in data.chunks(1 << 16).enumerate() {
            if index % 16 == 15 {
                (ctx.check)()?;
            }
            for &byte in chunk {
                match byte {
                    b'\n' => {
                        counts.lines += 1;
                        counts.max_line = counts.max_line.max(position);
                        position = 0;
                        in_word = false;
                    }
                    b'\r' | b'\x0c' => {
                        counts.max_line = counts.max_line.max(position);
                        position = 0;
                        in_word = false;
                    }
                    b'\t' => {
                        position += 8 - position % 8;
                        in_word = false;
                    }
                    b' ' | b'\x0b' => {
                        position += u64::from(byte == b' ');
                        in_word = false;
                    }
                    0x21..=0x7e => {
                        position += 1;
                        if !in_word {
                            counts.words += 1;
                            in_word = true;
                        }
                    }
                    // Other bytes neither start nor end a word, as in GNU's C locale.
                    _ => {}
                }
            }
        }
        (self.in_word, self.position) = (in_word, position);
        Ok(())
    }

    fn finish(mut self) -> Counts {
        self.counts.max_line = self.counts.max_line.max(self.position);
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/g", b"hello world\n").unwrap();
        storage.write("/f1", b"a\nb\n").unwrap();
        storage.mkdir("/d", false).unwrap();
        run_for_test(&storage, "wc", args, stdin)
    }

    #[test]
    fn widths_match_gnu() {
        assert_eq!(run(&["g", "f1"], "").1, " 1  2 12 g\n 2  2  4 f1\n 3  4 16 total\n");
        assert_eq!(run(&["-l", "g"], "").1, "1 g\n");
        assert_eq!(run(&["-l", "g", "f1"], "").1, " 1 g\n 2 f1\n 3 total\n");
        assert_eq!(run(&[], "hello world\n").1, "      1       2      12\n");
        assert_eq!(run(&["-l"], "a\nb").1, "1\n");
        assert_eq!(run(&["-c", "g", "-"], "").1, "     12 g\n      0 -\n     12 total\n");
        assert_eq!(run(&["-L", "g", "f1"], "").1, "11 g\n 1 f1\n11 total\n");
        assert_eq!(run(&["-L"], "a\rbcd\n\tx").1, "9\n");
    }

    #[test]
    fn words_and_errors() {
        assert_eq!(run(&["-w"], "\x01 a \u{7f} b").1, "2\n");
        assert_eq!(run(&["-w"], "a\x01b \x01 c").1, "2\n");
        assert_eq!(
            run(&["nope", "g"], ""),
            (1, " 1  2 12 g\n 1  2 12 total\n".into(), "wc: nope: No such file or directory\n".into())
        );
        assert_eq!(run(&["d"], ""), (1, "      0       0       0 d\n".into(), "wc: d: Is a directory\n".into()));
    }
}
