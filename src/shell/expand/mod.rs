//! Word expansion, in bash's order: brace expansion, tilde, parameters,
//! command substitution and arithmetic (left to right), field splitting on
//! `IFS`, pathname expansion over the storage, quote removal.
//!
//! The parts, one file each: `word.rs` (the entry points and the walk over
//! a word's pieces), `brace.rs`, `param.rs` (`$name`, `${…}`), `subst.rs`
//! (`$(…)`), `glob.rs` (pathnames), `ansi_c.rs` (`$'…'`); this file holds
//! what they share (the fields being built, a parameter's value).

use brush_parser::word::{
    Parameter, ParameterExpr, ParameterTestType, ParameterTransformOp, SpecialParameter, SubstringMatchKind, WordPiece,
    WordPieceWithSource,
};

use super::exec::{Assign, AssignValue, Flow, Interp};
use super::pattern::{self, Pattern};
use super::state::{Value, Var};
use super::storage_path;
use super::LimitHit;

mod ansi_c;
mod brace;
mod glob;
mod param;
mod subst;
mod word;

pub(crate) use ansi_c::ansi_c;
pub(crate) use brace::brace_expand;
use {subst::*, word::*};

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

impl Interp<'_> {
    /// The status an unset-variable error exits with: 127 for the shell, 1
    /// for a subshell (as bash does).
    fn unset_status(&self) -> i32 {
        if self.at.subshells > 0 {
            1
        } else {
            127
        }
    }
}
