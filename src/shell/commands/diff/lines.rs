//! What `diff` compares: a file's lines, each line's key after `-i`, `-w`,
//! `-b` and `--strip-trailing-cr`, and a change between the two files.

use super::*;

/// The lines of a file, each with its newline (the last may have none).
pub(super) fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    for pos in memchr::memchr_iter(b'\n', data) {
        lines.push(&data[start..=pos]);
        start = pos + 1;
    }
    if start < data.len() {
        lines.push(&data[start..]);
    }
    lines
}

/// What two lines are compared by, after `-i`, `-w` and `-b`.
pub(super) fn line_key(options: &DiffOptions, line: &[u8]) -> Vec<u8> {
    let (mut body, newline) = match line.strip_suffix(b"\n") {
        Some(body) => (body, true),
        None => (line, false),
    };
    if options.strip_trailing_cr && newline {
        body = body.strip_suffix(b"\r").unwrap_or(body);
    }
    let mut key: Vec<u8> = if options.ignore_all_space {
        body.iter().copied().filter(|b| !is_space(*b)).collect()
    } else if options.ignore_space_change {
        let mut key = Vec::with_capacity(body.len());
        let mut in_space = false;
        for &byte in body {
            if is_space(byte) {
                in_space = true;
            } else {
                if in_space {
                    key.push(b' ');
                }
                in_space = false;
                key.push(byte);
            }
        }
        key
    } else {
        body.to_vec()
    };
    if options.ignore_case {
        key.make_ascii_lowercase();
    }
    // A last line without its newline differs from the same line with one.
    if !newline && !options.ignore_all_space && !options.ignore_space_change {
        key.push(0xff);
        key.push(0);
    }
    key
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// One change: lines `a0..a1` of the first file became `b0..b1` of the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Change {
    pub(super) a0: usize,
    pub(super) a1: usize,
    pub(super) b0: usize,
    pub(super) b1: usize,
}

impl Change {
    /// The letter the normal format and `-e` give the change: `a`dd,
    /// `d`elete or `c`hange.
    pub(super) fn letter(&self) -> char {
        if self.a0 == self.a1 {
            'a'
        } else if self.b0 == self.b1 {
            'd'
        } else {
            'c'
        }
    }
}

/// `-B`: a change whose lines are all empty is not shown.
pub(super) fn ignorable(options: &DiffOptions, change: &Change, a: &[&[u8]], b: &[&[u8]]) -> bool {
    let blank = |line: &&[u8]| {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        if options.ignore_all_space || options.ignore_space_change {
            body.iter().all(|&b| is_space(b))
        } else {
            body.is_empty()
        }
    };
    options.ignore_blank_lines && a[change.a0..change.a1].iter().all(blank) && b[change.b0..change.b1].iter().all(blank)
}
