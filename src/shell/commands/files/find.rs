//! `find [-H|-L|-P] [PATH…] [EXPRESSION]`.
//!
//! Differences on purpose: entries are visited in name order (GNU uses the
//! directory's on-disk order); `-execdir`, `-ok`, `-ls`, `-fprint` and the
//! user and group tests are not available; `-regex` takes the regex
//! crate's syntax after turning emacs-style `\(`, `\|`, `\)` into groups;
//! global options placed after tests are accepted without GNU's warning.
//! `-exec … {} +` runs its command once per 128 KiB of paths, at the end.

use std::time::SystemTime;

use super::{child, epoch_seconds, shown_size};
use crate::shell::command::{error_reason, Context};
use crate::shell::LimitHit;
use crate::storage::{FileKind, Metadata};

/// A parsed expression.
enum Node {
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Comma(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Const(bool),
    Name {
        pattern: Vec<u8>,
        fold: bool,
    },
    Path {
        pattern: Vec<u8>,
        fold: bool,
    },
    LinkName {
        pattern: Vec<u8>,
        fold: bool,
    },
    Regex(regex::bytes::Regex),
    Type(Vec<char>),
    Empty,
    Size {
        compare: i8,
        count: u64,
        unit: u64,
    },
    Newer(SystemTime),
    /// `-newer FILE` before the walk looks FILE up.
    NewerThan(String),
    Age {
        compare: i8,
        count: i64,
        unit: i64,
    },
    Perm {
        mode: u32,
        how: char,
    },
    Access(u32),
    Print(u8),
    Printf(String),
    Delete,
    Exec {
        argv: Vec<String>,
        batch: Option<usize>,
    },
    Prune,
    Quit,
}

/// A global option given in the expression.
#[derive(Default)]
struct Globals {
    min_depth: usize,
    max_depth: Option<usize>,
    depth_first: bool,
}

struct Parser<'a> {
    args: &'a [String],
    at: usize,
    globals: Globals,
    has_action: bool,
    batches: usize,
    /// Terms parsed: the tree's depth is at most this.
    terms: usize,
}

/// The most terms (tests, actions, operators) an expression may have: its
/// tree, evaluated recursively, is never deeper.
const MAX_TERMS: usize = 4096;

type Parsed<T> = Result<T, String>;

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.at).map(String::as_str)
    }

    fn value(&mut self, primary: &str) -> Parsed<String> {
        let value = self.args.get(self.at).cloned().ok_or_else(|| format!("missing argument to `{primary}'"))?;
        self.at += 1;
        Ok(value)
    }

    fn comma(&mut self) -> Parsed<Node> {
        let mut left = self.or()?;
        while self.peek() == Some(",") {
            self.at += 1;
            left = Node::Comma(Box::new(left), Box::new(self.or()?));
        }
        Ok(left)
    }

    fn or(&mut self) -> Parsed<Node> {
        let mut left = self.and()?;
        while matches!(self.peek(), Some("-o" | "-or")) {
            self.at += 1;
            left = Node::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Parsed<Node> {
        let mut left = self.unary()?;
        loop {
            match self.peek() {
                None | Some(")" | "-o" | "-or" | ",") => return Ok(left),
                Some("-a" | "-and") => self.at += 1,
                _ => {}
            }
            left = Node::And(Box::new(left), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Parsed<Node> {
        self.terms += 1;
        if self.terms > MAX_TERMS || crate::shell::stack::too_deep() {
            return Err(format!("expression too long or nested too deeply (more than {MAX_TERMS} terms)"));
        }
        let Some(token) = self.peek().map(str::to_string) else {
            return Err("expected an expression".to_string());
        };
        self.at += 1;
        match token.as_str() {
            "!" | "-not" => Ok(Node::Not(Box::new(self.unary()?))),
            "(" => {
                let inner = self.comma()?;
                if self.peek() != Some(")") {
                    return Err(
                        "invalid expression; I was expecting to find a ')' somewhere but did not see one.".to_string()
                    );
                }
                self.at += 1;
                Ok(inner)
            }
            ")" => Err("invalid expression; you have too many ')'".to_string()),
            _ => self.primary(&token),
        }
    }

    fn primary(&mut self, token: &str) -> Parsed<Node> {
        let node = match token {
            "-true" => Node::Const(true),
            "-false" => Node::Const(false),
            "-name" | "-iname" => Node::Name { pattern: self.value(token)?.into_bytes(), fold: token == "-iname" },
            "-path" | "-wholename" | "-ipath" | "-iwholename" => {
                Node::Path { pattern: self.value(token)?.into_bytes(), fold: token.starts_with("-i") }
            }
            "-lname" | "-ilname" => {
                Node::LinkName { pattern: self.value(token)?.into_bytes(), fold: token == "-ilname" }
            }
            "-regex" | "-iregex" => {
                let pattern = self.value(token)?;
                let translated = emacs_to_regex(&pattern);
                let flags = if token == "-iregex" { "(?i-u)" } else { "(?-u)" };
                let regex = regex::bytes::Regex::new(&format!("{flags}^(?:{translated})$"))
                    .map_err(|_| format!("invalid regular expression {}", super::quote(&pattern)))?;
                Node::Regex(regex)
            }
            "-regextype" => {
                self.value(token)?;
                Node::Const(true)
            }
            "-type" | "-xtype" => {
                let value = self.value(token)?;
                let kinds: Vec<char> = value.split(',').filter_map(|part| part.chars().next()).collect();
                if value.split(',').any(|part| part.len() != 1 || !"fdlbcpsD".contains(part)) || kinds.is_empty() {
                    return Err(format!("Unknown argument to {token}: {value}"));
                }
                Node::Type(kinds)
            }
            "-empty" => Node::Empty,
            "-size" => {
                let value = self.value(token)?;
                parse_size(&value).ok_or_else(|| format!("invalid -size type `{value}'"))?
            }
            "-newer" => Node::NewerThan(self.value(token)?),
            "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime" | "-cmin" => {
                let value = self.value(token)?;
                let (compare, digits) = split_compare(&value);
                let count = digits.parse::<i64>().map_err(|_| format!("invalid argument `{value}' to `{token}'"))?;
                Node::Age { compare, count, unit: if token.ends_with("min") { 60 } else { 86_400 } }
            }
            "-perm" => {
                let value = self.value(token)?;
                let (how, digits) = match value.as_bytes().first() {
                    Some(b'-') => ('-', &value[1..]),
                    Some(b'/') => ('/', &value[1..]),
                    _ => ('=', value.as_str()),
                };
                let mode = u32::from_str_radix(digits, 8)
                    .ok()
                    .or_else(|| super::chmod::perm_mode(digits))
                    .ok_or_else(|| format!("invalid mode {}", super::quote(&value)))?;
                Node::Perm { mode, how }
            }
            "-readable" => Node::Access(0o444),
            "-writable" => Node::Access(0o222),
            "-executable" => Node::Access(0o111),
            "-print" => {
                self.has_action = true;
                Node::Print(b'\n')
            }
            "-print0" => {
                self.has_action = true;
                Node::Print(0)
            }
            "-printf" => {
                self.has_action = true;
                Node::Printf(self.value(token)?)
            }
            "-delete" => {
                self.has_action = true;
                self.globals.depth_first = true;
                Node::Delete
            }
            "-exec" => {
                self.has_action = true;
                let mut argv = Vec::new();
                loop {
                    let Some(arg) = self.args.get(self.at) else {
                        return Err("missing argument to `-exec'".to_string());
                    };
                    self.at += 1;
                    if arg == ";" {
                        break;
                    }
                    if arg == "+" && argv.last().is_some_and(|last: &String| last == "{}") {
                        argv.pop();
                        self.batches += 1;
                        if argv.is_empty() {
                            return Err("missing argument to `-exec'".to_string());
                        }
                        return Ok(Node::Exec { argv, batch: Some(self.batches - 1) });
                    }
                    argv.push(arg.clone());
                }
                if argv.is_empty() {
                    return Err("missing argument to `-exec'".to_string());
                }
                Node::Exec { argv, batch: None }
            }
            "-prune" => Node::Prune,
            "-quit" => Node::Quit,
            "-maxdepth" | "-mindepth" => {
                let value = self.value(token)?;
                let depth = value.parse::<usize>().map_err(|_| {
                    format!("Expected a positive decimal integer argument to {token}, but got {}", super::quote(&value))
                })?;
                if token == "-maxdepth" {
                    self.globals.max_depth = Some(depth);
                } else {
                    self.globals.min_depth = depth;
                }
                Node::Const(true)
            }
            "-depth" | "-d" => {
                self.globals.depth_first = true;
                Node::Const(true)
            }
            "-xdev"
            | "-mount"
            | "-noleaf"
            | "-ignore_readdir_race"
            | "-noignore_readdir_race"
            | "-follow"
            | "-nowarn"
            | "-warn" => Node::Const(true),
            _ if token.starts_with('-') && token.len() > 1 => return Err(format!("unknown predicate `{token}'")),
            _ => return Err(format!("paths must precede expression: `{token}'")),
        };
        Ok(node)
    }
}

/// Replaces each `-newer FILE` with FILE's modification time.
fn resolve_newer(ctx: &mut Context<'_>, node: &mut Node) -> Result<(), String> {
    match node {
        Node::NewerThan(path) => {
            let meta = ctx
                .storage
                .stat(&ctx.path(path))
                .map_err(|error| format!("{}: {}", super::quote(path), error_reason(&error)))?;
            *node = Node::Newer(meta.modified);
            Ok(())
        }
        Node::And(left, right) | Node::Or(left, right) | Node::Comma(left, right) => {
            resolve_newer(ctx, left)?;
            resolve_newer(ctx, right)
        }
        Node::Not(inner) => resolve_newer(ctx, inner),
        _ => Ok(()),
    }
}

fn split_compare(text: &str) -> (i8, &str) {
    match text.as_bytes().first() {
        Some(b'+') => (1, &text[1..]),
        Some(b'-') => (-1, &text[1..]),
        _ => (0, text),
    }
}

fn parse_size(text: &str) -> Option<Node> {
    let (compare, rest) = split_compare(text);
    let (digits, unit) = match rest.as_bytes().last()? {
        b'c' => (&rest[..rest.len() - 1], 1),
        b'w' => (&rest[..rest.len() - 1], 2),
        b'b' => (&rest[..rest.len() - 1], 512),
        b'k' => (&rest[..rest.len() - 1], 1024),
        b'M' => (&rest[..rest.len() - 1], 1 << 20),
        b'G' => (&rest[..rest.len() - 1], 1 << 30),
        _ => (rest, 512),
    };
    Some(Node::Size { compare, count: digits.parse().ok()?, unit })
}

/// GNU find's default (emacs) regex syntax in the regex crate's: `\(`,
/// `\)`, `\|`, `\{`, `\}` are operators; bare `(`, `)`, `|`, `{`, `}` are literal.
fn emacs_to_regex(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(op @ ('(' | ')' | '|' | '{' | '}')) => out.push(op),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push_str("\\\\"),
            },
            '(' | ')' | '|' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Shell-style pattern matching as fnmatch without flags: `*` and `?` match
/// any byte, `/` and a leading `.` included.
pub(super) fn fnmatch(pattern: &[u8], text: &[u8], fold: bool) -> bool {
    let eq = |a: u8, b: u8| if fold { a.eq_ignore_ascii_case(&b) } else { a == b };
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() {
            match pattern[p] {
                b'*' => {
                    star = Some((p, t));
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    t += 1;
                    continue;
                }
                b'[' => {
                    if let Some((matched, next)) = bracket(&pattern[p..], text[t], fold) {
                        if matched {
                            p += next;
                            t += 1;
                            continue;
                        }
                    } else if eq(b'[', text[t]) {
                        p += 1;
                        t += 1;
                        continue;
                    }
                }
                b'\\' if p + 1 < pattern.len() => {
                    if eq(pattern[p + 1], text[t]) {
                        p += 2;
                        t += 1;
                        continue;
                    }
                }
                byte => {
                    if eq(byte, text[t]) {
                        p += 1;
                        t += 1;
                        continue;
                    }
                }
            }
        }
        match star {
            Some((star_p, star_t)) => {
                p = star_p + 1;
                t = star_t + 1;
                star = Some((star_p, star_t + 1));
            }
            None => return false,
        }
    }
    pattern[p..].iter().all(|&byte| byte == b'*')
}

/// Matches one byte against a bracket expression at the start of
/// `pattern`; returns (matched, the expression's length), or `None` when
/// the `[` is not closed.
fn bracket(pattern: &[u8], byte: u8, fold: bool) -> Option<(bool, usize)> {
    let mut at = 1;
    let negate = matches!(pattern.get(at), Some(b'!' | b'^'));
    if negate {
        at += 1;
    }
    let folded = |b: u8| if fold { b.to_ascii_lowercase() } else { b };
    let byte_f = folded(byte);
    let mut matched = false;
    let mut first = true;
    loop {
        let c = *pattern.get(at)?;
        if c == b']' && !first {
            at += 1;
            break;
        }
        first = false;
        if c == b'[' && pattern.get(at + 1) == Some(&b':') {
            let rest = &pattern[at + 2..];
            if let Some(end) = rest.windows(2).position(|w| w == b":]") {
                let class = &rest[..end];
                matched |= match class {
                    b"alpha" => byte.is_ascii_alphabetic(),
                    b"digit" => byte.is_ascii_digit(),
                    b"alnum" => byte.is_ascii_alphanumeric(),
                    b"upper" => byte.is_ascii_uppercase() || (fold && byte.is_ascii_alphabetic()),
                    b"lower" => byte.is_ascii_lowercase() || (fold && byte.is_ascii_alphabetic()),
                    b"space" => byte.is_ascii_whitespace() || byte == 0x0b,
                    b"blank" => byte == b' ' || byte == b'\t',
                    b"punct" => byte.is_ascii_punctuation(),
                    b"xdigit" => byte.is_ascii_hexdigit(),
                    b"cntrl" => byte.is_ascii_control(),
                    b"print" => (0x20..0x7f).contains(&byte),
                    b"graph" => (0x21..0x7f).contains(&byte),
                    _ => false,
                };
                at += 2 + end + 2;
                continue;
            }
        }
        let (low, width) = if c == b'\\' { (*pattern.get(at + 1)?, 2) } else { (c, 1) };
        at += width;
        if pattern.get(at) == Some(&b'-') && pattern.get(at + 1).is_some_and(|&next| next != b']') {
            let high = *pattern.get(at + 1)?;
            at += 2;
            matched |= (folded(low)..=folded(high)).contains(&byte_f) || (low..=high).contains(&byte);
        } else {
            matched |= folded(low) == byte_f;
        }
    }
    Some((matched != negate, at))
}

/// One path the walk visits.
struct Entry<'a> {
    shown: &'a str,
    absolute: &'a str,
    meta: &'a Metadata,
    depth: usize,
    /// The root this entry was found under, as given (for `%P`).
    root: &'a str,
}

struct Walk {
    globals: Globals,
    status: i32,
    quit: bool,
    prune: bool,
    batches: Vec<(Vec<String>, Vec<String>, usize)>,
    now: i64,
    follow: bool,
    /// Whether the expression reads more of an entry than its name and kind.
    needs_stat: bool,
    /// With `-L`: the real path and shown path of each directory being
    /// walked, to stop at a symlink loop.
    ancestors: Vec<(String, String)>,
}

/// How many bytes of paths one `-exec … +` run takes.
const MAX_BATCH: usize = 128 * 1024;

pub(super) fn find(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut at = 0;
    let mut follow = false;
    while let Some(arg) = args.get(at) {
        match arg.as_str() {
            "-H" | "-P" => {}
            "-L" => follow = true,
            "-O0" | "-O1" | "-O2" | "-O3" => {}
            _ => break,
        }
        at += 1;
    }
    let mut roots = Vec::new();
    while let Some(arg) = args.get(at) {
        if arg.starts_with('-') && arg.len() > 1 || arg == "(" || arg == "!" {
            break;
        }
        roots.push(arg.clone());
        at += 1;
    }
    if roots.is_empty() {
        roots.push(".".to_string());
    }
    let mut parser =
        Parser { args: &args[at..], at: 0, globals: Globals::default(), has_action: false, batches: 0, terms: 0 };
    let parsed = if parser.args.is_empty() {
        Ok(Node::Const(true))
    } else {
        parser.comma().and_then(|node| match parser.peek() {
            None => Ok(node),
            Some(")") => Err("invalid expression; you have too many ')'".to_string()),
            Some(other) => Err(format!("paths must precede expression: `{other}'")),
        })
    };
    let mut expression = match parsed {
        Ok(node) => node,
        Err(message) => {
            ctx.error(message)?;
            return Ok(1);
        }
    };
    if let Err(message) = resolve_newer(ctx, &mut expression) {
        ctx.error(message)?;
        return Ok(1);
    }
    if !parser.has_action {
        expression = Node::And(Box::new(expression), Box::new(Node::Print(b'\n')));
    }
    let mut walk = Walk {
        globals: parser.globals,
        status: 0,
        quit: false,
        prune: false,
        batches: Vec::new(),
        now: epoch_seconds(SystemTime::now()),
        follow,
        needs_stat: needs_stat(&expression),
        ancestors: Vec::new(),
    };
    collect_batches(&expression, &mut walk.batches);
    for root in &roots {
        if walk.quit {
            break;
        }
        let absolute = ctx.path(root);
        let meta = if follow { ctx.storage.stat(&absolute) } else { ctx.storage.lstat(&absolute) };
        match meta {
            Ok(meta) => visit(ctx, &expression, &mut walk, root, &absolute, meta, 0, root)?,
            Err(error) => {
                ctx.error(format_args!("{}: {}", super::quote(root), error_reason(&error)))?;
                walk.status = 1;
            }
        }
    }
    for index in 0..walk.batches.len() {
        flush_batch(ctx, &mut walk, index)?;
    }
    Ok(walk.status)
}

/// Registers each `-exec … {} +` in the order the parser numbered them.
fn collect_batches(node: &Node, batches: &mut Vec<(Vec<String>, Vec<String>, usize)>) {
    match node {
        Node::And(left, right) | Node::Or(left, right) | Node::Comma(left, right) => {
            collect_batches(left, batches);
            collect_batches(right, batches);
        }
        Node::Not(inner) => collect_batches(inner, batches),
        Node::Exec { argv, batch: Some(index) } => {
            if batches.len() <= *index {
                batches.resize(*index + 1, (Vec::new(), Vec::new(), 0));
            }
            batches[*index].0 = argv.clone();
        }
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn visit(
    ctx: &mut Context<'_>,
    expression: &Node,
    walk: &mut Walk,
    shown: &str,
    absolute: &str,
    meta: Metadata,
    depth: usize,
    root: &str,
) -> Result<(), LimitHit> {
    (ctx.check)()?;
    let entry = Entry { shown, absolute, meta: &meta, depth, root };
    let in_range = depth >= walk.globals.min_depth;
    walk.prune = false;
    if !walk.globals.depth_first && in_range {
        evaluate(ctx, expression, walk, &entry)?;
    }
    let pruned = walk.prune && !walk.globals.depth_first;
    let descend = meta.kind == FileKind::Directory
        && !pruned
        && !walk.quit
        && walk.globals.max_depth.is_none_or(|max| depth < max);
    let mut real = None;
    if descend && walk.follow {
        let path = super::canonicalize(ctx, absolute, super::Canon::Missing).unwrap_or_default();
        if let Some((_, earlier)) = walk.ancestors.iter().find(|(seen, _)| *seen == path) {
            let message = format!(
                "File system loop detected; {} is part of the same file system loop as {}.",
                super::quote(shown),
                super::quote(earlier)
            );
            ctx.error(message)?;
            walk.status = 1;
            return Ok(());
        }
        walk.ancestors.push((path, shown.to_string()));
        real = Some(());
    }
    if descend {
        match list(ctx, walk, absolute) {
            Ok(entries) => {
                for (name, child_meta) in entries {
                    if walk.quit {
                        break;
                    }
                    let child_abs = child(absolute, &name);
                    let child_meta = match child_meta {
                        Some(child_meta) => child_meta,
                        None => match ctx.storage.stat(&child_abs).or_else(|_| ctx.storage.lstat(&child_abs)) {
                            Ok(child_meta) => child_meta,
                            Err(_) => continue,
                        },
                    };
                    visit(ctx, expression, walk, &child(shown, &name), &child_abs, child_meta, depth + 1, root)?;
                }
            }
            Err(error) => {
                ctx.error(format_args!("{}: {}", super::quote(shown), error_reason(&error)))?;
                walk.status = 1;
            }
        }
    }
    if real.is_some() {
        walk.ancestors.pop();
    }
    if walk.globals.depth_first && in_range && !walk.quit {
        evaluate(ctx, expression, walk, &entry)?;
    }
    Ok(())
}

/// A directory's entries for the walk, each with what the expression
/// needs to know of it: the kind from the listing alone when no test reads
/// more (`-name`, `-type`, `-path`: no stat per entry, as GNU uses
/// `d_type`), else each entry's `lstat` from one
/// [`list_metadata`](crate::storage::Storage::list_metadata) pass. `None`
/// (with `-L`, for every entry): `stat` it, following symlinks.
type Listed = Vec<(String, Option<Metadata>)>;

fn list(ctx: &Context<'_>, walk: &Walk, absolute: &str) -> Result<Listed, crate::storage::StorageError> {
    if walk.follow {
        return Ok(ctx.storage.list(absolute)?.into_iter().map(|entry| (entry.name, None)).collect());
    }
    if walk.needs_stat {
        return Ok(ctx
            .storage
            .list_metadata(absolute)?
            .into_iter()
            .map(|(entry, meta)| (entry.name, Some(meta)))
            .collect());
    }
    Ok(ctx
        .storage
        .list(absolute)?
        .into_iter()
        .map(|entry| {
            let meta = Metadata { kind: entry.kind, size: 0, mode: 0, modified: SystemTime::UNIX_EPOCH };
            (entry.name, Some(meta))
        })
        .collect())
}

/// Whether evaluating `node` reads more of an entry than its name and kind.
fn needs_stat(node: &Node) -> bool {
    match node {
        Node::And(left, right) | Node::Or(left, right) | Node::Comma(left, right) => {
            needs_stat(left) || needs_stat(right)
        }
        Node::Not(inner) => needs_stat(inner),
        Node::Empty
        | Node::Size { .. }
        | Node::Newer(_)
        | Node::NewerThan(_)
        | Node::Age { .. }
        | Node::Perm { .. }
        | Node::Access(_)
        | Node::Printf(_) => true,
        Node::Const(_)
        | Node::Name { .. }
        | Node::Path { .. }
        | Node::LinkName { .. }
        | Node::Regex(_)
        | Node::Type(_)
        | Node::Print(_)
        | Node::Delete
        | Node::Exec { .. }
        | Node::Prune
        | Node::Quit => false,
    }
}

fn compare(compare: i8, value: i128, count: i128) -> bool {
    match compare {
        1 => value > count,
        -1 => value < count,
        _ => value == count,
    }
}

fn evaluate(ctx: &mut Context<'_>, node: &Node, walk: &mut Walk, entry: &Entry<'_>) -> Result<bool, LimitHit> {
    let meta = entry.meta;
    Ok(match node {
        Node::And(left, right) => evaluate(ctx, left, walk, entry)? && !walk.quit && evaluate(ctx, right, walk, entry)?,
        Node::Or(left, right) => {
            evaluate(ctx, left, walk, entry)? || (!walk.quit && evaluate(ctx, right, walk, entry)?)
        }
        Node::Comma(left, right) => {
            evaluate(ctx, left, walk, entry)?;
            !walk.quit && evaluate(ctx, right, walk, entry)?
        }
        Node::Not(inner) => !evaluate(ctx, inner, walk, entry)?,
        Node::Const(value) => *value,
        Node::Name { pattern, fold } => fnmatch(pattern, name_of(entry.shown).as_bytes(), *fold),
        Node::Path { pattern, fold } => fnmatch(pattern, entry.shown.as_bytes(), *fold),
        Node::LinkName { pattern, fold } => {
            meta.kind == FileKind::Symlink
                && ctx.storage.readlink(entry.absolute).is_ok_and(|target| fnmatch(pattern, target.as_bytes(), *fold))
        }
        Node::Regex(regex) => regex.is_match(entry.shown.as_bytes()),
        Node::Type(kinds) => kinds.iter().any(|kind| match kind {
            'f' => meta.kind == FileKind::File,
            'd' => meta.kind == FileKind::Directory,
            'l' => meta.kind == FileKind::Symlink,
            _ => false,
        }),
        Node::Empty => match meta.kind {
            FileKind::File => meta.size == 0,
            FileKind::Directory => ctx.storage.list(entry.absolute).is_ok_and(|entries| entries.is_empty()),
            FileKind::Symlink => false,
        },
        Node::Size { compare: how, count, unit } => {
            let size = shown_size(meta);
            compare(*how, i128::from(size.div_ceil(*unit)), i128::from(*count))
        }
        Node::Newer(time) => meta.modified > *time,
        Node::NewerThan(_) => false,
        Node::Age { compare: how, count, unit } => {
            let age = (walk.now - epoch_seconds(meta.modified)).max(0);
            let units = if *unit == 60 { (age + 59) / 60 } else { age / unit };
            compare(*how, i128::from(units), i128::from(*count))
        }
        Node::Perm { mode, how } => {
            let bits = meta.mode & 0o7777;
            match how {
                '-' => bits & mode == *mode,
                '/' => *mode == 0 || bits & mode != 0,
                _ => bits == *mode,
            }
        }
        Node::Access(mask) => meta.mode & mask != 0,
        Node::Print(end) => {
            let mut line = entry.shown.as_bytes().to_vec();
            line.push(*end);
            ctx.stdout.write(&line)?;
            true
        }
        Node::Printf(format) => {
            let text = printf(ctx, format, entry);
            ctx.stdout.write(&text)?;
            true
        }
        Node::Delete => {
            if entry.shown == "." {
                return Ok(true);
            }
            match ctx.storage.remove(entry.absolute, false) {
                Ok(()) => true,
                Err(error) => {
                    ctx.error(format_args!("cannot delete {}: {}", super::quote(entry.shown), error_reason(&error)))?;
                    walk.status = 1;
                    false
                }
            }
        }
        Node::Exec { argv, batch: None } => {
            let argv: Vec<String> = argv.iter().map(|arg| arg.replace("{}", entry.shown)).collect();
            ctx.runner.run(&argv, b"", ctx.stdout, ctx.stderr)? == 0
        }
        Node::Exec { batch: Some(index), .. } => {
            let index = *index;
            walk.batches[index].1.push(entry.shown.to_string());
            walk.batches[index].2 += entry.shown.len() + 1;
            if walk.batches[index].2 >= MAX_BATCH {
                flush_batch(ctx, walk, index)?;
            }
            true
        }
        Node::Prune => {
            walk.prune = true;
            true
        }
        Node::Quit => {
            walk.quit = true;
            true
        }
    })
}

fn flush_batch(ctx: &mut Context<'_>, walk: &mut Walk, index: usize) -> Result<(), LimitHit> {
    let (command, paths, _) = &mut walk.batches[index];
    if paths.is_empty() {
        return Ok(());
    }
    let argv: Vec<String> = command.iter().cloned().chain(paths.drain(..)).collect();
    walk.batches[index].2 = 0;
    if ctx.runner.run(&argv, b"", ctx.stdout, ctx.stderr)? != 0 {
        walk.status = 1;
    }
    Ok(())
}

/// The last component of a shown path: `d/` → `d`, `/` → `/`.
fn name_of(shown: &str) -> &str {
    super::base_name(shown)
}

/// `-printf`: `%p %P %f %h %s %d %y %m %M %l %%` and `\n \t \0 \\`.
fn printf(ctx: &Context<'_>, format: &str, entry: &Entry<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = format.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        at += 1;
        match byte {
            b'\\' if at < bytes.len() => {
                let escaped = bytes[at];
                at += 1;
                match escaped {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'0' => out.push(0),
                    b'\\' => out.push(b'\\'),
                    b'c' => return out,
                    other => out.extend_from_slice(&[b'\\', other]),
                }
            }
            b'%' if at < bytes.len() => {
                let directive = bytes[at];
                at += 1;
                let text = match directive {
                    b'%' => "%".to_string(),
                    b'p' => entry.shown.to_string(),
                    b'P' => {
                        let rest = entry.shown.strip_prefix(entry.root).unwrap_or(entry.shown);
                        rest.trim_start_matches('/').to_string()
                    }
                    b'f' => name_of(entry.shown).to_string(),
                    b'h' => match entry.shown.rfind('/') {
                        Some(0) => "/".to_string(),
                        Some(cut) => entry.shown[..cut].to_string(),
                        None => ".".to_string(),
                    },
                    b's' => shown_size(entry.meta).to_string(),
                    b'd' => entry.depth.to_string(),
                    b'y' => match entry.meta.kind {
                        FileKind::File => "f",
                        FileKind::Directory => "d",
                        FileKind::Symlink => "l",
                    }
                    .to_string(),
                    b'm' => format!("{:o}", entry.meta.mode & 0o7777),
                    b'M' => super::ls::mode_string(entry.meta),
                    b'l' => ctx.storage.readlink(entry.absolute).unwrap_or_default(),
                    b'T' | b't' => epoch_seconds(entry.meta.modified).to_string(),
                    other => format!("%{}", other as char),
                };
                out.extend_from_slice(text.as_bytes());
            }
            _ => out.push(byte),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::storage;
    use super::fnmatch;
    use crate::shell::command::run_for_test as run_with_echo;
    use crate::storage::{MemoryStorage, Storage};

    fn fixture() -> MemoryStorage {
        let fs = storage(&[("/d/f.txt", "1\n"), ("/d/s/G.TXT", "2\n"), ("/e/", ""), ("/.h", "")]);
        fs.symlink("d", "/ld").unwrap();
        fs
    }

    fn find(fs: &MemoryStorage, args: &[&str]) -> (i32, String, String) {
        run_with_echo(fs, "find", args, "")
    }

    fn out(fs: &MemoryStorage, args: &[&str]) -> String {
        find(fs, args).1
    }

    #[test]
    fn walks_in_name_order_with_paths_as_given() {
        let fs = fixture();
        assert_eq!(out(&fs, &[]), ".\n./.h\n./d\n./d/f.txt\n./d/s\n./d/s/G.TXT\n./e\n./ld\n");
        assert_eq!(out(&fs, &[".", "-name", "*.txt"]), "./d/f.txt\n");
        assert_eq!(out(&fs, &["d", "-iname", "*.txt", "-o", "-type", "d"]), "d\nd/f.txt\nd/s\nd/s/G.TXT\n");
        assert_eq!(out(&fs, &["d/", "-name", "s"]), "d/s\n");
        assert_eq!(out(&fs, &[".", "-type", "f", "-print0"]), "./.h\0./d/f.txt\0./d/s/G.TXT\0");
        assert_eq!(out(&fs, &[".", "-maxdepth", "1", "-type", "d"]), ".\n./d\n./e\n");
        assert_eq!(out(&fs, &[".", "-mindepth", "2"]), "./d/f.txt\n./d/s\n./d/s/G.TXT\n");
        assert_eq!(out(&fs, &[".", "-empty"]), "./.h\n./e\n");
        assert_eq!(out(&fs, &[".", "-path", "./d/*", "-not", "-name", "s"]), "./d/f.txt\n./d/s/G.TXT\n");
        assert_eq!(out(&fs, &[".", "(", "-name", "f.txt", "-o", "-name", "e", ")", "-print"]), "./d/f.txt\n./e\n");
        assert_eq!(out(&fs, &[".", "-size", "-1k"]), "./.h\n");
        assert_eq!(out(&fs, &["d", "-name", "s", "-prune", "-o", "-print"]), "d\nd/f.txt\n");
        assert_eq!(out(&fs, &[".", "-type", "l"]), "./ld\n");
        assert_eq!(out(&fs, &["-L", "ld", "-type", "f"]), "ld/f.txt\nld/s/G.TXT\n");
        fs.symlink("..", "/d/s/up").unwrap();
        assert_eq!(
            find(&fs, &["-L", "d", "-name", "G*"]),
            (
                1,
                "d/s/G.TXT\n".into(),
                "find: File system loop detected; 'd/s/up' is part of the same file system loop as 'd'.\n".into()
            )
        );
        fs.remove("/d/s/up", false).unwrap();
        assert_eq!(out(&fs, &["d", "-regex", r".*\.\(txt\|TXT\)"]), "d/f.txt\nd/s/G.TXT\n");
        assert_eq!(out(&fs, &["d", "-type", "f", "-printf", "%f %P %s %d\\n"]), "f.txt f.txt 2 1\nG.TXT s/G.TXT 2 2\n");
        assert_eq!(out(&fs, &["d", "-name", "*.txt", "-quit", "-o", "-print"]), "d\n");
        assert_eq!(out(&fs, &["d", "-newer", "d/s/G.TXT"]), "");
        assert_eq!(
            find(&fs, &["d", "-newer", "nope"]),
            (1, "".into(), "find: 'nope': No such file or directory\n".into())
        );
    }

    #[test]
    fn runs_commands_and_deletes() {
        let fs = fixture();
        assert_eq!(out(&fs, &["d", "-exec", "echo", "X", "{}", ";"]), "X d\nX d/f.txt\nX d/s\nX d/s/G.TXT\n");
        assert_eq!(out(&fs, &["d", "-exec", "echo", "{}", "+"]), "d d/f.txt d/s d/s/G.TXT\n");
        assert_eq!(find(&fs, &[".", "-exec", "false", "{}", "+"]).0, 1);
        assert_eq!(out(&fs, &["d", "-type", "f", "-exec", "cat", "{}", ";"]), "1\n2\n");
        assert_eq!(
            find(&fs, &["d", "-depth", "-name", "s", "-delete"]),
            (1, "".into(), "find: cannot delete 'd/s': Directory not empty\n".into())
        );
        assert_eq!(find(&fs, &["d/s", "-delete"]), (0, "".into(), "".into()));
        assert!(fs.stat("/d/s").is_err());
        assert_eq!(out(&fs, &["d"]), "d\nd/f.txt\n");
    }

    #[test]
    fn reports_errors_like_gnu() {
        let fs = fixture();
        assert_eq!(find(&fs, &["nope"]), (1, "".into(), "find: 'nope': No such file or directory\n".into()));
        assert_eq!(find(&fs, &[".", "-bogus"]), (1, "".into(), "find: unknown predicate `-bogus'\n".into()));
        assert_eq!(find(&fs, &[".", "-type", "q"]), (1, "".into(), "find: Unknown argument to -type: q\n".into()));
        assert_eq!(
            find(&fs, &["-name", "x", "-exec", "echo"]),
            (1, "".into(), "find: missing argument to `-exec'\n".into())
        );
        assert_eq!(find(&fs, &["-name"]), (1, "".into(), "find: missing argument to `-name'\n".into()));
        assert_eq!(
            find(&fs, &[".", "-name", "a", "b"]),
            (1, "".into(), "find: paths must precede expression: `b'\n".into())
        );
    }

    #[test]
    fn patterns_match_like_fnmatch() {
        assert!(fnmatch(b"*.txt", b".hidden.txt", false));
        assert!(fnmatch(b"a?c", b"abc", false));
        assert!(fnmatch(b"[a-c]x", b"bx", false));
        assert!(fnmatch(b"[!a-c]x", b"dx", false));
        assert!(fnmatch(b"[[:digit:]]*", b"1abc", false));
        assert!(fnmatch(b"*.TXT", b"a.txt", true));
        assert!(!fnmatch(b"*.txt", b"a.txt.bak", false));
        assert!(fnmatch(b"./d/*", b"./d/s/x", false));
        assert!(fnmatch(b"\\*", b"*", false));
        assert!(fnmatch(b"[", b"[", false));
    }
}
