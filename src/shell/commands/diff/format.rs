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
        let kind = change.letter();
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

/// `-y`'s layout: GNU's half width and second-column offset for a width.
#[derive(Clone, Copy)]
pub(super) struct SideBySide {
    pub(super) half_width: usize,
    pub(super) column2: usize,
    pub(super) tabsize: usize,
    /// `-t`: tabs become spaces.
    pub(super) expand_tabs: bool,
    pub(super) suppress_common: bool,
    pub(super) left_column: bool,
}

impl SideBySide {
    /// The columns for a width `-W` (130 by default), as diffutils 3.8
    /// computes them: the second column starts on a tab stop near the middle.
    pub(super) fn new(width: usize, tabsize: usize, expand_tabs: bool) -> SideBySide {
        let t = if expand_tabs { 1 } else { tabsize.max(1) };
        let off = (width + t + 3) / (2 * t) * t;
        let half_width = off.saturating_sub(3).min(width.saturating_sub(off));
        let column2 = if half_width > 0 { off } else { width };
        SideBySide {
            half_width,
            column2,
            tabsize: tabsize.max(1),
            expand_tabs,
            suppress_common: false,
            left_column: false,
        }
    }

    /// GNU's tab_from_to: tabs (unless `-t`) then spaces from `from` to `to`.
    fn tab_to(&self, out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
        if !self.expand_tabs {
            let mut tab = from + self.tabsize - from % self.tabsize;
            while tab <= to {
                out.push(b'\t');
                from = tab;
                tab += self.tabsize;
            }
        }
        while from < to {
            out.push(b' ');
            from += 1;
        }
        to
    }

    /// GNU's print_half_line: the line cut to `bound` columns, tabs
    /// kept at their stops; returns the column reached.
    fn half_line(&self, out: &mut Vec<u8>, line: &[u8], indent: usize, bound: usize) -> usize {
        let (mut input, mut output) = (0usize, 0usize);
        for &c in line {
            match c {
                b'\n' => return output,
                b'\t' => {
                    let spaces = self.tabsize - input % self.tabsize;
                    if input == output {
                        let mut stop = output + spaces;
                        if self.expand_tabs {
                            stop = stop.min(bound);
                            while output < stop {
                                out.push(b' ');
                                output += 1;
                            }
                        } else if stop < bound {
                            output = stop;
                            out.push(c);
                        }
                    }
                    input += spaces;
                }
                b'\r' => {
                    out.push(c);
                    self.tab_to(out, 0, indent);
                    input = 0;
                    output = 0;
                }
                0x08 => {
                    if input != 0 {
                        input -= 1;
                        if input < bound {
                            if output <= input {
                                while output < input {
                                    out.push(b' ');
                                    output += 1;
                                }
                            } else {
                                output = input;
                                out.push(c);
                            }
                        }
                    }
                }
                b' '..=b'~' => {
                    input += 1;
                    if input <= bound {
                        output = input;
                        out.push(c);
                    }
                }
                _ => {
                    if input < bound {
                        out.push(c);
                    }
                }
            }
        }
        output
    }

    /// GNU's print_1sdiff_line.
    fn row(&self, out: &mut Vec<u8>, left: Option<&[u8]>, sep: u8, right: Option<&[u8]>) {
        let mut col = 0;
        let mut newline = false;
        if let Some(left) = left {
            newline |= left.ends_with(b"\n");
            col = self.half_line(out, left, 0, self.half_width);
        }
        if sep != b' ' {
            col = self.tab_to(out, col, (self.half_width + self.column2 - 1) / 2) + 1;
            let right_newline = right.is_some_and(|line| line.ends_with(b"\n"));
            let sep = if sep == b'|' && newline != right_newline {
                if newline {
                    b'/'
                } else {
                    b'\\'
                }
            } else {
                sep
            };
            out.push(sep);
        }
        if let Some(right) = right {
            newline |= right.ends_with(b"\n");
            if right.first() != Some(&b'\n') {
                col = self.tab_to(out, col, self.column2);
                self.half_line(out, right, col, self.half_width);
            }
        }
        if newline {
            out.push(b'\n');
        }
    }

    /// Lines both sides share, from `next` up to `limit` on each side.
    fn common(&self, out: &mut Vec<u8>, (a, b): (&[&[u8]], &[&[u8]]), next: (usize, usize), limit: (usize, usize)) {
        if self.suppress_common {
            return;
        }
        let (mut i, mut j) = next;
        if !self.left_column {
            while i < limit.0 && j < limit.1 {
                self.row(out, Some(a[i]), b' ', Some(b[j]));
                i += 1;
                j += 1;
            }
            while j < limit.1 {
                self.row(out, None, b')', Some(b[j]));
                j += 1;
            }
        }
        while i < limit.0 {
            self.row(out, Some(a[i]), b'(', None);
            i += 1;
        }
    }

    /// `diff -y`: every line, changed ones marked `|`, `<` or `>`.
    pub(super) fn format(&self, out: &mut Vec<u8>, changes: &[Change], shown: &[bool], (a, b): (&[&[u8]], &[&[u8]])) {
        let mut next = (0, 0);
        for (change, _) in changes.iter().zip(shown).filter(|(_, shown)| **shown) {
            self.common(out, (a, b), next, (change.a0, change.b0));
            let (mut i, mut j) = (change.a0, change.b0);
            while i < change.a1 && j < change.b1 {
                self.row(out, Some(a[i]), b'|', Some(b[j]));
                i += 1;
                j += 1;
            }
            for line in &b[j..change.b1] {
                self.row(out, None, b'>', Some(line));
            }
            for line in &a[i..change.a1] {
                self.row(out, Some(line), b'<', None);
            }
            next = (change.a1, change.b1);
        }
        self.common(out, (a, b), next, (a.len(), b.len()));
    }
}

/// `diff -e`: an ed script that turns the first file into the second,
/// its hunks last to first.
pub(super) fn ed_format(out: &mut Vec<u8>, changes: &[Change], shown: &[bool], b: &[&[u8]]) {
    for (change, _) in changes.iter().zip(shown).filter(|(_, shown)| **shown).rev() {
        let kind = change.letter();
        out.extend_from_slice(format!("{}{kind}\n", normal_range(change.a0, change.a1)).as_bytes());
        if kind == 'd' {
            continue;
        }
        let mut insert_mode = true;
        for line in &b[change.b0..change.b1] {
            if !insert_mode {
                out.extend_from_slice(b"a\n");
                insert_mode = true;
            }
            if *line == b".\n" {
                // A lone dot would end the insertion: write `..`, end, and
                // take the extra dot away.
                out.extend_from_slice(b"..\n.\ns/.//\n");
                insert_mode = false;
            } else {
                out.extend_from_slice(line);
                if !line.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
        }
        if insert_mode {
            out.extend_from_slice(b".\n");
        }
    }
}
