//! Writing the changes: the normal, context (`-c`) and unified (`-u`)
//! formats, with `--color`.

use super::*;

/// Writes one line after its prefix; `color` is the SGR code around it.
pub(super) fn push_line(out: &mut Vec<u8>, prefix: &[u8], line: &[u8], color: Option<&str>) {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    if let Some(code) = color {
        out.extend_from_slice(format!("\x1b[{code}m").as_bytes());
    }
    out.extend_from_slice(prefix);
    out.extend_from_slice(body);
    if color.is_some() {
        out.extend_from_slice(b"\x1b[0m");
    }
    out.push(b'\n');
    if !line.ends_with(b"\n") {
        out.extend_from_slice(b"\\ No newline at end of file\n");
    }
}

/// The SGR code for a kind of line when colours are on.
pub(super) fn paint(color: bool, code: &'static str) -> Option<&'static str> {
    color.then_some(code)
}

/// `3`, `3,5`: a 1-based inclusive range in the normal format.
fn normal_range(start: usize, end: usize) -> String {
    if end <= start + 1 {
        format!("{}", if end > start { end } else { start })
    } else {
        format!("{},{}", start + 1, end)
    }
}

pub(super) fn normal_format(
    out: &mut Vec<u8>,
    changes: &[Change],
    shown: &[bool],
    a: &[&[u8]],
    b: &[&[u8]],
    color: bool,
) {
    for (change, _) in changes.iter().zip(shown).filter(|(_, shown)| **shown) {
        let kind = if change.a0 == change.a1 {
            'a'
        } else if change.b0 == change.b1 {
            'd'
        } else {
            'c'
        };
        let line = format!("{}{kind}{}\n", normal_range(change.a0, change.a1), normal_range(change.b0, change.b1));
        push_line(out, b"", line.as_bytes(), paint(color, "36"));
        for line in &a[change.a0..change.a1] {
            push_line(out, b"< ", line, paint(color, "31"));
        }
        if kind == 'c' {
            out.extend_from_slice(b"---\n");
        }
        for line in &b[change.b0..change.b1] {
            push_line(out, b"> ", line, paint(color, "32"));
        }
    }
}

/// `-3,4`, `-3`, `-2,0`: a range in a unified hunk header.
fn unified_range(start: usize, end: usize) -> String {
    match end - start {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        len => format!("{},{len}", start + 1),
    }
}

/// One hunk of a context or unified diff: `changes[first..=last]`, and on
/// each side the lines it shows (the changes and up to `context` around).
struct Hunk {
    pub(super) first: usize,
    pub(super) last: usize,
    pub(super) a: (usize, usize),
    pub(super) b: (usize, usize),
}

/// The hunks of a context or unified diff: ranges of changes whose
/// context touches or overlaps, without those that are all ignorable.
/// `a_len` is the old side's line count (the last hunk's context ends there).
fn hunks(changes: &[Change], shown: &[bool], context: usize, a_len: usize) -> Vec<Hunk> {
    let mut hunks = Vec::new();
    let mut k = 0;
    while k < changes.len() {
        let first = k;
        let mut last = k;
        // An ignorable (-B) change joins only when within one context of
        // the hunk; another within two contexts.
        while last + 1 < changes.len() && {
            let gap = changes[last + 1].a0 - changes[last].a1;
            if shown[last + 1] {
                gap <= 2 * context
            } else {
                gap < context
            }
        } {
            last += 1;
        }
        k = last + 1;
        if shown[first..=last].iter().any(|&shown| shown) {
            let (head, tail) = (changes[first], changes[last]);
            let before = context.min(head.a0);
            let after = context.min(a_len - tail.a1);
            let a = (head.a0 - before, tail.a1 + after);
            let b = (head.b0 - before, tail.b1 + after);
            hunks.push(Hunk { first, last, a, b });
        }
    }
    hunks
}

/// `3,5`, `3`, `0`: a range in a context hunk header.
fn context_range(start: usize, end: usize) -> String {
    if end > start + 1 {
        format!("{},{end}", start + 1)
    } else {
        format!("{end}")
    }
}

pub(super) fn context_format(
    out: &mut Vec<u8>,
    changes: &[Change],
    shown: &[bool],
    (a, b): (&[&[u8]], &[&[u8]]),
    context: usize,
) {
    for hunk in hunks(changes, shown, context, a.len()) {
        let group = &changes[hunk.first..=hunk.last];
        out.extend_from_slice(format!("***************\n*** {} ****\n", context_range(hunk.a.0, hunk.a.1)).as_bytes());
        context_side(out, a, hunk.a, group, true);
        out.extend_from_slice(format!("--- {} ----\n", context_range(hunk.b.0, hunk.b.1)).as_bytes());
        context_side(out, b, hunk.b, group, false);
    }
}

/// One side of a context hunk, printed only when it has changed lines:
/// `! ` marks a line of a change that replaces, else `- ` on the old side
/// and `+ ` on the new; the rest are context (`  `).
fn context_side(out: &mut Vec<u8>, lines: &[&[u8]], (lo, hi): (usize, usize), group: &[Change], old: bool) {
    let range = |change: &Change| if old { (change.a0, change.a1) } else { (change.b0, change.b1) };
    if !group.iter().any(|change| range(change).0 < range(change).1) {
        return;
    }
    let mut at = lo;
    for change in group {
        let (start, end) = range(change);
        for line in &lines[at..start] {
            push_line(out, b"  ", line, None);
        }
        let replaces = change.a0 < change.a1 && change.b0 < change.b1;
        let marker: &[u8] = if replaces {
            b"! "
        } else if old {
            b"- "
        } else {
            b"+ "
        };
        for line in &lines[start..end] {
            push_line(out, marker, line, None);
        }
        at = end;
    }
    for line in &lines[at..hi] {
        push_line(out, b"  ", line, None);
    }
}

pub(super) fn unified_format(
    out: &mut Vec<u8>,
    changes: &[Change],
    shown: &[bool],
    (a, b): (&[&[u8]], &[&[u8]]),
    context: usize,
    color: bool,
) {
    for hunk in hunks(changes, shown, context, a.len()) {
        let line = format!("@@ -{} +{} @@\n", unified_range(hunk.a.0, hunk.a.1), unified_range(hunk.b.0, hunk.b.1));
        push_line(out, b"", line.as_bytes(), paint(color, "36"));
        let mut i = hunk.a.0;
        for change in &changes[hunk.first..=hunk.last] {
            for line in &a[i..change.a0] {
                push_line(out, b" ", line, None);
            }
            for line in &a[change.a0..change.a1] {
                push_line(out, b"-", line, paint(color, "31"));
            }
            for line in &b[change.b0..change.b1] {
                push_line(out, b"+", line, paint(color, "32"));
            }
            i = change.a1;
        }
        for line in &a[i..hunk.a.1] {
            push_line(out, b" ", line, None);
        }
    }
}
