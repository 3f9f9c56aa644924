//! `grep`, `egrep` and `fgrep` (GNU grep 3.8, C locale) over the storage.
//!
//! The pattern is searched over a whole file at once (no per-line regex
//! runs): the regex is built so that no match crosses a newline, and each
//! match is widened to its line. That keeps `grep -c` over megabytes about
//! as fast as GNU grep.
//!
//! Differences from GNU grep (for docs/SHELL.md):
//! - leftmost-first alternation and no back-references (see `regex_syntax`);
//! - a file is binary when it holds a NUL byte anywhere (GNU looks at the
//!   buffer it has read so far); then a match prints
//!   `grep: NAME: binary file matches` on stderr instead of lines;
//! - `-r` lists directories in sorted order (GNU uses directory order);
//! - with `-o`, context options (`-A`/`-B`/`-C`) are ignored;
//! - `-P` patterns use the `regex` crate's syntax (Perl's classes, flags,
//!   lazy repetition, named groups), without look-around, back-references,
//!   `\K` or atomic groups: those are refused with a message, status 2;
//! - `-z` reads the whole input before it searches; `-T` pads numbers for
//!   stdin as GNU does for a pipe (19 digits) even when it is a file.

use regex::bytes::{Regex, RegexBuilder};

use super::options::{Arg, HasArg, Parser, Spec};
use super::regex_syntax::{literal, translate, Dialect};
use crate::shell::command::{CommandFn, Context, ReadFailed, Reader};
use crate::shell::LimitHit;
use crate::storage::{FileKind, StorageError};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("grep", grep), ("egrep", egrep), ("fgrep", fgrep)];

const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

/// `grep --help`, shortened to what this grep does.
const HELP: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl-like regular expressions (Rust regex syntax)
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Output control: -m NUM, -b, -n, --line-buffered, -H, -h, --label=LABEL,
  -o, -q, --binary-files=TYPE, -a, -I, -d ACTION, -D ACTION, -r, -R,
  --include=GLOB, --exclude=GLOB, --exclude-from=FILE, --exclude-dir=GLOB,
  -L, -l, -c, -T, -Z
Context control: -B NUM, -A NUM, -C NUM, -NUM, --group-separator=SEP,
  --no-group-separator, --color[=WHEN], -U
";

/// How the pattern is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Basic,
    Extended,
    Fixed,
    /// `-P`: the `regex` crate's Perl-like syntax, matched line by line.
    Perl,
}

/// `-d ACTION`: what a directory operand does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Directories {
    Read,
    Recurse,
    Skip,
}

/// Everything the command line chose.
#[derive(Debug)]
struct Options {
    syntax: Syntax,
    patterns: Vec<String>,
    pattern_given: bool,
    ignore_case: bool,
    invert: bool,
    word: bool,
    line: bool,
    count: bool,
    files_with_matches: bool,
    files_without_match: bool,
    line_number: bool,
    byte_offset: bool,
    with_filename: Option<bool>,
    only_matching: bool,
    quiet: bool,
    no_messages: bool,
    recursive: bool,
    dereference: bool,
    text: bool,
    /// `-I`: a binary file is taken as matching nothing.
    skip_binary: bool,
    include: Vec<String>,
    exclude: Vec<String>,
    exclude_dir: Vec<String>,
    after: usize,
    before: usize,
    /// `-A`, `-B` or `-C` given (even 0): groups get `--` separators.
    context_given: bool,
    max_count: Option<u64>,
    /// `-T`: a tab after the prefixes, numbers padded to a common width.
    initial_tab: bool,
    /// `--label`: the name stdin is shown as.
    label: Option<String>,
    /// `-Z`: a NUL after each file name instead of `:` or a newline.
    null_after_name: bool,
    /// `-z`: records end in NUL bytes, not newlines.
    null_data: bool,
    /// `--group-separator` (`None`: `--no-group-separator`).
    group_separator: Option<String>,
    directories: Directories,
}

fn grep(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    run(ctx, args, Syntax::Basic)
}

fn egrep(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    run(ctx, args, Syntax::Extended)
}

fn fgrep(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    run(ctx, args, Syntax::Fixed)
}

/// A usage error: message (if any) and the usage lines, status 2.
fn usage(ctx: &mut Context<'_>, message: Option<String>) -> Result<i32, LimitHit> {
    if let Some(message) = message {
        ctx.error(message)?;
    }
    ctx.stderr.write_str(USAGE)?;
    Ok(2)
}

/// The options of GNU grep 3.8 (`--help`, `--version` and `-X` aside).
const SPEC: Spec = Spec {
    short: "0123456789A:B:C:D:EFGHIPTUabcd:e:f:hiLlm:noqRrsuvwxyZz",
    // GNU grep's table order, which its ambiguity messages list.
    long: &[
        ("basic-regexp", "G", HasArg::No),
        ("extended-regexp", "E", HasArg::No),
        ("fixed-regexp", "F", HasArg::No),
        ("fixed-strings", "F", HasArg::No),
        ("perl-regexp", "P", HasArg::No),
        ("after-context", "A", HasArg::Yes),
        ("before-context", "B", HasArg::Yes),
        ("binary-files", "binary-files", HasArg::Yes),
        ("byte-offset", "b", HasArg::No),
        ("context", "C", HasArg::Yes),
        ("color", "color", HasArg::Optional),
        ("colour", "color", HasArg::Optional),
        ("count", "c", HasArg::No),
        ("devices", "D", HasArg::Yes),
        ("directories", "d", HasArg::Yes),
        ("exclude", "exclude", HasArg::Yes),
        ("exclude-from", "exclude-from", HasArg::Yes),
        ("exclude-dir", "exclude-dir", HasArg::Yes),
        ("file", "f", HasArg::Yes),
        ("files-with-matches", "l", HasArg::No),
        ("files-without-match", "L", HasArg::No),
        ("group-separator", "group-separator", HasArg::Yes),
        ("help", "help", HasArg::No),
        ("include", "include", HasArg::Yes),
        ("ignore-case", "i", HasArg::No),
        ("no-ignore-case", "no-ignore-case", HasArg::No),
        ("initial-tab", "T", HasArg::No),
        ("label", "label", HasArg::Yes),
        ("line-buffered", "line-buffered", HasArg::No),
        ("line-number", "n", HasArg::No),
        ("line-regexp", "x", HasArg::No),
        ("max-count", "m", HasArg::Yes),
        ("no-filename", "h", HasArg::No),
        ("no-group-separator", "no-group-separator", HasArg::No),
        ("no-messages", "s", HasArg::No),
        ("null", "Z", HasArg::No),
        ("null-data", "z", HasArg::No),
        ("only-matching", "o", HasArg::No),
        ("quiet", "q", HasArg::No),
        ("recursive", "r", HasArg::No),
        ("dereference-recursive", "R", HasArg::No),
        ("regexp", "e", HasArg::Yes),
        ("invert-match", "v", HasArg::No),
        ("silent", "q", HasArg::No),
        ("text", "a", HasArg::No),
        ("binary", "U", HasArg::No),
        ("unix-byte-offsets", "u", HasArg::No),
        ("with-filename", "H", HasArg::No),
        ("word-regexp", "w", HasArg::No),
    ],
};

/// What parsing the command line gave: the options and operands, or a status to exit with.
enum Parsed {
    Run(Box<Options>, Vec<String>),
    Exit(i32),
}

fn parse(ctx: &mut Context<'_>, args: &[String], syntax: Syntax) -> Result<Parsed, LimitHit> {
    let mut o = Options {
        syntax,
        patterns: Vec::new(),
        pattern_given: false,
        ignore_case: false,
        invert: false,
        word: false,
        line: false,
        count: false,
        files_with_matches: false,
        files_without_match: false,
        line_number: false,
        byte_offset: false,
        with_filename: None,
        only_matching: false,
        quiet: false,
        no_messages: false,
        recursive: false,
        dereference: false,
        text: false,
        skip_binary: false,
        include: Vec::new(),
        exclude: Vec::new(),
        exclude_dir: Vec::new(),
        after: 0,
        before: 0,
        context_given: false,
        max_count: None,
        initial_tab: false,
        label: None,
        null_after_name: false,
        null_data: false,
        group_separator: Some("--".to_string()),
        directories: Directories::Read,
    };
    // `-E`, `-F`, `-G`, `-P` once chosen may not change (egrep is `grep -E`).
    let mut matcher = (syntax != Syntax::Basic).then_some(syntax);
    let mut context: Option<usize> = None;
    let (mut after, mut before) = (None, None);
    let mut operands = Vec::new();
    // `-15` is `-C 15`: digits of one element make one number, a new
    // element starts a new one (GNU grep's `prev_digit_optind`).
    let mut digits = String::new();
    let mut digits_element = None;
    let mut parser = Parser::new(&SPEC, args);
    while let Some(arg) = parser.next() {
        let (key, value) = match arg {
            Ok(Arg::Operand(operand)) => {
                operands.push(operand);
                continue;
            }
            Ok(Arg::Opt(key, value)) => (key, value.unwrap_or_default()),
            Err(message) => return usage(ctx, Some(message)).map(Parsed::Exit),
        };
        match key {
            "e" => {
                o.patterns.push(value);
                o.pattern_given = true;
            }
            "f" => {
                if !read_pattern_file(ctx, &value, &mut o.patterns)? {
                    return Ok(Parsed::Exit(2));
                }
                o.pattern_given = true;
            }
            "m" => match parse_count(&value) {
                Some(count) => o.max_count = count,
                None => {
                    ctx.error("invalid max count")?;
                    return Ok(Parsed::Exit(2));
                }
            },
            "A" | "B" | "C" => {
                let Some(n) = parse_context(ctx, &value)? else { return Ok(Parsed::Exit(2)) };
                match key {
                    "A" => after = Some(n),
                    "B" => before = Some(n),
                    _ => context = Some(n),
                }
            }
            _ if key.as_bytes()[0].is_ascii_digit() => {
                if digits_element != Some(parser.element()) {
                    digits.clear();
                }
                digits_element = Some(parser.element());
                digits.push_str(key);
                let Some(n) = parse_context(ctx, &digits)? else { return Ok(Parsed::Exit(2)) };
                context = Some(n);
            }
            "include" => o.include.push(value),
            "exclude" => o.exclude.push(value),
            "exclude-dir" => o.exclude_dir.push(value),
            "E" | "F" | "G" | "P" => {
                let chosen = match key {
                    "E" => Syntax::Extended,
                    "F" => Syntax::Fixed,
                    "G" => Syntax::Basic,
                    _ => Syntax::Perl,
                };
                if matcher.is_some_and(|m| m != chosen) {
                    ctx.error("conflicting matchers specified")?;
                    return Ok(Parsed::Exit(2));
                }
                matcher = Some(chosen);
                o.syntax = chosen;
            }
            "d" => {
                o.directories = match value.as_str() {
                    "read" => Directories::Read,
                    "recurse" => Directories::Recurse,
                    "skip" => Directories::Skip,
                    _ => {
                        let message = format!(
                            "invalid argument '{value}' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'"
                        );
                        // argmatch's failure is grep's usage(EXIT_FAILURE): status 1.
                        usage(ctx, Some(message))?;
                        return Ok(Parsed::Exit(1));
                    }
                }
            }
            "D" if value != "read" && value != "skip" => {
                ctx.error("unknown devices method")?;
                return Ok(Parsed::Exit(2));
            }
            "binary-files" => match value.as_str() {
                "binary" => (o.text, o.skip_binary) = (false, false),
                "text" => (o.text, o.skip_binary) = (true, false),
                "without-match" => (o.text, o.skip_binary) = (false, true),
                _ => {
                    ctx.error("unknown binary-files type")?;
                    return Ok(Parsed::Exit(2));
                }
            },
            "exclude-from" => match ctx.read(&value) {
                Ok(data) => {
                    o.exclude.extend(String::from_utf8_lossy(&data).lines().filter(|l| !l.is_empty()).map(String::from))
                }
                Err(error) => {
                    ctx.storage_error(&value, &error)?;
                    return Ok(Parsed::Exit(2));
                }
            },
            "T" => o.initial_tab = true,
            "Z" => o.null_after_name = true,
            "z" => o.null_data = true,
            "label" => o.label = Some(value),
            "group-separator" => o.group_separator = Some(value),
            "no-group-separator" => o.group_separator = None,
            "u" => ctx.error("warning: --unix-byte-offsets (-u) is obsolete")?,
            "help" => {
                ctx.stdout.write_str(HELP)?;
                return Ok(Parsed::Exit(0));
            }
            "i" | "y" => o.ignore_case = true,
            "no-ignore-case" => o.ignore_case = false,
            "v" => o.invert = true,
            "w" => o.word = true,
            "x" => o.line = true,
            "c" => o.count = true,
            "l" => o.files_with_matches = true,
            "L" => o.files_without_match = true,
            "n" => o.line_number = true,
            "b" => o.byte_offset = true,
            "H" => o.with_filename = Some(true),
            "h" => o.with_filename = Some(false),
            "o" => o.only_matching = true,
            "q" => o.quiet = true,
            "s" => o.no_messages = true,
            "r" => o.directories = Directories::Recurse,
            "R" => {
                o.directories = Directories::Recurse;
                o.dereference = true;
            }
            "a" => o.text = true,
            "I" => o.skip_binary = true,
            // -U, --color, --line-buffered: no effect here.
            _ => {}
        }
    }
    o.recursive = o.directories == Directories::Recurse;
    o.after = after.or(context).unwrap_or(0);
    o.before = before.or(context).unwrap_or(0);
    o.context_given = after.is_some() || before.is_some() || context.is_some();
    if !o.pattern_given {
        if operands.is_empty() {
            return usage(ctx, None).map(Parsed::Exit);
        }
        o.patterns.push(operands.remove(0));
    }
    Ok(Parsed::Run(Box::new(o), operands))
}

/// `-m`: a count; a negative one means no limit, as in GNU grep.
fn parse_count(value: &str) -> Option<Option<u64>> {
    let n: i64 = value.trim().parse().ok()?;
    Some(u64::try_from(n).ok())
}

fn parse_context(ctx: &mut Context<'_>, value: &str) -> Result<Option<usize>, LimitHit> {
    match value.parse::<usize>() {
        Ok(n) => Ok(Some(n)),
        Err(_) => {
            ctx.error(format!("{value}: invalid context length argument"))?;
            Ok(None)
        }
    }
}

/// `-f FILE`: one pattern per line. False when the file cannot be read (reported).
fn read_pattern_file(ctx: &mut Context<'_>, path: &str, patterns: &mut Vec<String>) -> Result<bool, LimitHit> {
    match ctx.read(path) {
        Ok(data) => {
            let text = String::from_utf8_lossy(&data);
            let text = text.strip_suffix('\n').unwrap_or(&text);
            if !data.is_empty() {
                patterns.extend(text.split('\n').map(String::from));
            }
            Ok(true)
        }
        Err(error) => {
            ctx.storage_error(path, &error)?;
            Ok(false)
        }
    }
}

/// The regex for all patterns, or None when there is no pattern at all
/// (`-f` of an empty file), which matches nothing.
fn build_regex(o: &Options, warnings: &mut Vec<String>) -> Result<Option<Regex>, String> {
    // A pattern with newlines is several patterns, as in GNU grep.
    let patterns: Vec<&str> = o.patterns.iter().flat_map(|p| p.split('\n')).collect();
    if patterns.is_empty() {
        return Ok(None);
    }
    if o.syntax == Syntax::Perl {
        return perl_regex(o, &patterns).map(Some);
    }
    let mut parts = Vec::with_capacity(patterns.len());
    for pattern in patterns {
        let body = match o.syntax {
            Syntax::Fixed => pattern.bytes().map(literal).collect::<String>(),
            Syntax::Basic | Syntax::Extended | Syntax::Perl => {
                if o.syntax == Syntax::Extended {
                    if let Some(op @ ('*' | '+' | '?')) = pattern.chars().next() {
                        warnings.push(format!("warning: {op} at start of expression"));
                    }
                }
                let dialect = Dialect { extended: o.syntax == Syntax::Extended, lines: true, sed_escapes: false };
                translate(pattern, dialect)?
            }
        };
        parts.push(if o.line {
            format!("(?m:^)(?:{body})(?m:$)")
        } else if o.word {
            format!("\\b{{start-half}}(?:{body})\\b{{end-half}}")
        } else {
            format!("(?:{body})")
        });
    }
    let flags = if o.ignore_case { "(?i-u)" } else { "(?-u)" };
    let text = format!("{flags}{}", parts.join("|"));
    RegexBuilder::new(&text).size_limit(1 << 26).build().map(Some).map_err(|error| match error {
        regex::Error::CompiledTooBig(_) => "regular expression is too big".to_string(),
        other => other.to_string(),
    })
}

/// `-P`: one pattern in the `regex` crate's syntax, matched against one
/// line at a time (so `\s` or `[^a]` never reach the next line). What
/// PCRE has and the crate lacks is refused with a message naming it.
fn perl_regex(o: &Options, patterns: &[&str]) -> Result<Regex, String> {
    let [pattern] = patterns else {
        return Err("the -P option only supports a single pattern".to_string());
    };
    let body = if o.line {
        format!("^(?:{pattern})$")
    } else if o.word {
        format!("\\b{{start-half}}(?:{pattern})\\b{{end-half}}")
    } else {
        pattern.to_string()
    };
    let flags = if o.ignore_case { "(?i-u)" } else { "(?-u)" };
    let text = format!("{flags}{body}");
    RegexBuilder::new(&text).size_limit(1 << 26).build().map_err(|error| match error {
        regex::Error::CompiledTooBig(_) => "regular expression is too big".to_string(),
        other => perl_error(pattern, &other.to_string()),
    })
}

/// A `regex` crate error as a short grep message: PCRE's wording where
/// there is one, else what is not supported.
fn perl_error(pattern: &str, error: &str) -> String {
    let detail = error.lines().rev().find_map(|line| line.strip_prefix("error: ")).unwrap_or(error).trim();
    let unsupported = |what: &str| format!("-P supports no {what} (its syntax is the Rust regex crate's)");
    if detail.contains("look-around") {
        unsupported("look-around: (?=, (?!, (?<=, (?<!")
    } else if detail.contains("backreferences") {
        unsupported("back-references")
    } else if pattern.contains("\\K") {
        unsupported("\\K")
    } else if pattern.contains("(?>")
        || detail.contains("repetition operator missing expression") && pattern.contains("++")
    {
        unsupported("atomic groups or possessive repetition")
    } else if detail.contains("unclosed group") {
        "missing closing parenthesis".to_string()
    } else if detail.contains("unopened group") {
        "unmatched closing parenthesis".to_string()
    } else if detail.contains("unclosed character class") {
        "missing terminating ] for character class".to_string()
    } else {
        format!("-P: {detail}")
    }
}

fn run(ctx: &mut Context<'_>, args: &[String], syntax: Syntax) -> Result<i32, LimitHit> {
    let (o, mut operands) = match parse(ctx, args, syntax)? {
        Parsed::Run(options, operands) => (options, operands),
        Parsed::Exit(status) => return Ok(status),
    };
    if o.max_count == Some(0) && !o.files_without_match {
        return Ok(1);
    }
    let mut warnings = Vec::new();
    let built = build_regex(&o, &mut warnings);
    for warning in warnings {
        ctx.error(warning)?;
    }
    let regex = match built {
        Ok(regex) => regex,
        Err(message) => {
            ctx.error(message)?;
            return Ok(2);
        }
    };
    let implicit_dot = o.recursive && operands.is_empty();
    if operands.is_empty() {
        operands.push(if o.recursive { ".".to_string() } else { "-".to_string() });
    }
    let mut state = State {
        o: &o,
        regex: regex.as_ref(),
        names: match o.with_filename {
            Some(choice) => Names::Fixed(choice),
            None if operands.len() > 1 => Names::Fixed(true),
            None if o.recursive => Names::IfDirectory,
            None => Names::Fixed(false),
        },
        matched: false,
        error: false,
        context_printed: false,
        is_stdin: false,
    };
    for operand in &operands {
        (ctx.check)()?;
        if state.matched && o.quiet {
            break;
        }
        state.operand(ctx, operand, implicit_dot)?;
    }
    Ok(if state.matched && o.quiet {
        0
    } else if state.error {
        2
    } else if state.matched {
        0
    } else {
        1
    })
}

/// When file names are printed.
#[derive(Clone, Copy)]
enum Names {
    Fixed(bool),
    /// `-r` with one operand: only for files found inside a directory.
    IfDirectory,
}

struct State<'a> {
    o: &'a Options,
    regex: Option<&'a Regex>,
    names: Names,
    matched: bool,
    error: bool,
    /// With context lines, whether an earlier file printed a group: the
    /// next file's first group is then set off by `--`, as GNU does.
    context_printed: bool,
    /// The input being searched is stdin (`-T` then pads as for a pipe).
    is_stdin: bool,
}

/// Whether a name (or its last component) matches a glob, as `--include` does.
fn glob_hit(globs: &[String], name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    globs.iter().any(|glob| fnmatch(glob.as_bytes(), base.as_bytes()) || fnmatch(glob.as_bytes(), name.as_bytes()))
}

/// Shell-style wildcard match (`*`, `?`, `[...]`, `\`), linear in practice:
/// the classic greedy-star backtrack with a single saved position.
fn fnmatch(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pattern.get(p) {
            Some(b'*') => {
                star = Some((p + 1, t));
                p += 1;
                continue;
            }
            Some(b'?') => Some(p + 1),
            Some(b'[') => class_match(pattern, p + 1, text[t]),
            Some(b'\\') if p + 1 < pattern.len() => (pattern[p + 1] == text[t]).then_some(p + 2),
            Some(&c) => (c == text[t]).then_some(p + 1),
            None => None,
        };
        match step {
            Some(next) => {
                p = next;
                t += 1;
            }
            None => match star {
                Some((star_p, star_t)) => {
                    p = star_p;
                    t = star_t + 1;
                    star = Some((star_p, star_t + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|&c| c == b'*')
}

/// Matches `byte` against a `[...]` class starting at `pattern[start]`;
/// the index after the class when it matches.
fn class_match(pattern: &[u8], start: usize, byte: u8) -> Option<usize> {
    let mut i = start;
    let negated = matches!(pattern.get(i), Some(b'!' | b'^'));
    if negated {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    loop {
        let &c = pattern.get(i)?;
        if c == b']' && !first {
            break;
        }
        first = false;
        if pattern.get(i + 1) == Some(&b'-') && pattern.get(i + 2).is_some_and(|&e| e != b']') {
            hit |= (c..=pattern[i + 2]).contains(&byte);
            i += 3;
        } else {
            hit |= c == byte;
            i += 1;
        }
    }
    (hit != negated).then_some(i + 1)
}

impl State<'_> {
    fn operand(&mut self, ctx: &mut Context<'_>, operand: &str, implicit_dot: bool) -> Result<(), LimitHit> {
        if operand == "-" {
            let show = matches!(self.names, Names::Fixed(true));
            return self.stdin(ctx, show);
        }
        let path = ctx.path(operand);
        let skipped =
            !self.o.include.is_empty() && !glob_hit(&self.o.include, operand) || glob_hit(&self.o.exclude, operand);
        let show = matches!(self.names, Names::Fixed(true));
        // One open: a file's first piece is read at once, and a directory
        // says so (a `stat` first would open every operand twice).
        let opened = if skipped { Err(None) } else { ctx.open(operand).map_err(Some) };
        let kind = match opened {
            Ok(reader) => return self.search_reader(ctx, reader, operand, show),
            Err(Some(StorageError::IsADirectory(_))) => Ok(FileKind::Directory),
            Err(Some(error)) => Err(error),
            Err(None) => ctx.stat(operand).map(|metadata| metadata.kind),
        };
        let kind = match kind {
            Ok(kind) => kind,
            Err(error) => {
                self.error = true;
                if !self.o.no_messages {
                    ctx.storage_error(operand, &error)?;
                }
                return Ok(());
            }
        };
        if kind == FileKind::Directory {
            if self.o.directories == Directories::Skip {
                return Ok(());
            }
            if !self.o.recursive {
                self.error = true;
                if !self.o.no_messages {
                    ctx.error(format!("{operand}: Is a directory"))?;
                }
                return Ok(());
            }
            if !implicit_dot && glob_hit(&self.o.exclude_dir, operand) && operand != "." {
                return Ok(());
            }
            let prefix = if implicit_dot { String::new() } else { operand.to_string() };
            return self.walk(ctx, &path, &prefix, 0);
        }
        // Not a directory: only an excluded file gets here.
        Ok(())
    }

    fn walk(&mut self, ctx: &mut Context<'_>, path: &str, prefix: &str, depth: usize) -> Result<(), LimitHit> {
        if depth > 64 {
            if !self.o.no_messages {
                ctx.error(format!("{prefix}: recursive directory loop"))?;
            }
            return Ok(());
        }
        let entries = match ctx.storage.list(path) {
            Ok(entries) => entries,
            Err(error) => {
                self.error = true;
                if !self.o.no_messages {
                    ctx.storage_error(prefix, &error)?;
                }
                return Ok(());
            }
        };
        for entry in entries {
            (ctx.check)()?;
            if self.matched && self.o.quiet {
                return Ok(());
            }
            let child = crate::storage::join(path, &entry.name);
            let shown = if prefix.is_empty() {
                entry.name.clone()
            } else if prefix.ends_with('/') {
                format!("{prefix}{}", entry.name)
            } else {
                format!("{prefix}/{}", entry.name)
            };
            let kind = match entry.kind {
                FileKind::Symlink if !self.o.dereference => continue,
                FileKind::Symlink => match ctx.storage.stat(&child) {
                    Ok(metadata) => metadata.kind,
                    Err(_) => continue,
                },
                kind => kind,
            };
            if kind == FileKind::Directory {
                if !glob_hit(&self.o.exclude_dir, &entry.name) {
                    self.walk(ctx, &child, &shown, depth + 1)?;
                }
                continue;
            }
            if !self.o.include.is_empty() && !glob_hit(&self.o.include, &entry.name)
                || glob_hit(&self.o.exclude, &entry.name)
            {
                continue;
            }
            let show = !matches!(self.names, Names::Fixed(false));
            self.read_and_search(ctx, &child, &shown, show)?;
        }
        Ok(())
    }

    fn read_and_search(&mut self, ctx: &mut Context<'_>, path: &str, shown: &str, show: bool) -> Result<(), LimitHit> {
        // A small file in one read; a large one a piece at a time.
        match ctx.open(path) {
            Ok(reader) => self.search_reader(ctx, reader, shown, show),
            Err(error) => {
                self.error = true;
                if !self.o.no_messages {
                    ctx.storage_error(shown, &error)?;
                }
                Ok(())
            }
        }
    }

    /// Searches an opened file: a small one in one read, a large one a
    /// piece at a time.
    fn search_reader(
        &mut self,
        ctx: &mut Context<'_>,
        reader: Reader<'_>,
        shown: &str,
        show: bool,
    ) -> Result<(), LimitHit> {
        self.is_stdin = false;
        match reader.into_whole() {
            Ok(data) => self.file(ctx, &data, shown, show),
            Err(reader) => self.stream(ctx, reader, shown, show),
        }
    }

    /// Searches stdin as it comes, in blocks of whole lines: grep stops
    /// reading once it knows its answer (`-q`, `-l`, `-m`), so an endless
    /// writer meets a closed pipe. With context lines or `-b`, it reads all
    /// of stdin first.
    fn stdin(&mut self, ctx: &mut Context<'_>, show: bool) -> Result<(), LimitHit> {
        match ctx.open("-") {
            Ok(reader) => {
                self.is_stdin = true;
                let name = self.o.label.as_deref().unwrap_or("(standard input)");
                self.stream(ctx, reader, name, show)
            }
            Err(error) => ctx.storage_error("-", &error),
        }
    }

    /// The next piece of an input; a storage failure is reported (the input
    /// then ends).
    fn piece(
        &mut self,
        ctx: &mut Context<'_>,
        reader: &mut Reader<'_>,
        name: &str,
    ) -> Result<Option<Vec<u8>>, LimitHit> {
        match reader.next_piece() {
            Ok(piece) => Ok(piece),
            Err(ReadFailed::Limit(hit)) => Err(hit),
            Err(ReadFailed::Storage(error)) => {
                self.error = true;
                if !self.o.no_messages {
                    ctx.storage_error(name, &error)?;
                }
                Ok(None)
            }
        }
    }

    /// Searches an input as it comes (stdin, or a large file a piece at a
    /// time), in blocks of whole lines, as [`file`](Self::file) would.
    fn stream(
        &mut self,
        ctx: &mut Context<'_>,
        mut reader: Reader<'_>,
        name: &str,
        show: bool,
    ) -> Result<(), LimitHit> {
        let o = self.o;
        if (o.context_given && !o.only_matching) || o.byte_offset || o.initial_tab || o.null_data {
            let mut data = Vec::new();
            while let Some(piece) = self.piece(ctx, &mut reader, name)? {
                data.extend_from_slice(&piece);
                if data.len() > ctx.max_memory {
                    return Err(LimitHit::Memory);
                }
            }
            return self.file(ctx, &data, name, show);
        }
        let mut left = o.max_count.unwrap_or(u64::MAX);
        let answer_only = o.quiet || o.files_with_matches || o.files_without_match;
        let mut found = false;
        let mut count = 0u64;
        let mut binary = false;
        let mut line = 1u64;
        let mut pending: Vec<u8> = Vec::new();
        let mut done = false;
        let mut first_piece = true;
        while !done && left > 0 && !(answer_only && found) {
            match self.piece(ctx, &mut reader, name)? {
                Some(chunk) if pending.is_empty() => pending = chunk,
                Some(chunk) => pending.extend_from_slice(&chunk),
                None => done = true,
            }
            if o.skip_binary && first_piece && self.binary(&pending) {
                // `-I`, decided on the first piece as GNU decides on its first buffer.
                break;
            }
            first_piece = false;
            let cut = if done {
                pending.len()
            } else {
                match memchr::memrchr(b'\n', &pending) {
                    Some(at) => at + 1,
                    None => continue,
                }
            };
            let block = &pending[..cut];
            let mut search =
                Search { regex: self.regex, hay: block, invert: o.invert, pos: 0, per_line: self.per_line() };
            if answer_only {
                found = search.next_selected(ctx)?.is_some();
            } else if o.count {
                let n = search.count(ctx, left)?;
                count += n;
                left -= n;
            } else {
                binary |= self.binary(block);
                if binary {
                    if search.next_selected(ctx)?.is_some() {
                        found = true;
                        break;
                    }
                } else {
                    let mut printer = Printer {
                        hay: block,
                        name: show.then_some(name),
                        line_number: o.line_number,
                        byte_offset: false,
                        printed_to: 0,
                        any_printed: false,
                        earlier_group: false,
                        lines: LineCounter { pos: 0, line },
                        style: Style { null_after_name: o.null_after_name, ..Style::default() },
                    };
                    while left > 0 {
                        let Some((start, end)) = search.next_selected(ctx)? else { break };
                        left -= 1;
                        found = true;
                        if o.only_matching {
                            if !o.invert {
                                printer.matches(ctx, self.regex, start, end)?;
                            }
                            continue;
                        }
                        printer.line(ctx, start, end, b':')?;
                    }
                    line += memchr::memchr_iter(b'\n', block).count() as u64;
                }
            }
            pending.drain(..cut);
        }
        found |= count > 0;
        self.matched |= found;
        if answer_only {
            if !o.quiet && ((found && o.files_with_matches) || (!found && o.files_without_match)) {
                self.list_name(ctx, name)?;
            }
        } else if o.count {
            self.count_line(ctx, name, show, count)?;
        } else if binary && found {
            ctx.error(format!("{name}: binary file matches"))?;
        }
        Ok(())
    }

    /// Whether lines are matched one at a time (`-P`) rather than by one
    /// search over the buffer.
    fn per_line(&self) -> bool {
        self.o.syntax == Syntax::Perl
    }

    /// Whether `data` is binary: a NUL byte, unless `-a` or `-z`.
    fn binary(&self, data: &[u8]) -> bool {
        !self.o.text && !self.o.null_data && memchr::memchr(0, data).is_some()
    }

    /// `-l`/`-L`'s line: the name and a newline, or a NUL with `-Z`.
    fn list_name(&self, ctx: &mut Context<'_>, name: &str) -> Result<(), LimitHit> {
        ctx.stdout.write_str(name)?;
        ctx.stdout.write(if self.o.null_after_name { b"\0" } else { b"\n" })
    }

    /// `-c`'s line.
    fn count_line(&self, ctx: &mut Context<'_>, name: &str, show: bool, count: u64) -> Result<(), LimitHit> {
        if show {
            ctx.stdout.write_str(name)?;
            ctx.stdout.write(if self.o.null_after_name { b"\0" } else { b":" })?;
        }
        ctx.stdout.write_str(&format!("{count}\n"))
    }

    /// Searches one file's bytes, printing what the options ask for.
    fn file(&mut self, ctx: &mut Context<'_>, data: &[u8], name: &str, show: bool) -> Result<(), LimitHit> {
        let o = self.o;
        // `-z`: records end in NULs; with the two bytes swapped the search
        // is the newline one, and the printer swaps them back.
        let swapped: Vec<u8>;
        let data: &[u8] = if o.null_data {
            swapped = data.iter().map(|&b| swap_eol(b)).collect();
            &swapped
        } else {
            data
        };
        // `-I`: a binary file matches nothing (`-c` counts 0, `-L` lists it).
        let data: &[u8] = if o.skip_binary && self.binary(data) { &[] } else { data };
        let mut search = Search { regex: self.regex, hay: data, invert: o.invert, pos: 0, per_line: self.per_line() };
        let limit = o.max_count.unwrap_or(u64::MAX);
        if o.quiet || o.files_with_matches || o.files_without_match {
            let found = limit > 0 && search.next_selected(ctx)?.is_some();
            self.matched |= found;
            if !o.quiet && ((found && o.files_with_matches) || (!found && o.files_without_match)) {
                self.list_name(ctx, name)?;
            }
            return Ok(());
        }
        if o.count {
            let count = search.count(ctx, limit)?;
            self.matched |= count > 0;
            return self.count_line(ctx, name, show, count);
        }
        if self.binary(data) {
            if limit > 0 && search.next_selected(ctx)?.is_some() {
                self.matched = true;
                ctx.error(format!("{name}: binary file matches"))?;
            }
            return Ok(());
        }
        let contextual = o.context_given && !o.only_matching;
        // `-T`: numbers as wide as the file's size (stdin: a pipe's, any size).
        let width = if o.initial_tab {
            let size = if self.is_stdin { u64::MAX >> 1 } else { data.len() as u64 + u64::from(o.line_number) };
            size.to_string().len()
        } else {
            0
        };
        let mut printer = Printer {
            hay: data,
            name: show.then_some(name),
            line_number: o.line_number,
            byte_offset: o.byte_offset,
            printed_to: 0,
            any_printed: false,
            earlier_group: contextual && self.context_printed,
            lines: LineCounter { pos: 0, line: 1 },
            style: Style {
                width,
                tab: o.initial_tab,
                null_after_name: o.null_after_name,
                swap: o.null_data,
                separator: o.group_separator.as_deref(),
            },
        };
        let mut selected = 0u64;
        while selected < limit {
            let Some((start, end)) = search.next_selected(ctx)? else { break };
            selected += 1;
            self.matched = true;
            if o.only_matching {
                if !o.invert {
                    printer.matches(ctx, self.regex, start, end)?;
                }
                continue;
            }
            if contextual {
                printer.after_context(ctx, start, o.after)?;
                printer.before_context(ctx, start, o.before)?;
            }
            printer.line(ctx, start, end, b':')?;
        }
        if contextual {
            printer.after_context(ctx, data.len(), o.after)?;
            self.context_printed |= printer.any_printed;
        }
        Ok(())
    }
}

/// Walks a buffer's selected lines (matching, or not matching with `-v`).
struct Search<'a> {
    regex: Option<&'a Regex>,
    hay: &'a [u8],
    invert: bool,
    /// Start of the first line not yet looked at.
    pos: usize,
    /// Match each line on its own (`-P`, whose regex may cross newlines).
    per_line: bool,
}

impl Search<'_> {
    /// The line (start, end without its newline) of the first match at or
    /// after `from`, or None.
    fn next_match(&self, from: usize) -> Option<(usize, usize)> {
        let regex = self.regex?;
        if from > self.hay.len() || (from == self.hay.len() && (from == 0 || self.hay[from - 1] == b'\n')) {
            return None;
        }
        if self.per_line {
            let mut start = from;
            while start < self.hay.len() {
                let end = self.line_end(start);
                if regex.is_match(&self.hay[start..end]) {
                    return Some((start, end));
                }
                start = end + 1;
            }
            return None;
        }
        let end = regex.shortest_match_at(self.hay, from)?;
        // An empty match after the final newline is not on any line.
        if end == self.hay.len() && (end == 0 || self.hay[end - 1] == b'\n') {
            return None;
        }
        let start = memchr::memrchr(b'\n', &self.hay[from..end]).map_or(from, |i| from + i + 1);
        let stop = memchr::memchr(b'\n', &self.hay[end..]).map_or(self.hay.len(), |i| end + i);
        Some((start, stop))
    }

    /// The end of the line starting at `start`.
    fn line_end(&self, start: usize) -> usize {
        memchr::memchr(b'\n', &self.hay[start..]).map_or(self.hay.len(), |i| start + i)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.hay.len()
    }

    fn next_selected(&mut self, ctx: &mut Context<'_>) -> Result<Option<(usize, usize)>, LimitHit> {
        (ctx.check)()?;
        if !self.invert {
            let found = self.next_match(self.pos);
            if let Some((_, end)) = found {
                self.pos = end + 1;
            } else {
                self.pos = self.hay.len() + 1;
            }
            return Ok(found);
        }
        while !self.at_end() {
            let start = self.pos;
            let end = self.line_end(start);
            // Skip ahead past the next matching line when this one is it.
            match self.next_match(start) {
                Some((match_start, match_end)) if match_start == start => {
                    self.pos = match_end + 1;
                    continue;
                }
                _ => {}
            }
            self.pos = end + 1;
            return Ok(Some((start, end)));
        }
        Ok(None)
    }

    /// Counts selected lines, up to `limit`.
    fn count(&mut self, ctx: &mut Context<'_>, limit: u64) -> Result<u64, LimitHit> {
        if self.invert && limit == u64::MAX {
            // Lines minus matching lines: one regex scan, no per-line work.
            let mut total = memchr::memchr_iter(b'\n', self.hay).count() as u64;
            if self.hay.last().is_some_and(|&b| b != b'\n') {
                total += 1;
            }
            self.invert = false;
            let matching = self.count(ctx, u64::MAX)?;
            return Ok(total - matching);
        }
        let mut count = 0;
        while count < limit {
            if count.is_multiple_of(4096) {
                (ctx.check)()?;
            }
            if self.invert {
                if self.next_selected(ctx)?.is_none() {
                    break;
                }
            } else {
                let Some((_, end)) = self.next_match(self.pos) else { break };
                self.pos = end + 1;
            }
            count += 1;
        }
        Ok(count)
    }
}

/// Line numbers by counting newlines forward from the last position asked.
struct LineCounter {
    pos: usize,
    line: u64,
}

impl LineCounter {
    fn line_at(&mut self, hay: &[u8], pos: usize) -> u64 {
        if pos >= self.pos {
            self.line += memchr::memchr_iter(b'\n', &hay[self.pos..pos]).count() as u64;
        } else {
            self.line -= memchr::memchr_iter(b'\n', &hay[pos..self.pos]).count() as u64;
        }
        self.pos = pos;
        self.line
    }
}

/// Prints lines with their prefixes, context lines and `--` separators.
struct Printer<'a> {
    hay: &'a [u8],
    name: Option<&'a str>,
    line_number: bool,
    byte_offset: bool,
    /// Start of the first line not printed yet (context never goes back before it).
    printed_to: usize,
    any_printed: bool,
    /// An earlier file printed a group: this file's first group starts with `--`.
    earlier_group: bool,
    lines: LineCounter,
    style: Style<'a>,
}

/// How lines are set out: `-T`, `-Z`, `-z` and the group separator.
#[derive(Default)]
struct Style<'a> {
    /// `-T`: the width of line numbers and byte offsets (0: as they are).
    width: usize,
    /// `-T`: a tab between the prefixes and a non-empty line.
    tab: bool,
    /// `-Z`: a NUL after the file name instead of the separator.
    null_after_name: bool,
    /// `-z`: the data has newlines and NULs swapped; swap them back.
    swap: bool,
    /// The line between groups of context (`None`: none).
    separator: Option<&'a str>,
}

/// `-z`'s swap of the record terminator and the newline.
fn swap_eol(byte: u8) -> u8 {
    match byte {
        b'\n' => 0,
        0 => b'\n',
        other => other,
    }
}

impl Printer<'_> {
    /// The file name, line number and byte offset before a line (or a
    /// match) of `len` bytes.
    fn prefix(
        &mut self,
        ctx: &mut Context<'_>,
        line_start: usize,
        offset: usize,
        sep: u8,
        len: usize,
    ) -> Result<(), LimitHit> {
        let mut prefix = Vec::new();
        let width = self.style.width;
        if let Some(name) = self.name {
            prefix.extend_from_slice(name.as_bytes());
            prefix.push(if self.style.null_after_name { 0 } else { sep });
        }
        if self.line_number {
            let line = self.lines.line_at(self.hay, line_start);
            prefix.extend_from_slice(format!("{line:>width$}").as_bytes());
            prefix.push(sep);
        }
        if self.byte_offset {
            prefix.extend_from_slice(format!("{offset:>width$}").as_bytes());
            prefix.push(sep);
        }
        if self.style.tab && !prefix.is_empty() && len != 0 {
            prefix.push(b'\t');
        }
        ctx.stdout.write(&prefix)
    }

    /// Writes data bytes and the record terminator.
    fn text(&self, ctx: &mut Context<'_>, bytes: &[u8]) -> Result<(), LimitHit> {
        if self.style.swap {
            let mut out: Vec<u8> = bytes.iter().map(|&b| swap_eol(b)).collect();
            out.push(0);
            return ctx.stdout.write(&out);
        }
        ctx.stdout.write(bytes)?;
        ctx.stdout.write(b"\n")
    }

    /// One whole line, `sep` being `:` for a selected line and `-` for context.
    fn line(&mut self, ctx: &mut Context<'_>, start: usize, end: usize, sep: u8) -> Result<(), LimitHit> {
        self.prefix(ctx, start, start, sep, end - start)?;
        self.text(ctx, &self.hay[start..end])?;
        self.printed_to = end + 1;
        self.any_printed = true;
        Ok(())
    }

    /// `-o`: every non-empty match of the line.
    fn matches(
        &mut self,
        ctx: &mut Context<'_>,
        regex: Option<&Regex>,
        start: usize,
        end: usize,
    ) -> Result<(), LimitHit> {
        let Some(regex) = regex else { return Ok(()) };
        let line = &self.hay[start..end];
        for found in regex.find_iter(line) {
            if found.is_empty() {
                continue;
            }
            self.prefix(ctx, start, start + found.start(), b':', found.len())?;
            self.text(ctx, found.as_bytes())?;
        }
        Ok(())
    }

    /// Up to `count` lines after the last printed line, stopping before `limit`.
    fn after_context(&mut self, ctx: &mut Context<'_>, limit: usize, count: usize) -> Result<(), LimitHit> {
        if !self.any_printed {
            return Ok(());
        }
        for _ in 0..count {
            let start = self.printed_to;
            if start >= limit || start >= self.hay.len() {
                break;
            }
            let end = memchr::memchr(b'\n', &self.hay[start..]).map_or(self.hay.len(), |i| start + i);
            self.line(ctx, start, end, b'-')?;
        }
        Ok(())
    }

    /// Up to `count` lines before the selected line at `start`, after the
    /// last printed one, with a `--` when there is a gap.
    fn before_context(&mut self, ctx: &mut Context<'_>, start: usize, count: usize) -> Result<(), LimitHit> {
        let mut first = start;
        for _ in 0..count {
            if first <= self.printed_to {
                break;
            }
            first = memchr::memrchr(b'\n', &self.hay[..first - 1]).map_or(0, |i| i + 1);
        }
        let first = first.max(self.printed_to);
        if (self.any_printed && first > self.printed_to) || (!self.any_printed && self.earlier_group) {
            if let Some(separator) = self.style.separator {
                ctx.stdout.write_str(separator)?;
                ctx.stdout.write(b"\n")?;
            }
        }
        let mut at = first;
        while at < start {
            let end = memchr::memchr(b'\n', &self.hay[at..]).map_or(self.hay.len(), |i| at + i);
            self.line(ctx, at, end, b'-')?;
            at = end + 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    /// The files of the directory the expectations were recorded in.
    fn storage() -> MemoryStorage {
        let s = MemoryStorage::default();
        s.mkdir("/d/sub", true).unwrap();
        for (path, data) in [
            ("/a", &b"foo\nbar\nfoo bar\n"[..]),
            ("/bin", b"x\0foo\n"),
            ("/d/one.txt", b"foo\n"),
            ("/d/sub/two.c", b"foo\n"),
            ("/n", b"1\nm\n2\nm\n3\n4\n5\nm\n"),
            ("/l", b"a\nb\nc\nd\ne\nf\ng\nh\n"),
            ("/w", b"Foo\nfoobar\nfoo-bar\nbarfoo\n(x)\na{2}\n1+1\nbar\n"),
            ("/pats", b"foo\nbar\n"),
        ] {
            s.write(path, data).unwrap();
        }
        s
    }

    fn check(s: &MemoryStorage, args: &[&str], stdin: &str, status: i32, stdout: &str, stderr: &str) {
        let got = run_for_test(s, "grep", args, stdin);
        let want = (status, stdout.to_string(), stderr.to_string());
        if got != want {
            FAILURES.with(|failures| failures.borrow_mut().push(format!("grep {args:?}\n got {got:?}\nwant {want:?}")));
        }
    }

    thread_local! {
        static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    fn assert_no_failures() {
        let failures = FAILURES.with(|failures| failures.take());
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    }

    /// Every expectation below is what GNU grep 3.8 printed (LC_ALL=C) in a
    /// directory holding the same files, except that `-r` output is in
    /// sorted order here (GNU follows the directory's order).
    #[test]
    fn behaves_like_gnu_grep() {
        let s = storage();
        check(&s, &["foo", "a"], "", 0, "foo\nfoo bar\n", "");
        check(&s, &["foo", "a", "nope"], "", 2, "a:foo\na:foo bar\n", "grep: nope: No such file or directory\n");
        check(&s, &["-q", "foo", "a", "nope"], "", 0, "", "");
        check(&s, &["-s", "foo", "nope"], "", 2, "", "");
        check(&s, &["zzz", "a"], "", 1, "", "");
        check(&s, &["foo", "bin"], "", 0, "", "grep: bin: binary file matches\n");
        check(&s, &["-c", "foo", "bin"], "", 0, "1\n", "");
        check(&s, &["-a", "foo", "bin"], "", 0, "x\u{0}foo\n", "");
        check(&s, &["foo", "d"], "", 2, "", "grep: d: Is a directory\n");
        check(&s, &["-L", "foo", "a", "d/one.txt"], "", 0, "", "");
        check(&s, &["-L", "zzz", "a"], "", 1, "a\n", "");
        check(&s, &["-l", "foo", "a", "n", "d/one.txt"], "", 0, "a\nd/one.txt\n", "");
        check(&s, &["-c", "foo", "a", "n"], "", 0, "a:2\nn:0\n", "");
        check(&s, &["-h", "-c", "foo", "a", "n"], "", 0, "2\n0\n", "");
        check(&s, &["-H", "foo", "a"], "", 0, "a:foo\na:foo bar\n", "");
        check(&s, &["-n", "-m1", "-A3", "m", "n"], "", 0, "2:m\n3-2\n4-m\n5-3\n", "");
        check(&s, &["-n", "-e", "b", "-e", "e", "-A1", "l"], "", 0, "2:b\n3-c\n--\n5:e\n6-f\n", "");
        check(&s, &["-C1", "-e", "b", "-e", "g", "l"], "", 0, "a\nb\nc\n--\nf\ng\nh\n", "");
        check(&s, &["-B2", "-n", "e", "l"], "", 0, "3-c\n4-d\n5:e\n", "");
        check(&s, &["-2", "d", "l"], "", 0, "b\nc\nd\ne\nf\n", "");
        check(&s, &["-C0", "-e", "b", "-e", "d", "l"], "", 0, "b\n--\nd\n", "");
        check(&s, &["-A1", "-B1", "-e", "c", "-e", "e", "l"], "", 0, "b\nc\nd\ne\nf\n", "");
        check(&s, &["-v", "-n", "-A1", "[a-f]", "l"], "", 0, "7:g\n8:h\n", "");
        check(&s, &["-c", "-v", "b", "l"], "", 0, "7\n", "");
        check(&s, &["-vc", "-m2", "b", "l"], "", 0, "2\n", "");
        check(&s, &["-c", "-m2", "m", "n"], "", 0, "2\n", "");
        check(&s, &["-m0", "-c", "foo", "a"], "", 1, "", "");
        check(&s, &["-E", "*a", "a"], "", 0, "bar\nfoo bar\n", "grep: warning: * at start of expression\n");
        check(&s, &["-E", "a{", "a"], "", 1, "", "");
        check(&s, &["a\\{", "a"], "", 2, "", "grep: Unmatched \\{\n");
        check(&s, &["-o", "a\\|b", "a"], "", 0, "b\na\nb\na\n", "");
        check(&s, &["-ob", "o", "a"], "", 0, "1:o\n2:o\n9:o\n10:o\n", "");
        check(&s, &["-on", "o*", "a"], "", 0, "1:oo\n3:oo\n", "");
        check(&s, &["-w", "foo", "w"], "", 0, "foo-bar\n", "");
        check(&s, &["-wi", "foo", "w"], "", 0, "Foo\nfoo-bar\n", "");
        check(&s, &["-inw", "FOO", "w"], "", 0, "1:Foo\n3:foo-bar\n", "");
        check(&s, &["-x", "bar", "w"], "", 0, "bar\n", "");
        check(&s, &["-x", "-e", "bar", "-e", "foo", "a"], "", 0, "foo\nbar\n", "");
        check(&s, &["(x)", "w"], "", 0, "(x)\n", "");
        check(&s, &["-E", "\\(x\\)", "w"], "", 0, "(x)\n", "");
        check(&s, &["a{2}", "w"], "", 0, "a{2}\n", "");
        check(&s, &["a\\{2\\}", "w"], "", 1, "", "");
        check(&s, &["-E", "a\\{2\\}", "w"], "", 0, "a{2}\n", "");
        check(&s, &["1+1", "w"], "", 0, "1+1\n", "");
        check(&s, &["-E", "1\\+1", "w"], "", 0, "1+1\n", "");
        check(&s, &["1\\+", "w"], "", 0, "1+1\n", "");
        check(&s, &["-F", "1+1", "w"], "", 0, "1+1\n", "");
        check(&s, &["-F", "-x", "bar", "w"], "", 0, "bar\n", "");
        check(&s, &["-F", "-e", "(x)", "-e", "a{", "w"], "", 0, "(x)\na{2}\n", "");
        check(&s, &["-E", "^(foo|bar)$", "w"], "", 0, "bar\n", "");
        check(&s, &["^foo\\|bar$", "w"], "", 0, "foobar\nfoo-bar\nbar\n", "");
        check(&s, &["-f", "pats", "w"], "", 0, "foobar\nfoo-bar\nbarfoo\nbar\n", "");
        check(&s, &["-f", "nofile", "w"], "", 2, "", "grep: nofile: No such file or directory\n");
        check(&s, &["-e", "x", "-f", "pats", "-c", "w"], "", 0, "5\n", "");
        check(&s, &["-r", "foo", "d"], "", 0, "d/one.txt:foo\nd/sub/two.c:foo\n", "");
        check(&s, &["-r", "foo", "d/"], "", 0, "d/one.txt:foo\nd/sub/two.c:foo\n", "");
        check(&s, &["-rn", "foo", "."], "", 0, "./a:1:foo\n./a:3:foo bar\n./d/one.txt:1:foo\n./d/sub/two.c:1:foo\n./pats:1:foo\n./w:2:foobar\n./w:3:foo-bar\n./w:4:barfoo\n", "grep: ./bin: binary file matches\n");
        check(&s, &["-r", "foo", "d/one.txt"], "", 0, "foo\n", "");
        check(&s, &["-r", "--include=*.c", "foo", "."], "", 0, "./d/sub/two.c:foo\n", "");
        check(&s, &["-r", "--include", "*.txt", "foo", "d"], "", 0, "d/one.txt:foo\n", "");
        check(&s, &["-r", "--exclude=*.c", "foo", "d"], "", 0, "d/one.txt:foo\n", "");
        check(&s, &["-r", "--exclude-dir=sub", "foo", "d"], "", 0, "d/one.txt:foo\n", "");
        check(&s, &["--exclude=*.txt", "foo", "d/one.txt"], "", 1, "", "");
        check(&s, &["-rl", "foo"], "", 0, "a\nbin\nd/one.txt\nd/sub/two.c\npats\nw\n", "");
        check(&s, &["-rc", "m"], "", 0, "a:0\nbin:0\nd/one.txt:0\nd/sub/two.c:0\nl:0\nn:3\npats:0\nw:0\n", "");
        check(&s, &["-rh", "foo", "d"], "", 0, "foo\nfoo\n", "");
        check(&s, &["foo"], "foo\nbar\n", 0, "foo\n", "");
        check(&s, &["-H", "foo"], "foo\nbar\n", 0, "(standard input):foo\n", "");
        check(&s, &["-c", "foo", "-", "a"], "foo\n", 0, "(standard input):1\na:2\n", "");
        check(&s, &["-c", ""], "a\nb\n", 0, "2\n", "");
        check(&s, &["-c", "^"], "a", 0, "1\n", "");
        check(&s, &["-c", "^"], "", 1, "0\n", "");
        check(&s, &["-n", "$"], "a\n\nb", 0, "1:a\n2:\n3:b\n", "");
        check(&s, &["-v", "a"], "a\nb\nc", 0, "b\nc\n", "");
        check(&s, &["-w", "@foo"], "a@foo b\n@foo\n", 0, "@foo\n", "");
        check(&s, &["-i", "[a-c]x"], "AX\nbX\ndx\n", 0, "AX\nbX\n", "");
        check(&s, &["[[:digit:]]\\+"], "abc\na1\n", 0, "a1\n", "");
        check(&s, &["-o", "[[:upper:]][a-z]*"], "Hello World\n", 0, "Hello\nWorld\n", "");
        check(&s, &["-E", "-o", "(ab)+"], "xababc\n", 0, "abab\n", "");
        check(&s, &["x.y"], "xzy\nx\ny\n", 0, "xzy\n", "");
        check(&s, &["-E", "a|"], "q\n", 0, "q\n", "");
        check(&s, &["-k", "x"], "", 2, "", "grep: invalid option -- 'k'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
        check(&s, &["--foo", "x"], "", 2, "", "grep: unrecognized option '--foo'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
        check(&s, &["-A", "x", "y"], "", 2, "", "grep: x: invalid context length argument\n");
        check(
            &s,
            &[],
            "",
            2,
            "",
            "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
        );
        check(&s, &["-e"], "", 2, "", "grep: option requires an argument -- 'e'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
        check(&s, &["-E", "(a"], "", 2, "", "grep: Unmatched ( or \\(\n");
        check(&s, &["\\(a"], "", 2, "", "grep: Unmatched ( or \\(\n");
        check(&s, &["[a"], "", 2, "", "grep: Unmatched [, [^, [:, [., or [=\n");
        check(&s, &["--", "-v"], "-v\nx\n", 0, "-v\n", "");
        check(&s, &["-e", "-v", "--color=never"], "-v\nx\n", 0, "-v\n", "");
        check(&s, &["foo", "a", "-n"], "", 0, "1:foo\n3:foo bar\n", "");
        check(&s, &["--count", "--invert-match", "foo", "a"], "", 0, "1\n", "");
        check(&s, &["--max-count=1", "--line-number", "foo", "a"], "", 0, "1:foo\n", "");
        check(&s, &["--regexp=bar", "--with-filename", "a"], "", 0, "a:bar\na:foo bar\n", "");
        check(&s, &["-y", "FOO", "a"], "", 0, "foo\nfoo bar\n", "");
        check(&s, &["-Eio", "F(O)+", "a"], "", 0, "foo\nfoo\n", "");
        check(&s, &["-lv", "foo", "a", "d/one.txt"], "", 0, "a\n", "");
        assert_no_failures();
    }

    #[test]
    fn egrep_and_fgrep() {
        let s = storage();
        assert_eq!(run_for_test(&s, "egrep", &["-c", "foo|bar", "a"], "").1, "3\n");
        assert_eq!(run_for_test(&s, "fgrep", &["-c", "a{2}", "w"], "").1, "1\n");
    }

    #[test]
    fn globs() {
        assert!(super::fnmatch(b"*.c", b"two.c"));
        assert!(!super::fnmatch(b"*.c", b"two.cc"));
        assert!(super::fnmatch(b"[a-c]?x*", b"bqxyz"));
        assert!(!super::fnmatch(b"[!a-c]*", b"b"));
        assert!(super::fnmatch(b"a*b*c", b"aXbYbZc"));
    }

    /// `cargo test --release --lib shell::commands::grep::tests::speed -- --ignored --nocapture`
    ///
    /// Measured on the 2-core dev machine, 10 MiB, 236 064 lines (GNU grep 3.8
    /// on the same file, process start included, in brackets):
    /// `-c 'number 42'` 14 ms (24 ms), `-c words` (every line) 31 ms (26 ms),
    /// `-vc 'number 4'` 2 ms (28 ms), `-c 'x[0-9]'` 9 ms (8 ms).
    #[test]
    #[ignore = "a timing printout over 10 MiB, not a check (speed is judged by `make bench`); run by hand in release"]
    fn speed() {
        let s = MemoryStorage::new(crate::storage::MemoryLimits::default());
        let mut data = Vec::new();
        let mut i = 0u64;
        while data.len() < 10 << 20 {
            data.extend_from_slice(format!("line {i} some words here and a number {}\n", i * 7919 % 1000).as_bytes());
            i += 1;
        }
        s.write("/big", &data).unwrap();
        for args in [&["-c", "number 42"][..], &["-c", "words"], &["-vc", "number 4"], &["-c", "x[0-9]"]] {
            let start = std::time::Instant::now();
            let (_, out, _) = run_for_test(&s, "grep", &[args, &["/big"]].concat(), "");
            println!("grep {args:?}: {} in {:?}", out.trim(), start.elapsed());
        }
    }
}
