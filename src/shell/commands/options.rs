//! The one command-line parser of the commands: GNU `getopt_long`.
//!
//! Every command that takes options declares them in a [`Spec`] (getopt's
//! short-option string and a table of long options) and calls [`parse`]
//! (or [`parse_until`]); what it gets back is the options in order with
//! their arguments and the operands, or getopt's own message for a bad
//! option, which the command prints followed by its own usage or `Try`
//! line and status (they differ per tool: grep and sed print a usage line,
//! diff and cmp prefix their `Try` line with their name, jq words its own).
//!
//! The semantics are glibc's, checked against the tools on this machine:
//! - Options and operands may be mixed (permutation); a short string that
//!   starts with `+` stops at the first operand instead (xargs, env,
//!   timeout, as getopt's `+`); `--` ends the options; `-` is an operand.
//! - Short options bundle (`-nv`); a letter followed by `:` takes an
//!   argument, attached (`-n5`) or as the next element (`-n 5`, which may
//!   itself start with `-`: `tail -n -3`); `::` takes an optional argument,
//!   attached only.
//! - Long options take `--name=value` or, for a required argument, the
//!   next element; an optional argument only with `=`. A long name may be
//!   abbreviated to any prefix that names one option (or several entries
//!   that are the same option, as `--color`/`--colour`).
//! - Digits in the short string are options like any other letter, as in
//!   grep's `-5` (the command gathers them into its number); commands whose
//!   operands may be negative numbers (`seq -1 1`) stop at the first such
//!   element with [`parse_until`], as GNU seq does before each getopt call.
//!   head's and tail's obsolete `-5`/`+5` forms are the command's own
//!   rewriting, before the parser (as coreutils does).
//! - The messages, word for word: `invalid option -- 'Q'`, `unrecognized
//!   option '--foo'` (as typed, `=value` included), `option requires an
//!   argument -- 'n'`, `option '--lines' requires an argument`, `option
//!   '--all' doesn't allow an argument`, `option '--co' is ambiguous;
//!   possibilities: '--color' '--context'` (the table's order).
//!
//! Not getopt, so not here: jq's command line (`jq/args.rs`: `--arg NAME
//! VALUE` takes two arguments, names are never abbreviated, the messages
//! are jq's), find's (an expression, not options) and `which` (Debian's is
//! a shell script with its own `Illegal option` message). awk's options go
//! through here as gawk's do (`+F:v:f:W:`: the program ends them).
//!
//! Not done: `POSIXLY_CORRECT` in the environment (GNU stops at the first
//! operand then); a script that wants it writes the options first.
//!
//! Why not a crate: we measured lexopt 0.3 (no abbreviated long options,
//! no table of which options take arguments, so no `requires an argument`
//! or ambiguity message, and its errors are its own words), getopts 0.2
//! (no abbreviations, no optional short arguments, messages such as
//! `Unrecognized option: 'Q'`) and clap 4 (prefixes with `infer_long_args`,
//! but its own error text and usage layout, and some thirty thousand lines
//! of dependency): none gives glibc's matching and messages, which scripts
//! and the corpus compare byte for byte. This file is the few hundred
//! lines that do.

use crate::shell::command::Context;
use crate::shell::LimitHit;

/// Whether an option takes an argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(in crate::shell::commands) enum HasArg {
    No,
    Yes,
    /// `--opt=value` or `--opt` (and, in the short string, `x::`: `-xvalue`).
    Optional,
}

/// One parsed command-line element.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::shell::commands) enum Arg {
    /// An option by its key (the short letter, or the name a long-only
    /// option's table entry gives) and its argument.
    Opt(&'static str, Option<String>),
    /// A file name or other operand.
    Operand(String),
}

/// The options a command accepts: getopt's short string (`"+n:c:qv"`: a
/// `:` after a letter that takes an argument, `::` an optional one, a
/// leading `+` to stop at the first operand) and the long options, each
/// `(name, key, HasArg)` where the key is the short letter it stands for
/// or a name of its own.
pub(in crate::shell::commands) struct Spec {
    pub short: &'static str,
    pub long: &'static [(&'static str, &'static str, HasArg)],
}

/// Parses `args` as GNU getopt_long does (see the module doc). The error
/// is getopt's message, without the command's name.
pub(in crate::shell::commands) fn parse(spec: &Spec, args: &[String]) -> Result<Vec<Arg>, String> {
    Parser::new(spec, args).collect()
}

/// [`parse`], but the first element at an option's place for which `stop`
/// holds ends the options: it and all that follow are operands (GNU seq's
/// negative numbers).
pub(in crate::shell::commands) fn parse_until(
    spec: &Spec,
    args: &[String],
    stop: fn(&str) -> bool,
) -> Result<Vec<Arg>, String> {
    Parser { stop, ..Parser::new(spec, args) }.collect()
}

/// The parser as an iterator, for commands that act on each option as
/// getopt returns it (grep reads `-f FILE` before it sees a later bad
/// option, as GNU grep does). After an error it yields nothing more.
pub(in crate::shell::commands) struct Parser<'a> {
    spec: &'a Spec,
    args: &'a [String],
    /// The next element to look at.
    index: usize,
    /// Within a bundle of short options (`-abc`): the element and the
    /// byte offset of the next letter.
    bundle: Option<(usize, usize)>,
    /// The element the last option came from.
    element: usize,
    /// Everything from here on is an operand.
    rest_operands: bool,
    done: bool,
    stop: fn(&str) -> bool,
}

impl<'a> Parser<'a> {
    pub fn new(spec: &'a Spec, args: &'a [String]) -> Self {
        Parser { spec, args, index: 0, bundle: None, element: 0, rest_operands: false, done: false, stop: |_| false }
    }

    /// The index in `args` of the element the last option came from (grep
    /// joins digit options of one element into one number: `-15`).
    pub fn element(&self) -> usize {
        self.element
    }

    fn in_order(&self) -> bool {
        self.spec.short.starts_with('+')
    }

    fn short(&self) -> &'static str {
        self.spec.short.strip_prefix('+').unwrap_or(self.spec.short)
    }

    fn step(&mut self) -> Option<Result<Arg, String>> {
        if let Some((element, at)) = self.bundle.take() {
            return Some(self.short_option(element, at));
        }
        let arg = self.args.get(self.index)?;
        self.index += 1;
        if self.rest_operands {
            return Some(Ok(Arg::Operand(arg.clone())));
        }
        if arg == "--" {
            self.rest_operands = true;
            return self.step();
        }
        if arg.len() < 2 || !arg.starts_with('-') || (self.stop)(arg) {
            if self.in_order() || (self.stop)(arg) {
                self.rest_operands = true;
            }
            return Some(Ok(Arg::Operand(arg.clone())));
        }
        self.element = self.index - 1;
        if let Some(long) = arg.strip_prefix("--") {
            return Some(self.long_option(arg, long));
        }
        Some(self.short_option(self.index - 1, 1))
    }

    fn long_option(&mut self, arg: &str, long: &str) -> Result<Arg, String> {
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (long, None),
        };
        let (full, key, has) = find_long(self.spec, name, arg)?;
        let value = match has {
            HasArg::No if value.is_some() => return Err(format!("option '--{full}' doesn't allow an argument")),
            HasArg::Yes if value.is_none() => {
                let Some(next) = self.args.get(self.index) else {
                    return Err(format!("option '--{full}' requires an argument"));
                };
                self.index += 1;
                Some(next.clone())
            }
            _ => value,
        };
        Ok(Arg::Opt(key, value))
    }

    /// The letter at byte `at` of element `element`, a bundle of short options.
    fn short_option(&mut self, element: usize, at: usize) -> Result<Arg, String> {
        let arg = &self.args[element];
        self.element = element;
        let Some(letter) = arg[at..].chars().next() else {
            return Err(format!("invalid option -- '{}'", &arg[at..]));
        };
        let after = at + letter.len_utf8();
        let Some((key, has)) = find_short(self.short(), letter) else {
            return Err(format!("invalid option -- '{letter}'"));
        };
        let value = match has {
            HasArg::No => {
                if after < arg.len() {
                    self.bundle = Some((element, after));
                }
                None
            }
            HasArg::Optional => (after < arg.len()).then(|| arg[after..].to_string()),
            HasArg::Yes if after < arg.len() => Some(arg[after..].to_string()),
            HasArg::Yes => {
                let Some(next) = self.args.get(self.index) else {
                    return Err(format!("option requires an argument -- '{letter}'"));
                };
                self.index += 1;
                Some(next.clone())
            }
        };
        Ok(Arg::Opt(key, value))
    }
}

impl Iterator for Parser<'_> {
    type Item = Result<Arg, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.step();
        if matches!(item, Some(Err(_)) | None) {
            self.done = true;
        }
        item
    }
}

/// The short option `letter` in getopt's string: its key (the letter
/// itself, a slice of the string) and whether it takes an argument.
fn find_short(short: &'static str, letter: char) -> Option<(&'static str, HasArg)> {
    if letter == ':' {
        return None;
    }
    let pos = short.find(letter)?;
    let key = &short[pos..pos + letter.len_utf8()];
    let rest = &short[pos + letter.len_utf8()..];
    let has = if rest.starts_with("::") {
        HasArg::Optional
    } else if rest.starts_with(':') {
        HasArg::Yes
    } else {
        HasArg::No
    };
    Some((key, has))
}

/// The long option `name` names: an exact name, or a prefix of one option
/// (entries with the same key and argument kind count as one, as glibc's).
fn find_long(spec: &Spec, name: &str, arg: &str) -> Result<(&'static str, &'static str, HasArg), String> {
    if let Some(&found) = spec.long.iter().find(|(full, _, _)| *full == name) {
        return Ok(found);
    }
    let candidates: Vec<_> = spec.long.iter().filter(|(full, _, _)| full.starts_with(name)).collect();
    match candidates.as_slice() {
        [] => Err(format!("unrecognized option '{arg}'")),
        [first, rest @ ..] if rest.iter().all(|(_, key, has)| *key == first.1 && *has == first.2) => Ok(**first),
        _ => {
            // glibc lists the first match and each match that is another
            // option than the first.
            let first = candidates[0];
            let mut message = format!("option '{arg}' is ambiguous; possibilities:");
            for (index, (full, key, has)) in candidates.iter().enumerate() {
                if index == 0 || (*key, *has) != (first.1, first.2) {
                    message.push_str(&format!(" '--{full}'"));
                }
            }
            Err(message)
        }
    }
}

/// Parsed arguments, for commands that ask "was `-x` given?" and "what was
/// the last `-n`?" rather than walk the options in order.
#[derive(Debug, Default)]
pub(in crate::shell::commands) struct Parsed {
    /// The options in order, each with its argument (`""` when it has none).
    pub options: Vec<(&'static str, String)>,
    pub operands: Vec<String>,
}

impl Parsed {
    /// Sorts `args` into options and operands.
    pub fn from_args(args: Vec<Arg>) -> Self {
        let mut parsed = Parsed::default();
        for arg in args {
            match arg {
                Arg::Opt(key, value) => parsed.options.push((key, value.unwrap_or_default())),
                Arg::Operand(operand) => parsed.operands.push(operand),
            }
        }
        parsed
    }

    /// Whether the option was given.
    pub fn has(&self, key: &str) -> bool {
        self.options.iter().any(|(k, _)| *k == key)
    }

    /// The last argument given to the option.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }
}

/// Prints a usage error the coreutils way (`name: message` and the `Try`
/// line) and returns `status`.
pub(in crate::shell::commands) fn usage(ctx: &mut Context<'_>, message: &str, status: i32) -> Result<i32, LimitHit> {
    ctx.error(message)?;
    let line = format!("Try '{} --help' for more information.\n", ctx.name);
    ctx.stderr.write_str(&line)?;
    Ok(status)
}

/// [`parse`] into a [`Parsed`]; on a bad option prints getopt's message and
/// the `Try` line and returns `None`.
pub(in crate::shell::commands) fn parse_or_usage(
    ctx: &mut Context<'_>,
    spec: &Spec,
    args: &[String],
) -> Result<Option<Parsed>, LimitHit> {
    match parse(spec, args) {
        Ok(args) => Ok(Some(Parsed::from_args(args))),
        Err(message) => {
            usage(ctx, &message, 1)?;
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        short: "n:c:qvx::0123456789",
        long: &[
            ("lines", "n", HasArg::Yes),
            ("line-number", "N", HasArg::No),
            ("color", "color", HasArg::Optional),
            ("colour", "color", HasArg::Optional),
            ("context", "C", HasArg::Yes),
            ("quiet", "q", HasArg::No),
            ("silent", "q", HasArg::No),
        ],
    };

    fn run(spec: &Spec, args: &[&str]) -> Result<Vec<Arg>, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(spec, &args)
    }

    fn opt(key: &'static str, value: Option<&str>) -> Arg {
        Arg::Opt(key, value.map(str::to_string))
    }

    fn operand(text: &str) -> Arg {
        Arg::Operand(text.to_string())
    }

    #[test]
    fn short_options_bundle_and_take_arguments_attached_or_apart() {
        assert_eq!(
            run(&SPEC, &["-qvn5", "f", "-c", "-3", "-x", "-xy"]).unwrap(),
            vec![
                opt("q", None),
                opt("v", None),
                opt("n", Some("5")),
                operand("f"),
                opt("c", Some("-3")),
                opt("x", None),
                opt("x", Some("y"))
            ]
        );
        assert_eq!(run(&SPEC, &["-12"]).unwrap(), vec![opt("1", None), opt("2", None)]);
    }

    #[test]
    fn operands_permute_until_double_dash_or_plus() {
        assert_eq!(
            run(&SPEC, &["a", "-q", "-", "--", "-v"]).unwrap(),
            vec![operand("a"), opt("q", None), operand("-"), operand("-v")]
        );
        let in_order = Spec { short: "+q", long: &[] };
        assert_eq!(run(&in_order, &["-q", "a", "-q"]).unwrap(), vec![opt("q", None), operand("a"), operand("-q")]);
        let args: Vec<String> = ["-q", "-1", "-q"].iter().map(|s| s.to_string()).collect();
        let negative: fn(&str) -> bool = |a| a.len() > 1 && a.as_bytes()[1].is_ascii_digit();
        assert_eq!(
            parse_until(&in_order, &args, negative).unwrap(),
            vec![opt("q", None), operand("-1"), operand("-q")]
        );
    }

    #[test]
    fn long_options_abbreviate_and_take_arguments() {
        assert_eq!(
            run(&SPEC, &["--lines", "3", "--lines=4", "--line-n", "--col", "--colour=never", "--qu", "--si"]).unwrap(),
            vec![
                opt("n", Some("3")),
                opt("n", Some("4")),
                opt("N", None),
                opt("color", None),
                opt("color", Some("never")),
                opt("q", None),
                opt("q", None)
            ]
        );
        // An exact name wins over the longer names it is a prefix of.
        let spec = Spec { short: "", long: &[("line", "l", HasArg::No), ("lines", "n", HasArg::No)] };
        assert_eq!(run(&spec, &["--line"]).unwrap(), vec![opt("l", None)]);
    }

    #[test]
    fn errors_are_getopts_words() {
        assert_eq!(run(&SPEC, &["-Q"]).unwrap_err(), "invalid option -- 'Q'");
        assert_eq!(run(&SPEC, &["-:"]).unwrap_err(), "invalid option -- ':'");
        assert_eq!(run(&SPEC, &["-n"]).unwrap_err(), "option requires an argument -- 'n'");
        assert_eq!(run(&SPEC, &["--foo=x"]).unwrap_err(), "unrecognized option '--foo=x'");
        assert_eq!(run(&SPEC, &["--lines"]).unwrap_err(), "option '--lines' requires an argument");
        assert_eq!(run(&SPEC, &["--qui=1"]).unwrap_err(), "option '--quiet' doesn't allow an argument");
        assert_eq!(
            run(&SPEC, &["--line"]).unwrap_err(),
            "option '--line' is ambiguous; possibilities: '--lines' '--line-number'"
        );
        assert_eq!(
            run(&SPEC, &["--co=x"]).unwrap_err(),
            "option '--co=x' is ambiguous; possibilities: '--color' '--context'"
        );
    }
}
