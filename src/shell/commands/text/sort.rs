//! `sort`, GNU style in the C locale: byte order, `-k` keys with GNU's
//! field and character positions (without `-t`, a field keeps its leading
//! blanks unless `-b`), per-key options that replace the global ones, the
//! whole-line byte comparison as a last resort unless `-s` or `-u`, and
//! `-n`, `-g`, `-h`, `-V`, `-M`, `-R`, `-f`, `-d`, `-i`, `-c`/`-C`, `-o`,
//! `-z`, `-m` (a merge of the inputs as they are, GNU's order on ties).
//! `-R` uses a per-run random hash of the key.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::hash::{BuildHasher, Hasher};

use crate::shell::command::{error_reason, Context};
use crate::shell::LimitHit;

use super::common::{lines, parse, quotef, read_input, usage, Arg, HasArg, OpenStyle, Spec};

const SPEC: Spec = Spec {
    short: "bcCdfghik:mMno:rRsS:t:T:uVz",
    long: &[
        ("ignore-leading-blanks", "b", HasArg::No),
        ("check", "check", HasArg::Optional),
        ("dictionary-order", "d", HasArg::No),
        ("ignore-case", "f", HasArg::No),
        ("general-numeric-sort", "g", HasArg::No),
        ("human-numeric-sort", "h", HasArg::No),
        ("ignore-nonprinting", "i", HasArg::No),
        ("key", "k", HasArg::Yes),
        ("merge", "m", HasArg::No),
        ("month-sort", "M", HasArg::No),
        ("numeric-sort", "n", HasArg::No),
        ("output", "o", HasArg::Yes),
        ("reverse", "r", HasArg::No),
        ("random-sort", "R", HasArg::No),
        ("buffer-size", "S", HasArg::Yes),
        ("field-separator", "t", HasArg::Yes),
        ("temporary-directory", "T", HasArg::Yes),
        ("unique", "u", HasArg::No),
        ("version-sort", "V", HasArg::No),
        ("zero-terminated", "z", HasArg::No),
        ("parallel", "parallel", HasArg::Yes),
        ("sort", "sort", HasArg::Yes),
        ("stable", "s", HasArg::No),
        ("debug", "debug", HasArg::No),
    ],
};

/// How one key compares.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Method {
    #[default]
    Text,
    Numeric,
    General,
    Human,
    Version,
    Month,
    Random,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Options {
    skip_start_blanks: bool,
    skip_end_blanks: bool,
    fold: bool,
    dictionary: bool,
    printable: bool,
    reverse: bool,
    method: Method,
    /// The ordering letters given, as bits of [`ORDERING_LETTERS`] (GNU
    /// keeps each as a flag, so `-n -g` is two, which it refuses).
    letters: u16,
}

/// GNU's `key_to_opts` order, for the `options '-hn' are incompatible` message.
const ORDERING_LETTERS: &[u8] = b"bdfghiMnRrV";

impl Options {
    /// GNU's check_ordering_compatibility: at most one of `-n -g -h -M`
    /// and `-V`/`-R`/`-d`/`-i`; the message lists the key's letters
    /// without `b` and `r`.
    fn incompatible(&self) -> Option<String> {
        let has = |letter: u8| {
            let bit = ORDERING_LETTERS.iter().position(|&l| l == letter).map_or(0, |at| 1 << at);
            self.letters & bit != 0
        };
        let methods = [b'n', b'g', b'h', b'M'].iter().filter(|&&l| has(l)).count()
            + usize::from(has(b'V') || has(b'R') || has(b'd') || has(b'i'));
        if methods <= 1 {
            return None;
        }
        let letters: String =
            ORDERING_LETTERS.iter().filter(|&&l| l != b'b' && l != b'r' && has(l)).map(|&l| l as char).collect();
        Some(format!("options '-{letters}' are incompatible"))
    }

    /// Sets the option for one ordering letter; false if it is not one.
    fn set(&mut self, letter: u8, end: bool) -> bool {
        if let Some(at) = ORDERING_LETTERS.iter().position(|&l| l == letter) {
            self.letters |= 1 << at;
        }
        match letter {
            b'b' if end => self.skip_end_blanks = true,
            b'b' => self.skip_start_blanks = true,
            b'd' => self.dictionary = true,
            b'f' => self.fold = true,
            b'i' => self.printable = true,
            b'r' => self.reverse = true,
            b'n' => self.method = Method::Numeric,
            b'g' => self.method = Method::General,
            b'h' => self.method = Method::Human,
            b'V' => self.method = Method::Version,
            b'M' => self.method = Method::Month,
            b'R' => self.method = Method::Random,
            _ => return false,
        }
        true
    }
}

#[derive(Clone, Copy)]
struct Key {
    start_field: usize,
    start_char: usize,
    /// None: to the end of the line.
    end_field: Option<usize>,
    /// 0: to the end of the field.
    end_char: usize,
    options: Options,
}

struct Config {
    keys: Vec<Key>,
    tab: Option<u8>,
    unique: bool,
    stable: bool,
    reverse: bool,
    seed: std::collections::hash_map::RandomState,
}

/// `sort [OPTION]... [FILE]...`
pub(super) fn sort(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 2),
    };
    let mut global = Options::default();
    let mut keys = Vec::new();
    let mut tab = None;
    let (mut unique, mut stable, mut delim, mut merge) = (false, false, b'\n', false);
    // `-c` (diagnose) or `-C` (quiet), by its letter.
    let mut check: Option<char> = None;
    let mut output: Option<String> = None;
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => files.push(file),
            Arg::Opt("k", Some(spec)) => match parse_key(&spec) {
                Ok(key) => keys.push(key),
                Err(message) => {
                    ctx.error(message)?;
                    return Ok(2);
                }
            },
            Arg::Opt("t", Some(value)) => {
                let bytes = value.as_bytes();
                let new_tab = match bytes {
                    [] => {
                        ctx.error("empty tab")?;
                        return Ok(2);
                    }
                    [one] => *one,
                    b"\\0" => 0,
                    _ => {
                        ctx.error(format!("multi-character tab '{value}'"))?;
                        return Ok(2);
                    }
                };
                if tab.is_some_and(|tab| tab != new_tab) {
                    ctx.error("incompatible tabs")?;
                    return Ok(2);
                }
                tab = Some(new_tab);
            }
            Arg::Opt("o", value) => {
                if output.is_some() && output != value {
                    ctx.error("multiple output files specified")?;
                    return Ok(2);
                }
                output = value;
            }
            Arg::Opt("u", _) => unique = true,
            Arg::Opt("m", _) => merge = true,
            Arg::Opt("s", _) => stable = true,
            Arg::Opt("z", _) => delim = 0,
            Arg::Opt(letter @ ("c" | "C" | "check"), value) => {
                let letter = match (letter, value.as_deref()) {
                    ("c", _) | ("check", None | Some("diagnose-first")) => 'c',
                    ("C", _) | ("check", Some("quiet" | "silent")) => 'C',
                    (_, other) => {
                        let other = other.unwrap_or_default();
                        let message = format!(
                            "invalid argument '{other}' for '--check'\nValid arguments are:\n  - 'quiet', 'silent'\n  - 'diagnose-first'"
                        );
                        return usage(ctx, &message, 1);
                    }
                };
                if check.is_some_and(|c| c != letter) {
                    ctx.error("options '-cC' are incompatible")?;
                    return Ok(2);
                }
                check = Some(letter);
            }
            Arg::Opt("sort", Some(value)) => {
                let letter = match value.as_str() {
                    "general-numeric" => b'g',
                    "human-numeric" => b'h',
                    "month" => b'M',
                    "numeric" => b'n',
                    "random" => b'R',
                    "version" => b'V',
                    _ => {
                        let message = format!("invalid argument '{value}' for '--sort'\nValid arguments are:\n  - 'general-numeric'\n  - 'human-numeric'\n  - 'month'\n  - 'numeric'\n  - 'random'\n  - 'version'");
                        return usage(ctx, &message, 1);
                    }
                };
                global.set(letter, false);
            }
            Arg::Opt(key, _) => {
                if let [letter] = key.as_bytes() {
                    global.set(*letter, false);
                    if *letter == b'b' {
                        global.skip_end_blanks = true;
                    }
                }
            }
        }
    }
    // Keys without options of their own take the global ones.
    for key in &mut keys {
        if key.options == Options::default() {
            key.options = global;
        }
    }
    if keys.is_empty() && global != Options::default() {
        keys.push(Key { start_field: 0, start_char: 0, end_field: None, end_char: 0, options: global });
    }
    if let Some(message) = keys.iter().find_map(|key| key.options.incompatible()) {
        ctx.error(message)?;
        return Ok(2);
    }
    let config = Config { keys, tab, unique, stable, reverse: global.reverse, seed: Default::default() };
    if files.is_empty() {
        files.push("-".to_string());
    }
    if let Some(letter) = check {
        if let Some(extra) = files.get(1) {
            ctx.error(format!("extra operand {} not allowed with -{letter}", super::common::quote(extra)))?;
            return Ok(2);
        }
        if output.is_some() {
            ctx.error(format!("options '-{letter}o' are incompatible"))?;
            return Ok(2);
        }
        return check_order(ctx, &config, &files[0], delim, letter == 'c');
    }
    let mut inputs: Vec<Cow<'_, [u8]>> = Vec::new();
    for file in &files {
        match read_input(ctx, file, OpenStyle::Sort)? {
            Some(data) => inputs.push(data),
            None => return Ok(2),
        }
    }
    let mut all: Vec<&[u8]> = Vec::new();
    // Where each input's lines start in `all` (for `-m`).
    let mut starts = Vec::with_capacity(inputs.len() + 1);
    for data in &inputs {
        (ctx.check)()?;
        starts.push(all.len());
        all.extend(lines(data, delim));
    }
    starts.push(all.len());
    (ctx.check)()?;
    // Keys are cut once per line, into one flat vector, not per comparison.
    let width = config.keys.len();
    let mut texts: Vec<&[u8]> = Vec::with_capacity(all.len() * width);
    for (index, line) in all.iter().enumerate() {
        if index % 4096 == 4095 {
            (ctx.check)()?;
        }
        texts.extend(config.keys.iter().map(|key| key_text(line, key, config.tab)));
    }
    let mut entries: Vec<(&[u8], &[&[u8]])> = if width == 0 {
        all.iter().map(|line| (*line, &[][..])).collect()
    } else {
        all.iter().copied().zip(texts.chunks(width)).collect()
    };
    if merge {
        entries = merge_entries(ctx, &config, &entries, &starts)?;
    } else {
        sort_entries(&config, &mut entries);
    }
    (ctx.check)()?;
    if config.unique {
        entries.dedup_by(|later, earlier| {
            compare_decorated(&config, earlier.0, earlier.1, later.0, later.1, 0) == Ordering::Equal
        });
    }
    let mut out = Vec::with_capacity(inputs.iter().map(|data| data.len() + 1).sum());
    for (line, _) in &entries {
        out.extend_from_slice(line);
        out.push(delim);
    }
    match output {
        None => ctx.stdout.write(&out)?,
        Some(path) => {
            if let Err(error) = ctx.storage.write(&ctx.path(&path), &out) {
                ctx.error(format!("open failed: {}: {}", quotef(&path), error_reason(&error)))?;
                return Ok(2);
            }
        }
    }
    Ok(0)
}

/// `-m`: the inputs (`entries[starts[i]..starts[i + 1]]`, each taken as
/// sorted) merged: at each step the least head, the earlier input on a tie.
fn merge_entries<'l, 'k>(
    ctx: &Context<'_>,
    config: &Config,
    entries: &[Line<'l, 'k>],
    starts: &[usize],
) -> Result<Vec<Line<'l, 'k>>, LimitHit> {
    let mut heads: Vec<usize> = starts[..starts.len() - 1].to_vec();
    let mut merged = Vec::with_capacity(entries.len());
    while merged.len() < entries.len() {
        if merged.len() % 4096 == 4095 {
            (ctx.check)()?;
        }
        let mut best: Option<usize> = None;
        for input in 0..heads.len() {
            if heads[input] >= starts[input + 1] {
                continue;
            }
            let candidate = entries[heads[input]];
            let better = match best {
                None => true,
                Some(b) => {
                    let current = entries[heads[b]];
                    compare_decorated(config, candidate.0, candidate.1, current.0, current.1, 0) == Ordering::Less
                }
            };
            if better {
                best = Some(input);
            }
        }
        let Some(input) = best else { break };
        merged.push(entries[heads[input]]);
        heads[input] += 1;
    }
    Ok(merged)
}

fn check_order(ctx: &mut Context<'_>, config: &Config, file: &str, delim: u8, diagnose: bool) -> Result<i32, LimitHit> {
    let Some(data) = read_input(ctx, file, OpenStyle::Sort)? else { return Ok(2) };
    let mut previous: Option<&[u8]> = None;
    for (index, line) in lines(&data, delim).enumerate() {
        if index % 4096 == 4095 {
            (ctx.check)()?;
        }
        if let Some(previous) = previous {
            let order = compare(config, previous, line);
            if order == Ordering::Greater || (config.unique && order == Ordering::Equal) {
                if diagnose {
                    let mut message = format!("{}: {}:{}: disorder: ", ctx.name, file, index + 1).into_bytes();
                    message.extend_from_slice(line);
                    message.push(b'\n');
                    ctx.stderr.write(&message)?;
                }
                return Ok(1);
            }
        }
        previous = Some(line);
    }
    Ok(0)
}

/// Parses `-k F[.C][OPTS][,F[.C][OPTS]]`, with GNU's error messages.
fn parse_key(spec: &str) -> Result<Key, String> {
    let bad = |why: &str| format!("{why}: invalid field specification '{spec}'");
    let bytes = spec.as_bytes();
    let mut at = 0;
    let count = |at: &mut usize, why: &str| -> Result<usize, String> {
        let start = *at;
        while *at < bytes.len() && bytes[*at].is_ascii_digit() {
            *at += 1;
        }
        if start == *at {
            return Err(format!("{why}: invalid count at start of '{}'", &spec[start..]));
        }
        Ok(spec[start..*at].parse().unwrap_or(usize::MAX))
    };
    let mut options = Options::default();
    let start_field = count(&mut at, "invalid number at field start")?;
    if start_field == 0 {
        return Err(bad("field number is zero"));
    }
    let mut start_char = 1;
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        start_char = count(&mut at, "invalid number after '.'")?;
        if start_char == 0 {
            return Err(bad("character offset is zero"));
        }
    }
    while at < bytes.len() && options.set(bytes[at], false) {
        at += 1;
    }
    let mut key = Key {
        start_field: start_field - 1,
        start_char: start_char - 1,
        end_field: None,
        end_char: 0,
        options: Options::default(),
    };
    if bytes.get(at) == Some(&b',') {
        at += 1;
        let end_field = count(&mut at, "invalid number after ','")?;
        if end_field == 0 {
            return Err(bad("field number is zero"));
        }
        key.end_field = Some(end_field - 1);
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            key.end_char = count(&mut at, "invalid number after '.'")?;
        }
        while at < bytes.len() && options.set(bytes[at], true) {
            at += 1;
        }
    }
    if at < bytes.len() {
        return Err(bad("stray character in field spec"));
    }
    key.options = options;
    Ok(key)
}

/// GNU's `blanks` table: space, tab and newline.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n')
}

fn skip_blanks(line: &[u8], mut at: usize) -> usize {
    while at < line.len() && is_blank(line[at]) {
        at += 1;
    }
    at
}

/// Skips `fields` fields from `at` (GNU's begfield/limfield loops);
/// `past_tab` says whether to step over the separator after the last one.
fn skip_fields(line: &[u8], mut at: usize, fields: usize, tab: Option<u8>, past_tab: bool) -> usize {
    for remaining in (0..fields).rev() {
        if at >= line.len() {
            break;
        }
        match tab {
            Some(tab) => {
                at += memchr::memchr(tab, &line[at..]).unwrap_or(line.len() - at);
                if at < line.len() && (remaining > 0 || past_tab) {
                    at += 1;
                }
            }
            None => {
                at = skip_blanks(line, at);
                while at < line.len() && !is_blank(line[at]) {
                    at += 1;
                }
            }
        }
    }
    at
}

/// The bytes of `line` a key covers.
fn key_text<'l>(line: &'l [u8], key: &Key, tab: Option<u8>) -> &'l [u8] {
    let mut start = skip_fields(line, 0, key.start_field, tab, true);
    if key.options.skip_start_blanks {
        start = skip_blanks(line, start);
    }
    start = start.saturating_add(key.start_char).min(line.len());
    let end = match key.end_field {
        None => line.len(),
        Some(field) => {
            let fields = if key.end_char == 0 { field + 1 } else { field };
            let mut end = skip_fields(line, 0, fields, tab, key.end_char != 0);
            if key.end_char != 0 {
                if key.options.skip_end_blanks {
                    end = skip_blanks(line, end);
                }
                end = end.saturating_add(key.end_char).min(line.len());
            }
            end
        }
    };
    &line[start..end.max(start)]
}

/// A line and its keys' texts.
type Line<'l, 'k> = (&'l [u8], &'k [&'l [u8]]);

/// Sorts the decorated lines in `compare_decorated`'s order. The order is
/// total (lines equal under it are the same bytes) unless keys decide alone
/// (`-s`, `-u` with keys): then the sort is stable, else unstable, which
/// is faster on many equal lines. Two cheap comparisons go first: the
/// first eight bytes of each line as one number for a plain sort, and the
/// first key's number parsed once per line for `-n`.
fn sort_entries<'l, 'k>(config: &Config, entries: &mut [Line<'l, 'k>]) {
    let keys_decide = !config.keys.is_empty() && (config.unique || config.stable);
    let numeric_first = config.keys.first().is_some_and(|key| key.options.method == Method::Numeric);
    if config.keys.is_empty() {
        let prefix = |line: &[u8]| {
            let mut bytes = [0u8; 8];
            let length = line.len().min(8);
            bytes[..length].copy_from_slice(&line[..length]);
            u64::from_be_bytes(bytes)
        };
        let mut decorated: Vec<(u64, &[u8])> = entries.iter().map(|(line, _)| (prefix(line), *line)).collect();
        if config.reverse {
            decorated.sort_unstable_by(|a, b| b.cmp(a));
        } else {
            decorated.sort_unstable();
        }
        for (entry, (_, line)) in entries.iter_mut().zip(decorated) {
            entry.0 = line;
        }
    } else if numeric_first && config.keys.len() == 1 && !keys_decide && sort_integers(config, entries) {
        // Sorted as integers.
    } else if numeric_first {
        let key = &config.keys[0];
        let mut decorated: Vec<(Number<'l>, Line<'l, 'k>)> =
            entries.iter().map(|entry| (split_number(entry.1[0]).into(), *entry)).collect();
        let order = |a: &(Number<'l>, Line<'l, 'k>), b: &(Number<'l>, Line<'l, 'k>)| {
            let order = compare_numbers(&a.0, &b.0);
            let order = if key.options.reverse { order.reverse() } else { order };
            order.then_with(|| compare_decorated(config, a.1 .0, &a.1 .1[1..], b.1 .0, &b.1 .1[1..], 1))
        };
        if keys_decide {
            decorated.sort_by(order);
        } else {
            decorated.sort_unstable_by(order);
        }
        for (entry, (_, sorted)) in entries.iter_mut().zip(decorated) {
            *entry = sorted;
        }
    } else {
        let order = |a: &(&[u8], &[&[u8]]), b: &(&[u8], &[&[u8]])| compare_decorated(config, a.0, a.1, b.0, b.1, 0);
        if keys_decide {
            entries.sort_by(order);
        } else {
            entries.sort_unstable_by(order);
        }
    }
}

/// `-n` on one key whose every value is a whole number of at most 18
/// digits (`uniq -c` output, sizes, line numbers): each line becomes its
/// value and its first 16 bytes as integers, so nearly every comparison
/// is two or three integer comparisons on a small entry instead of two
/// memory reads. False (nothing sorted) when a value does not fit.
fn sort_integers(config: &Config, entries: &mut [(&[u8], &[&[u8]])]) -> bool {
    let prefix = |line: &[u8], from: usize| {
        let mut bytes = [0u8; 8];
        let part = line.get(from..).unwrap_or_default();
        let length = part.len().min(8);
        bytes[..length].copy_from_slice(&part[..length]);
        u64::from_be_bytes(bytes)
    };
    let mut decorated: Vec<(i64, u64, u64, usize)> = Vec::with_capacity(entries.len());
    for (index, (line, keys)) in entries.iter().enumerate() {
        let (negative, int, fraction, _) = split_number(keys[0]);
        if !fraction.is_empty() || int.len() > 18 {
            return false;
        }
        let magnitude = int.iter().fold(0i64, |value, digit| value * 10 + i64::from(digit - b'0'));
        let value = if negative { -magnitude } else { magnitude };
        decorated.push((value, prefix(line, 0), prefix(line, 8), index));
    }
    let key_reverse = config.keys[0].options.reverse;
    decorated.sort_unstable_by(|a, b| {
        let order = a.0.cmp(&b.0);
        let order = if key_reverse { order.reverse() } else { order };
        order.then_with(|| {
            let order = (a.1, a.2).cmp(&(b.1, b.2)).then_with(|| entries[a.3].0.cmp(entries[b.3].0));
            if config.reverse {
                order.reverse()
            } else {
                order
            }
        })
    });
    let sorted: Vec<(&[u8], &[&[u8]])> = decorated.iter().map(|entry| entries[entry.3]).collect();
    entries.copy_from_slice(&sorted);
    true
}

fn compare(config: &Config, a: &[u8], b: &[u8]) -> Ordering {
    let keys_a: Vec<&[u8]> = config.keys.iter().map(|key| key_text(a, key, config.tab)).collect();
    let keys_b: Vec<&[u8]> = config.keys.iter().map(|key| key_text(b, key, config.tab)).collect();
    compare_decorated(config, a, &keys_a, b, &keys_b, 0)
}

/// Compares two lines whose key texts were already cut, from the key
/// `first` on (`keys_a` and `keys_b` start at that key).
fn compare_decorated(
    config: &Config,
    a: &[u8],
    keys_a: &[&[u8]],
    b: &[u8],
    keys_b: &[&[u8]],
    first: usize,
) -> Ordering {
    for ((key, text_a), text_b) in config.keys[first..].iter().zip(keys_a).zip(keys_b) {
        let order = compare_key(config, &key.options, text_a, text_b);
        if order != Ordering::Equal {
            return if key.options.reverse { order.reverse() } else { order };
        }
    }
    if !config.keys.is_empty() && (config.unique || config.stable) {
        return Ordering::Equal;
    }
    let order = a.cmp(b);
    if config.reverse {
        order.reverse()
    } else {
        order
    }
}

fn compare_key(config: &Config, options: &Options, a: &[u8], b: &[u8]) -> Ordering {
    match options.method {
        Method::Numeric => numeric(a, b),
        Method::General => general(a, b),
        Method::Human => human(a, b),
        Method::Version => super::version::compare(a, b),
        Method::Month => month(a).cmp(&month(b)),
        Method::Random => {
            let hash = |text: &[u8]| {
                let mut hasher = config.seed.build_hasher();
                hasher.write(text);
                hasher.finish()
            };
            hash(a).cmp(&hash(b)).then_with(|| a.cmp(b))
        }
        Method::Text if options.fold || options.dictionary || options.printable => {
            let ignored = |byte: u8| {
                (options.dictionary && !byte.is_ascii_alphanumeric() && !is_blank(byte))
                    || (options.printable && !(0x20..0x7f).contains(&byte))
            };
            let fold = |byte: u8| if options.fold { byte.to_ascii_uppercase() } else { byte };
            let mut left = a.iter().copied().filter(|&byte| !ignored(byte)).map(fold);
            let mut right = b.iter().copied().filter(|&byte| !ignored(byte)).map(fold);
            loop {
                match (left.next(), right.next()) {
                    (Some(x), Some(y)) if x == y => continue,
                    (x, y) => return x.cmp(&y),
                }
            }
        }
        Method::Text => a.cmp(b),
    }
}

/// A decimal number as GNU's strnumcmp sees it: sign, integer digits
/// without leading zeros, fraction digits without trailing zeros.
fn split_number(text: &[u8]) -> (bool, &[u8], &[u8], usize) {
    let mut at = skip_blanks(text, 0);
    let negative = text.get(at) == Some(&b'-');
    if negative {
        at += 1;
    }
    while text.get(at) == Some(&b'0') {
        at += 1;
    }
    let int_start = at;
    while at < text.len() && text[at].is_ascii_digit() {
        at += 1;
    }
    let int = &text[int_start..at];
    let mut fraction: &[u8] = &[];
    if text.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while at < text.len() && text[at].is_ascii_digit() {
            at += 1;
        }
        fraction = &text[start..at];
        while let [rest @ .., b'0'] = fraction {
            fraction = rest;
        }
    }
    let zero = int.is_empty() && fraction.is_empty();
    (negative && !zero, int, fraction, at)
}

/// A key's number, split once: sign, integer and fraction digits.
struct Number<'t> {
    negative: bool,
    int: &'t [u8],
    fraction: &'t [u8],
}

impl<'t> From<(bool, &'t [u8], &'t [u8], usize)> for Number<'t> {
    fn from((negative, int, fraction, _): (bool, &'t [u8], &'t [u8], usize)) -> Self {
        Number { negative, int, fraction }
    }
}

fn numeric(a: &[u8], b: &[u8]) -> Ordering {
    compare_numbers(&split_number(a).into(), &split_number(b).into())
}

fn compare_numbers(a: &Number<'_>, b: &Number<'_>) -> Ordering {
    let (neg_a, int_a, frac_a) = (a.negative, a.int, a.fraction);
    let (neg_b, int_b, frac_b) = (b.negative, b.int, b.fraction);
    let magnitude = int_a.len().cmp(&int_b.len()).then_with(|| int_a.cmp(int_b)).then_with(|| frac_a.cmp(frac_b));
    match (neg_a, neg_b) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// `-h`: the SI suffix first (none < K < M < G…), then the number.
fn human(a: &[u8], b: &[u8]) -> Ordering {
    let order = |text: &[u8]| -> i32 {
        let (negative, int, fraction, end) = split_number(text);
        let unit = text.get(end).and_then(|&c| b"KMGTPEZYRQ".iter().position(|&u| u == c || (c == b'k' && u == b'K')));
        let unit = unit.map_or(0, |pos| pos as i32 + 1);
        let zero = int.is_empty() && fraction.is_empty();
        if zero {
            0
        } else if negative {
            -unit
        } else {
            unit
        }
    };
    order(a).cmp(&order(b)).then_with(|| numeric(a, b))
}

/// The longest prefix strtod would read, after leading whitespace.
fn parse_float(text: &[u8]) -> Option<f64> {
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let text = &text[start..];
    let mut end = 0;
    let mut best = None;
    // Try successively longer prefixes up to the first byte no number has.
    let limit = text.iter().position(|b| !(b.is_ascii_alphanumeric() || b"+-.".contains(b))).unwrap_or(text.len());
    while end < limit.min(64) {
        end += 1;
        if let Ok(prefix) = std::str::from_utf8(&text[..end]) {
            if prefix.ends_with(['+', '-', '.']) && prefix.len() > 1 && !prefix.ends_with("..") {
                if let Ok(value) = prefix.trim_end_matches(['+', '-', '.', 'e', 'E']).parse::<f64>() {
                    best = Some(value);
                }
                continue;
            }
            if let Ok(value) = prefix.parse::<f64>() {
                best = Some(value);
            }
        }
    }
    best
}

fn general(a: &[u8], b: &[u8]) -> Ordering {
    match (parse_float(a), parse_float(b)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => match x.partial_cmp(&y) {
            Some(order) => order,
            None => x.is_nan().cmp(&y.is_nan()).reverse(),
        },
    }
}

fn month(text: &[u8]) -> usize {
    const MONTHS: [&[u8]; 12] =
        [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"];
    let start = skip_blanks(text, 0);
    let Some(word) = text.get(start..start + 3) else { return 0 };
    let upper = word.to_ascii_uppercase();
    MONTHS.iter().position(|m| *m == upper.as_slice()).map_or(0, |pos| pos + 1)
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/s", b"b\na").unwrap();
        run_for_test(&storage, "sort", args, stdin)
    }

    fn out(args: &[&str], stdin: &str) -> String {
        run(args, stdin).1
    }

    #[test]
    fn plain_and_flags() {
        assert_eq!(out(&[], "b\na\nB\n_\n"), "B\n_\na\nb\n");
        assert_eq!(out(&["s"], ""), "a\nb\n");
        assert_eq!(out(&["-r"], "b\na\nc"), "c\nb\na\n");
        assert_eq!(out(&["-f"], "B\na\nb\nA\n"), "A\na\nB\nb\n");
        assert_eq!(out(&["-u"], "b\na\nb\n"), "a\nb\n");
        assert_eq!(out(&["-fu"], "b\nB\na\n"), "a\nb\n");
        assert_eq!(out(&["-n"], "10\n9\n-1\n1.5\nx\n01\n1\n"), "-1\nx\n01\n1\n1.5\n9\n10\n");
        assert_eq!(out(&["-nr"], "1\n3\n2\n"), "3\n2\n1\n");
        assert_eq!(out(&["-h"], "1G\n2K\n3M\n10\n"), "10\n2K\n3M\n1G\n");
        assert_eq!(out(&["-V"], "a10\na9\na1.2\n"), "a1.2\na9\na10\n");
        assert_eq!(out(&["-g"], "1e3\n5\nx\n-2.5\n"), "x\n-2.5\n5\n1e3\n");
        assert_eq!(out(&["-M"], "mar\nJan\nfoo\n"), "foo\nJan\nmar\n");
        assert_eq!(out(&["-d"], "b-b\na_z\n"), "a_z\nb-b\n");
    }

    /// The fast paths (a plain sort by prefixes, `-n` by integers) give
    /// GNU sort's order (LC_ALL=C) on ties, equal prefixes, leading zeros
    /// and blanks, and `-0`; `-s` keeps the input order of ties.
    #[test]
    fn fast_paths_order_like_gnu() {
        let input = "      2 b\n      1 zeta long line here\n     10 a\n      1 alpha beta gamma delta\n      1  alpha\n      01 x\n-3 neg\n-0 z\n0 y\nabcdefghij\nabcdefghi\nabcdefgh\nabcdefgh\n";
        let cases: [(&[&str], &str); 7] = [
            (&["-n"], "-3 neg\n-0 z\n0 y\nabcdefgh\nabcdefgh\nabcdefghi\nabcdefghij\n      01 x\n      1  alpha\n      1 alpha beta gamma delta\n      1 zeta long line here\n      2 b\n     10 a\n"),
            (&["-rn"], "     10 a\n      2 b\n      1 zeta long line here\n      1 alpha beta gamma delta\n      1  alpha\n      01 x\nabcdefghij\nabcdefghi\nabcdefgh\nabcdefgh\n0 y\n-0 z\n-3 neg\n"),
            (&["-k1,1nr"], "     10 a\n      2 b\n      01 x\n      1  alpha\n      1 alpha beta gamma delta\n      1 zeta long line here\n-0 z\n0 y\nabcdefgh\nabcdefgh\nabcdefghi\nabcdefghij\n-3 neg\n"),
            (&["-k1,1n"], "-3 neg\n-0 z\n0 y\nabcdefgh\nabcdefgh\nabcdefghi\nabcdefghij\n      01 x\n      1  alpha\n      1 alpha beta gamma delta\n      1 zeta long line here\n      2 b\n     10 a\n"),
            (&[], "      01 x\n      1  alpha\n      1 alpha beta gamma delta\n      1 zeta long line here\n      2 b\n     10 a\n-0 z\n-3 neg\n0 y\nabcdefgh\nabcdefgh\nabcdefghi\nabcdefghij\n"),
            (&["-r"], "abcdefghij\nabcdefghi\nabcdefgh\nabcdefgh\n0 y\n-3 neg\n-0 z\n     10 a\n      2 b\n      1 zeta long line here\n      1 alpha beta gamma delta\n      1  alpha\n      01 x\n"),
            (&["-s", "-k1,1n"], "-3 neg\n-0 z\n0 y\nabcdefghij\nabcdefghi\nabcdefgh\nabcdefgh\n      1 zeta long line here\n      1 alpha beta gamma delta\n      1  alpha\n      01 x\n      2 b\n     10 a\n"),
        ];
        for (args, expected) in cases {
            assert_eq!(out(args, input), expected, "sort {args:?}");
        }
        // A fraction or a number past 18 digits leaves the integer path.
        assert_eq!(out(&["-n"], "2\n1.5\n1\n"), "1\n1.5\n2\n");
        assert_eq!(
            out(&["-n"], "9999999999999999999\n10000000000000000000\n5\n"),
            "5\n9999999999999999999\n10000000000000000000\n"
        );
    }

    #[test]
    fn keys() {
        assert_eq!(out(&["-k2"], "x b\ny a\n"), "y a\nx b\n");
        assert_eq!(out(&["-k2,2n"], "a 10\nb 9\nc 9\n"), "b 9\nc 9\na 10\n");
        assert_eq!(out(&["-k2n", "-k1,1r"], "a 1\nb 1\nc 0\n"), "c 0\nb 1\na 1\n");
        assert_eq!(out(&["-t:", "-k2,2"], "a:z:1\nb:y:2\n"), "b:y:2\na:z:1\n");
        assert_eq!(out(&["-t", ",", "-k2n,2"], "x,3\ny,20\n"), "x,3\ny,20\n");
        // Without -b the leading blanks are part of the field.
        assert_eq!(out(&["-k2,2"], "a  b\nb c\n"), "a  b\nb c\n");
        assert_eq!(out(&["-b", "-k2,2"], "a  c\nb b\n"), "b b\na  c\n");
        assert_eq!(out(&["-k1.2,1.2"], "ab\nba\n"), "ba\nab\n");
        assert_eq!(out(&["-s", "-k1,1"], "a 2\na 1\n"), "a 2\na 1\n");
        assert_eq!(out(&["-k1,1"], "a 2\na 1\n"), "a 1\na 2\n");
        assert_eq!(out(&["-u", "-k1,1"], "a 2\na 1\nb\n"), "a 2\nb\n");
    }

    #[test]
    fn errors_and_checks() {
        assert_eq!(
            run(&["-k", "0"], ""),
            (2, "".into(), "sort: field number is zero: invalid field specification '0'\n".into())
        );
        assert_eq!(run(&["-k", "x"], "").2, "sort: invalid number at field start: invalid count at start of 'x'\n");
        assert_eq!(run(&["-k", "1x"], "").2, "sort: stray character in field spec: invalid field specification '1x'\n");
        assert_eq!(run(&["-t", "ab"], "").2, "sort: multi-character tab 'ab'\n");
        assert_eq!(run(&["-c"], "b\na\n"), (1, "".into(), "sort: -:2: disorder: a\n".into()));
        assert_eq!(run(&["-C"], "b\na\n"), (1, "".into(), "".into()));
        assert_eq!(run(&["-cu"], "a\na\n").0, 1);
        assert_eq!(run(&["-c"], "a\nb\n").0, 0);
        assert_eq!(run(&["nope"], ""), (2, "".into(), "sort: cannot read: nope: No such file or directory\n".into()));
        assert_eq!(
            run(&["-o", "/no/x"], "a"),
            (2, "".into(), "sort: open failed: /no/x: No such file or directory\n".into())
        );
    }

    #[test]
    fn output_file_may_be_an_input() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/s", b"b\na\n").unwrap();
        assert_eq!(run_for_test(&storage, "sort", &["-o", "s", "s"], "").0, 0);
        assert_eq!(storage.read("/s").unwrap(), b"a\nb\n");
    }
}
