//! Version comparison as gnulib's `filevercmp` (for `sort -V`): digit runs
//! compare as numbers, letters before other bytes, `~` before everything,
//! and a file suffix (`.tar.gz`) only breaks ties.

use std::cmp::Ordering;

/// Compares two version strings the way GNU `sort -V` does.
pub(in crate::shell::commands) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    if a.is_empty() || b.is_empty() {
        return (!a.is_empty()).cmp(&!b.is_empty());
    }
    let rank = |s: &[u8]| match s {
        b"." => 0,
        b".." => 1,
        [b'.', ..] => 2,
        _ => 3,
    };
    let (rank_a, rank_b) = (rank(a), rank(b));
    if rank_a != rank_b || rank_a < 2 {
        return rank_a.cmp(&rank_b);
    }
    let prefix_a = prefix_len(a);
    let prefix_b = prefix_len(b);
    let order = verrevcmp(&a[..prefix_a], &b[..prefix_b]);
    if order != Ordering::Equal || (prefix_a == a.len() && prefix_b == b.len()) {
        return order;
    }
    verrevcmp(a, b)
}

/// The length of `s` without its file suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*$`).
fn prefix_len(s: &[u8]) -> usize {
    let n = s.len();
    let mut prefix = 0;
    let mut i = 0;
    loop {
        if i == n {
            return prefix;
        }
        i += 1;
        prefix = i;
        while i + 1 < n && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~') {
            i += 2;
            while i < n && (s[i].is_ascii_alphanumeric() || s[i] == b'~') {
                i += 1;
            }
        }
    }
}

fn order(c: u8) -> i32 {
    if c.is_ascii_digit() {
        0
    } else if c.is_ascii_alphabetic() {
        i32::from(c)
    } else if c == b'~' {
        -1
    } else {
        i32::from(c) + 256
    }
}

fn verrevcmp(s1: &[u8], s2: &[u8]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    while i < s1.len() || j < s2.len() {
        while (i < s1.len() && !s1[i].is_ascii_digit()) || (j < s2.len() && !s2[j].is_ascii_digit()) {
            let c1 = s1.get(i).map_or(0, |&c| order(c));
            let c2 = s2.get(j).map_or(0, |&c| order(c));
            if c1 != c2 {
                return c1.cmp(&c2);
            }
            i += 1;
            j += 1;
        }
        while i < s1.len() && s1[i] == b'0' {
            i += 1;
        }
        while j < s2.len() && s2[j] == b'0' {
            j += 1;
        }
        let mut first_diff = Ordering::Equal;
        while i < s1.len() && j < s2.len() && s1[i].is_ascii_digit() && s2[j].is_ascii_digit() {
            if first_diff == Ordering::Equal {
                first_diff = s1[i].cmp(&s2[j]);
            }
            i += 1;
            j += 1;
        }
        if i < s1.len() && s1[i].is_ascii_digit() {
            return Ordering::Greater;
        }
        if j < s2.len() && s2[j].is_ascii_digit() {
            return Ordering::Less;
        }
        if first_diff != Ordering::Equal {
            return first_diff;
        }
    }
    Ordering::Equal
}
