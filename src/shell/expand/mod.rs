//! Word expansion, in bash's order: brace expansion, tilde, parameters,
//! command substitution and arithmetic (left to right), field splitting on
//! `IFS`, pathname expansion over the storage, quote removal; and the
//! assignments it leads to.
//!
//! Expansion sees the shell only through [`ExpandEnv`] (as mvdan/sh's
//! `expand.Config`): the variables and options, where the interpreter
//! stands, the run's storage, limits and clock, the parse caches, stderr,
//! and one way back into the interpreter, running a command substitution.
//! The interpreter implements it (`interp_env.rs`); nothing here names the
//! interpreter. Callers use the entry points of [`Expand`]; the work is
//! done by the methods of [`Expander`], one file per part: `word.rs` (the
//! entry points and the walk over a word's pieces), `brace.rs`, `param.rs`
//! (`$name`, `${…}`), `subst.rs` (`$(…)`), `glob.rs` (pathnames),
//! `ansi_c.rs` (`$'…'`), `assign.rs` (assignments), and `../arith.rs`
//! (`$((…))`); this file holds the interface and what the parts share (the
//! fields being built, a parameter's value).

use std::ops::{Deref, DerefMut};
use std::rc::Rc;

use brush_parser::ast;
use brush_parser::word::{
    Parameter, ParameterExpr, ParameterTestType, ParameterTransformOp, SpecialParameter, SubstringMatchKind, WordPiece,
    WordPieceWithSource,
};
use brush_parser::ParserOptions;
use rustc_hash::FxHashMap;

use super::flow::Flow;
use super::pattern::{self, Pattern, Syntax};
use super::runtime::Runtime;
use super::state::{Position, State, Value, Var};
use super::storage_path;
use super::LimitHit;

mod ansi_c;
mod assign;
mod brace;
mod glob;
mod param;
mod subst;
mod word;

pub(crate) use ansi_c::ansi_c;
pub(crate) use brace::brace_expand;
use {glob::*, subst::*, word::*};

/// What word expansion sees of the shell. Nothing else reaches it: a new
/// need is a new method here, which says what expansion depends on.
pub(crate) trait ExpandEnv {
    /// The variables, positional parameters, options and directory.
    fn state(&self) -> &State;
    fn state_mut(&mut self) -> &mut State;
    /// Where the interpreter stands: the line for messages and `LINENO`,
    /// `FUNCNAME`, `BASH_SUBSHELL`, `$RANDOM`'s state.
    fn at(&self) -> &Position;
    fn at_mut(&mut self) -> &mut Position;
    /// The parse caches (and the parser's options).
    fn caches(&self) -> &Caches;
    fn caches_mut(&mut self) -> &mut Caches;
    /// The run: the storage (globbing, `$(< file)`), the limits, the clock.
    fn runtime(&self) -> &Runtime<'_>;
    /// Writes to the shell's current stderr.
    fn err(&mut self, bytes: &[u8]) -> Result<(), Flow>;
    /// Writes `bash: line N: message` to stderr.
    fn error(&mut self, message: impl std::fmt::Display) -> Result<(), Flow>;
    /// Runs `$(command)` (the text between the parentheses, backquotes
    /// already undone) in a subshell and returns its output whole: the one
    /// way expansion runs commands.
    fn command_output(&mut self, command: &str) -> Result<String, Flow>;
}

/// Expansion at work over an environment: the methods of the files of
/// `expand/` and of `arith.rs`. It reads as the environment it wraps.
pub(crate) struct Expander<'e, E: ?Sized>(&'e mut E);

impl<E: ?Sized> Deref for Expander<'_, E> {
    type Target = E;
    fn deref(&self) -> &E {
        self.0
    }
}

impl<E: ?Sized> DerefMut for Expander<'_, E> {
    fn deref_mut(&mut self) -> &mut E {
        self.0
    }
}

/// The entry points of expansion, for any [`ExpandEnv`] (the interpreter,
/// its builtins and redirections call these).
pub(crate) trait Expand: ExpandEnv {
    /// A word to fields: every expansion, splitting and globbing.
    fn expand_word_into(&mut self, raw: &str, out: &mut Vec<String>) -> Result<(), Flow> {
        Expander(self).expand_word_into(raw, out)
    }
    /// A word to one string: no splitting, no globbing.
    fn expand_string(&mut self, raw: &str) -> Result<String, Flow> {
        Expander(self).expand_string(raw)
    }
    /// A word to a pattern: quoted characters escaped.
    fn expand_pattern(&mut self, raw: &str) -> Result<String, Flow> {
        Expander(self).expand_pattern(raw)
    }
    /// The right side of `=~`: quoted parts match literally.
    fn expand_regex(&mut self, raw: &str) -> Result<String, Flow> {
        Expander(self).expand_regex(raw)
    }
    /// An assignment word's name, index and value.
    fn expand_assignment(&mut self, assignment: &ast::Assignment) -> Result<Assign, Flow> {
        Expander(self).expand_assignment(assignment)
    }
    /// A here-document body.
    fn expand_heredoc(&mut self, body: &str) -> Result<String, Flow> {
        Expander(self).expand_heredoc(body)
    }
    /// `$((…))`'s text, expanded then evaluated; errors reported.
    fn arith_expand(&mut self, text: &str) -> Result<i64, Flow> {
        Expander(self).arith_expand(text)
    }
    /// `(( … ))` and `let`: `None` after a reported error.
    fn arith_command(&mut self, text: &str) -> Result<Option<i64>, Flow> {
        Expander(self).arith_command(text)
    }
    /// An arithmetic value (`declare -i`, array indices), errors returned.
    fn arith_value(&mut self, text: &str) -> Result<i64, super::arith::ArithError> {
        Expander(self).arith_value(text)
    }
    /// Whether `text` matches the expanded `pattern` (`case`, `[[ == ]]`).
    fn pattern_matches(&self, pattern: &str, text: &str, extended: bool) -> Result<bool, Flow> {
        pattern_matches(self.state(), self.runtime(), pattern, text, extended)
    }
    /// Sets a scalar variable, honouring `readonly` and `declare -i`.
    fn set_var(&mut self, name: &str, value: String) -> Result<(), String> {
        Expander(self).set_var(name, value)
    }
    /// Performs an assignment (`local`: makes the name local first).
    fn assign(&mut self, assign: &Assign, local: bool) -> Result<(), String> {
        Expander(self).assign(assign, local)
    }
}

impl<E: ExpandEnv + ?Sized> Expand for E {}

/// An expanded assignment: `name=value`, `name[index]=value`, `name=(…)`, `+=`.
#[derive(Debug, Clone)]
pub(crate) struct Assign {
    pub(crate) name: String,
    pub(crate) index: Option<String>,
    pub(crate) value: AssignValue,
    pub(crate) append: bool,
}

#[derive(Debug, Clone)]
pub(crate) enum AssignValue {
    Scalar(String),
    Array(Vec<(Option<String>, String)>),
}

/// Parsed words, arithmetic and regexes, each parsed once per run.
pub(crate) struct Caches {
    pub(crate) popts: ParserOptions,
    words: FxHashMap<String, Rc<Vec<WordPieceWithSource>>>,
    pub(crate) ariths: FxHashMap<String, Rc<ast::ArithmeticExpr>>,
    pub(crate) regexes: FxHashMap<String, Rc<regex::bytes::Regex>>,
}

impl Caches {
    pub(crate) fn new(popts: ParserOptions) -> Self {
        Caches { popts, words: FxHashMap::default(), ariths: FxHashMap::default(), regexes: FxHashMap::default() }
    }

    /// The pieces of a word, parsed once per run.
    pub(crate) fn word_pieces(&mut self, word: &str) -> Option<Rc<Vec<WordPieceWithSource>>> {
        if let Some(pieces) = self.words.get(word) {
            return Some(pieces.clone());
        }
        let pieces = Rc::new(crate::shell::parse::parse_word(word, &self.popts)?);
        if self.words.len() < 4096 {
            self.words.insert(word.to_string(), pieces.clone());
        }
        Some(pieces)
    }
}

/// The fake process id `$$` shows.
pub(crate) const FAKE_PID: u32 = 4242;

/// Most words a brace expansion may produce (more is refused with the
/// output limit: bash would build them all).
const MAX_BRACE_WORDS: usize = 1 << 17;

/// Whether a word needs no expansion at all (the hot path: `echo hi`).
fn is_plain(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./,:=+@%^".contains(&b) || b >= 0x80)
}

/// Expansion results being cut into fields.
pub(crate) struct Fields {
    /// Split unquoted expansions on IFS (off in assignments, `[[ ]]`, `case`…).
    split: bool,
    /// How `pat` escapes quoted characters.
    mode: PatMode,
    /// Unquoted text is split too (the word of `${v:-word}`).
    split_text: bool,
    ifs: String,
    cur: String,
    /// `cur` as a pattern: quoted pattern characters escaped.
    pat: String,
    has_glob: bool,
    /// A quoted part makes the field exist even when empty (`""`).
    exists: bool,
    done: Vec<(String, Option<String>)>,
    /// Bytes appended so far (text and pattern): checked against the
    /// memory budget after each piece of a word.
    bytes: usize,
}

impl Fields {
    fn new(split: bool, ifs: String) -> Self {
        Fields {
            split,
            mode: PatMode::Glob,
            split_text: false,
            ifs,
            cur: String::new(),
            pat: String::new(),
            has_glob: false,
            exists: false,
            done: Vec::new(),
            bytes: 0,
        }
    }

    /// Text as written in the word.
    fn lit(&mut self, s: &str, quoted: bool) {
        self.bytes = self.bytes.saturating_add(s.len().saturating_mul(2));
        self.cur.push_str(s);
        if quoted && self.mode == PatMode::Regex {
            self.pat.push_str(&regex::escape(s));
        } else if quoted && self.mode == PatMode::Replacement {
            for c in s.chars() {
                if c == '&' {
                    self.pat.push('\\');
                }
                self.pat.push(c);
            }
        } else if quoted {
            pattern::escape(s, &mut self.pat);
        } else {
            for c in s.chars() {
                // `(` after `@`, `!` or `+`: an extended group (with extglob).
                if matches!(c, '*' | '?' | '[') || (c == '(' && self.pat.ends_with(['@', '!', '+'])) {
                    self.has_glob = true;
                }
                self.pat.push(c);
            }
        }
    }

    /// A literal character escaped with a backslash.
    fn escaped(&mut self, c: char) {
        self.cur.push(c);
        match self.mode {
            PatMode::Regex => {
                self.pat.push_str(&regex::escape(c.encode_utf8(&mut [0u8; 4])));
                return;
            }
            PatMode::Replacement => {
                self.pat.push('\\');
                self.pat.push(c);
                return;
            }
            PatMode::Glob => {}
        }
        if matches!(c, '*' | '?' | '[' | ']' | '\\' | '(' | ')' | '|' | '@' | '!' | '+') {
            self.pat.push('\\');
        }
        self.pat.push(c);
    }

    /// The result of an expansion: split on IFS when unquoted.
    fn exp(&mut self, s: &str, quoted: bool) {
        if quoted || !self.split {
            self.lit(s, quoted);
            return;
        }
        if self.ifs.is_empty() {
            self.lit(s, false);
            return;
        }
        let mut just_split_ws = false;
        for c in s.chars() {
            if self.ifs.contains(c) {
                if matches!(c, ' ' | '\t' | '\n') {
                    if !self.cur.is_empty() || self.exists {
                        self.finish();
                        just_split_ws = true;
                    }
                } else {
                    if !(self.cur.is_empty() && !self.exists && just_split_ws) {
                        self.exists = true;
                        self.finish();
                    }
                    just_split_ws = false;
                }
            } else {
                just_split_ws = false;
                let mut buf = [0u8; 4];
                self.lit(c.encode_utf8(&mut buf), false);
            }
        }
    }

    /// A quoted part: the field exists even if empty.
    fn mark(&mut self) {
        self.exists = true;
    }

    /// Between two elements of `"$@"`: a new field (a space when not splitting).
    fn brk(&mut self) {
        if self.split {
            if !self.cur.is_empty() || self.exists {
                self.finish();
            }
        } else {
            self.cur.push(' ');
            self.pat.push(' ');
        }
    }

    fn finish(&mut self) {
        let text = std::mem::take(&mut self.cur);
        let pat = std::mem::take(&mut self.pat);
        self.done.push((text, self.has_glob.then_some(pat)));
        self.has_glob = false;
        self.exists = false;
    }

    fn end(&mut self) {
        if !self.cur.is_empty() || self.exists {
            self.finish();
        }
    }
}

/// What `Fields::pat` is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PatMode {
    /// A glob pattern: quoted `*?[]\` escaped with a backslash.
    Glob,
    /// A regex (`[[ =~ ]]`): quoted parts escaped as regex literals.
    Regex,
    /// The replacement of `${v/p/r}`: a quoted `&` is escaped (an unquoted
    /// one stands for the match), backslashes are kept.
    Replacement,
}

/// A parameter's value before an operator applies.
enum PVal {
    Unset,
    Str(String),
    /// `$@`, `${a[@]}` (or with `*`: `concat`).
    List(Vec<String>, bool),
}

/// Expansion errors end the command (and, as in a non-interactive bash,
/// the script) with this status after a message.
fn fatal(status: i32) -> Flow {
    Flow::Exit(status)
}

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// The status an unset-variable error exits with: 127 for the shell, 1
    /// for a subshell (as bash does).
    fn unset_status(&self) -> i32 {
        // bash exits 127 from the top level, but 1 in a subshell or under
        // `set -e`.
        if self.at().subshells > 0 || self.state().options.errexit {
            1
        } else {
            127
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Limits;
    use crate::storage::{MemoryStorage, Storage};

    /// An environment that is not the interpreter: what it holds is all
    /// expansion may see, and `$(…)` answers from a table.
    struct Bare<'r> {
        state: State,
        at: Position,
        caches: Caches,
        runtime: &'r Runtime<'r>,
        stderr: Vec<u8>,
        commands: Vec<String>,
    }

    impl ExpandEnv for Bare<'_> {
        fn state(&self) -> &State {
            &self.state
        }
        fn state_mut(&mut self) -> &mut State {
            &mut self.state
        }
        fn at(&self) -> &Position {
            &self.at
        }
        fn at_mut(&mut self) -> &mut Position {
            &mut self.at
        }
        fn caches(&self) -> &Caches {
            &self.caches
        }
        fn caches_mut(&mut self) -> &mut Caches {
            &mut self.caches
        }
        fn runtime(&self) -> &Runtime<'_> {
            self.runtime
        }
        fn err(&mut self, bytes: &[u8]) -> Result<(), Flow> {
            self.stderr.extend_from_slice(bytes);
            Ok(())
        }
        fn error(&mut self, message: impl std::fmt::Display) -> Result<(), Flow> {
            let line = format!("bash: line {}: {message}\n", self.at.line);
            self.err(line.as_bytes())
        }
        fn command_output(&mut self, command: &str) -> Result<String, Flow> {
            self.commands.push(command.to_string());
            Ok(format!("<{command}>\n\n"))
        }
    }

    #[test]
    fn expansion_runs_over_any_environment() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/a.txt", b"").unwrap();
        storage.write("/b.txt", b"").unwrap();
        let limits = Limits::default();
        let runtime = Runtime::new(&storage, &limits, None);
        let mut env = Bare {
            state: State::new("/", &[("x".to_string(), "a b".to_string())]),
            at: Position::default(),
            caches: Caches::new(crate::shell::parse::options_with(false)),
            runtime: &runtime,
            stderr: Vec::new(),
            commands: Vec::new(),
        };
        let mut fields = Vec::new();
        env.expand_word_into("$x", &mut fields).unwrap();
        env.expand_word_into("${y:-d}$((1+2))", &mut fields).unwrap();
        env.expand_word_into("\"$(echo hi)\"", &mut fields).unwrap();
        env.expand_word_into("*.txt", &mut fields).unwrap();
        assert_eq!(fields, ["a", "b", "d3", "<echo hi>", "a.txt", "b.txt"]);
        assert_eq!(env.commands, ["echo hi"]);
        env.assign(
            &Assign {
                name: "n".into(),
                index: Some("2".into()),
                value: AssignValue::Scalar("v".into()),
                append: false,
            },
            false,
        )
        .unwrap();
        assert_eq!(env.expand_string("${n[2]}/${#n[@]}").unwrap(), "v/1");
        assert_eq!(env.expand_string("${z?gone}"), Err(Flow::Exit(127)));
        assert_eq!(String::from_utf8_lossy(&env.stderr), "bash: line 1: z: gone\n");
    }
}
