//! Finding the changes: lines of one file only set aside, Myers' O(ND)
//! algorithm in linear space, then each run of changes slid the way GNU
//! does so that the hunks read the same.

use std::collections::HashMap;

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::super::text::common::tick;

use super::*;

/// The changes between two files' lines, GNU style.
pub(super) fn compute_changes(
    ctx: &Context<'_>,
    options: &DiffOptions,
    lines_a: &[&[u8]],
    lines_b: &[&[u8]],
) -> Result<Vec<Change>, LimitHit> {
    let mut ids: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut counter = 0;
    let mut intern = |line: &&[u8]| {
        let next = ids.len() as u32;
        *ids.entry(line_key(options, line)).or_insert(next)
    };
    let mut a = Vec::with_capacity(lines_a.len());
    for line in lines_a {
        tick(ctx, &mut counter)?;
        a.push(intern(line));
    }
    let mut b = Vec::with_capacity(lines_b.len());
    for line in lines_b {
        tick(ctx, &mut counter)?;
        b.push(intern(line));
    }
    // As GNU does, the identical first and last lines are left out of the
    // search, so no change slides into them.
    let mut prefix = 0;
    while prefix < lines_a.len() && prefix < lines_b.len() && lines_a[prefix] == lines_b[prefix] {
        prefix += 1;
    }
    let mut suffix = 0;
    while suffix < lines_a.len() - prefix
        && suffix < lines_b.len() - prefix
        && lines_a[lines_a.len() - 1 - suffix] == lines_b[lines_b.len() - 1 - suffix]
    {
        suffix += 1;
    }
    // Except the last few, kept as context (GNU's "horizon").
    let horizon = options.unified.unwrap_or(0);
    prefix -= prefix.min(horizon);
    suffix -= suffix.min(horizon);
    let (middle_a, middle_b) = diff_sequences(ctx, &a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix])?;
    let mut changed_a = vec![false; a.len()];
    let mut changed_b = vec![false; b.len()];
    changed_a[prefix..a.len() - suffix].copy_from_slice(&middle_a);
    changed_b[prefix..b.len() - suffix].copy_from_slice(&middle_b);
    Ok(collect_changes(&changed_a, &changed_b))
}

/// Which elements of `a` and `b` are not part of the common subsequence.
fn diff_sequences(ctx: &Context<'_>, a: &[u32], b: &[u32]) -> Result<(Vec<bool>, Vec<bool>), LimitHit> {
    let mut changed_a = vec![false; a.len()];
    let mut changed_b = vec![false; b.len()];
    // Lines with no match at all in the other file are changes for sure:
    // set them aside so the search runs over fewer lines.
    let ids = a.iter().chain(b.iter()).copied().max().map_or(0, |max| max as usize + 1);
    let mut in_a = vec![false; ids];
    let mut in_b = vec![false; ids];
    a.iter().for_each(|&id| in_a[id as usize] = true);
    b.iter().for_each(|&id| in_b[id as usize] = true);
    let kept_a: Vec<usize> = (0..a.len()).filter(|&i| in_b[a[i] as usize]).collect();
    let kept_b: Vec<usize> = (0..b.len()).filter(|&j| in_a[b[j] as usize]).collect();
    for (i, flag) in changed_a.iter_mut().enumerate() {
        *flag = !in_b[a[i] as usize];
    }
    for (j, flag) in changed_b.iter_mut().enumerate() {
        *flag = !in_a[b[j] as usize];
    }
    let xs: Vec<u32> = kept_a.iter().map(|&i| a[i]).collect();
    let ys: Vec<u32> = kept_b.iter().map(|&j| b[j]).collect();
    let mut search = Myers::new(ctx.check, &xs, &ys);
    search.compare(0, xs.len(), 0, ys.len(), false)?;
    let (sub_a, sub_b) = (search.changed_x, search.changed_y);
    for (k, &i) in kept_a.iter().enumerate() {
        changed_a[i] = sub_a[k];
    }
    for (k, &j) in kept_b.iter().enumerate() {
        changed_b[j] = sub_b[k];
    }
    shift_boundaries(a, &mut changed_a, &changed_b);
    shift_boundaries(b, &mut changed_b, &changed_a);
    Ok((changed_a, changed_b))
}

/// Myers' bidirectional search for the middle snake, applied recursively
/// (linear space).
struct Myers<'c, 'x> {
    pub(super) check: &'c dyn Fn() -> Result<(), LimitHit>,
    pub(super) xs: &'x [u32],
    pub(super) ys: &'x [u32],
    pub(super) forward: Vec<i64>,
    pub(super) backward: Vec<i64>,
    pub(super) offset: i64,
    pub(super) steps: usize,
    /// Which elements of `xs` and `ys` are not in the common subsequence.
    pub(super) changed_x: Vec<bool>,
    pub(super) changed_y: Vec<bool>,
    /// Past this many rounds the search settles for the furthest point
    /// reached instead of the optimal midpoint, as GNU does (about the
    /// square root of the input, at least 4096), so that very different
    /// inputs stay fast.
    pub(super) too_expensive: i64,
}

impl<'c, 'x> Myers<'c, 'x> {
    pub(super) fn new(check: &'c dyn Fn() -> Result<(), LimitHit>, xs: &'x [u32], ys: &'x [u32]) -> Self {
        let size = xs.len() + ys.len() + 3;
        Myers {
            check,
            xs,
            ys,
            forward: vec![0; size],
            backward: vec![0; size],
            offset: ys.len() as i64 + 1,
            steps: 0,
            changed_x: vec![false; xs.len()],
            changed_y: vec![false; ys.len()],
            too_expensive: {
                let mut diagonals = xs.len() + ys.len() + 3;
                let mut limit: i64 = 1;
                while diagonals != 0 {
                    diagonals >>= 2;
                    limit <<= 1;
                }
                limit.max(4096)
            },
        }
    }

    pub(super) fn compare(
        &mut self,
        mut xoff: usize,
        mut xlim: usize,
        mut yoff: usize,
        mut ylim: usize,
        minimal: bool,
    ) -> Result<(), LimitHit> {
        while xoff < xlim && yoff < ylim && self.xs[xoff] == self.ys[yoff] {
            xoff += 1;
            yoff += 1;
        }
        while xlim > xoff && ylim > yoff && self.xs[xlim - 1] == self.ys[ylim - 1] {
            xlim -= 1;
            ylim -= 1;
        }
        if xoff == xlim {
            self.changed_y[yoff..ylim].iter_mut().for_each(|flag| *flag = true);
        } else if yoff == ylim {
            self.changed_x[xoff..xlim].iter_mut().for_each(|flag| *flag = true);
        } else {
            let (xmid, ymid, low_minimal, high_minimal) = self.midpoint(xoff, xlim, yoff, ylim, minimal)?;
            self.compare(xoff, xmid, yoff, ymid, low_minimal)?;
            self.compare(xmid, xlim, ymid, ylim, high_minimal)?;
        }
        Ok(())
    }

    /// A point on an optimal path from (xoff, yoff) to (xlim, ylim), found
    /// by running the search from both ends until they meet.
    /// Also says, for each half, whether it must be searched minimally.
    pub(super) fn midpoint(
        &mut self,
        xoff: usize,
        xlim: usize,
        yoff: usize,
        ylim: usize,
        minimal: bool,
    ) -> Result<(usize, usize, bool, bool), LimitHit> {
        let (xoff, xlim, yoff, ylim) = (xoff as i64, xlim as i64, yoff as i64, ylim as i64);
        let dmin = xoff - ylim;
        let dmax = xlim - yoff;
        let fmid = xoff - yoff;
        let bmid = xlim - ylim;
        let odd = (fmid - bmid) & 1 != 0;
        let o = self.offset;
        let at = |d: i64| (d + o) as usize;
        self.forward[at(fmid)] = xoff;
        self.backward[at(bmid)] = xlim;
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let mut rounds: i64 = 0;
        loop {
            self.steps += 1;
            if self.steps.is_multiple_of(64) {
                (self.check)()?;
            }
            if fmin > dmin {
                fmin -= 1;
                self.forward[at(fmin - 1)] = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.forward[at(fmax + 1)] = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let low = self.forward[at(d - 1)];
                let high = self.forward[at(d + 1)];
                let mut x = if low >= high { low + 1 } else { high };
                let mut y = x - d;
                while x < xlim && y < ylim && self.xs[x as usize] == self.ys[y as usize] {
                    x += 1;
                    y += 1;
                }
                self.forward[at(d)] = x;
                if odd && bmin <= d && d <= bmax && self.backward[at(d)] <= x {
                    return Ok((x as usize, y as usize, true, true));
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.backward[at(bmin - 1)] = i64::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.backward[at(bmax + 1)] = i64::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let low = self.backward[at(d - 1)];
                let high = self.backward[at(d + 1)];
                let mut x = if low < high { low } else { high - 1 };
                let mut y = x - d;
                while x > xoff && y > yoff && self.xs[x as usize - 1] == self.ys[y as usize - 1] {
                    x -= 1;
                    y -= 1;
                }
                self.backward[at(d)] = x;
                if !odd && fmin <= d && d <= fmax && x <= self.forward[at(d)] {
                    return Ok((x as usize, y as usize, true, true));
                }
                d -= 2;
            }
            rounds += 1;
            if !minimal && rounds >= self.too_expensive {
                // The furthest forward point (largest x + y) and the
                // furthest backward one (smallest x + y); take the one
                // that got further from its end.
                let (mut forward_best, mut forward_x) = (-1, 0);
                let mut d = fmax;
                while d >= fmin {
                    let mut x = self.forward[at(d)].min(xlim);
                    let mut y = x - d;
                    if ylim < y {
                        x = ylim + d;
                        y = ylim;
                    }
                    if forward_best < x + y {
                        forward_best = x + y;
                        forward_x = x;
                    }
                    d -= 2;
                }
                let (mut backward_best, mut backward_x) = (i64::MAX, 0);
                let mut d = bmax;
                while d >= bmin {
                    let mut x = self.backward[at(d)].max(xoff);
                    let mut y = x - d;
                    if y < yoff {
                        x = yoff + d;
                        y = yoff;
                    }
                    if x + y < backward_best {
                        backward_best = x + y;
                        backward_x = x;
                    }
                    d -= 2;
                }
                return Ok(if (xlim + ylim) - backward_best < forward_best - (xoff + yoff) {
                    (forward_x as usize, (forward_best - forward_x) as usize, true, false)
                } else {
                    (backward_x as usize, (backward_best - backward_x) as usize, false, true)
                });
            }
        }
    }
}

/// Slides each run of changed lines as far down as it goes (merging with
/// the runs it meets), then back up to where it lines up with a change in
/// the other file if it passed one: GNU's rule, which makes hunks read as
/// a person would write them.
fn shift_boundaries(ids: &[u32], changed: &mut [bool], other: &[bool]) {
    let n = ids.len();
    let other_changed = |j: usize| j < other.len() && other[j];
    let other_before = |j: usize| j > 0 && other_changed(j - 1);
    let mut i = 0;
    let mut j = 0;
    loop {
        while i < n && !changed[i] {
            while other_changed(j) {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == n {
            break;
        }
        let mut start = i;
        while i < n && changed[i] {
            i += 1;
        }
        while other_changed(j) {
            j += 1;
        }
        let mut corresponding;
        loop {
            let run = i - start;
            // Up as far as it goes, merging with the runs above.
            while start > 0 && ids[start - 1] == ids[i - 1] {
                start -= 1;
                changed[start] = true;
                i -= 1;
                changed[i] = false;
                while start > 0 && changed[start - 1] {
                    start -= 1;
                }
                j = j.saturating_sub(1);
                while j > 0 && other_changed(j) {
                    j -= 1;
                }
            }
            corresponding = if other_before(j) { i } else { usize::MAX };
            // Down as far as it goes, merging with the runs below.
            while i < n && ids[start] == ids[i] {
                changed[start] = false;
                start += 1;
                changed[i] = true;
                i += 1;
                while i < n && changed[i] {
                    i += 1;
                }
                j += 1;
                while other_changed(j) {
                    j += 1;
                    corresponding = i;
                }
            }
            if run == i - start {
                break;
            }
        }
        // Back up to line up with a change in the other file.
        while corresponding != usize::MAX && corresponding < i {
            start -= 1;
            changed[start] = true;
            i -= 1;
            changed[i] = false;
            j = j.saturating_sub(1);
            while j > 0 && other_changed(j) {
                j -= 1;
            }
        }
    }
}

fn collect_changes(changed_a: &[bool], changed_b: &[bool]) -> Vec<Change> {
    let (n, m) = (changed_a.len(), changed_b.len());
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && !changed_a[i] && !changed_b[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (a0, b0) = (i, j);
        while i < n && changed_a[i] {
            i += 1;
        }
        while j < m && changed_b[j] {
            j += 1;
        }
        if (a0, b0) == (i, j) {
            // Unbalanced tails cannot happen; guard against looping.
            i = (i + 1).min(n);
            j = (j + 1).min(m);
            continue;
        }
        changes.push(Change { a0, a1: i, b0, b1: j });
    }
    changes
}
