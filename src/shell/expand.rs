//! Word expansion, in bash's order: brace expansion, tilde, parameters,
//! command substitution and arithmetic (left to right), field splitting on
//! `IFS`, pathname expansion over the storage, quote removal.

use brush_parser::word::{
    Parameter, ParameterExpr, ParameterTestType, ParameterTransformOp, SpecialParameter, SubstringMatchKind, WordPiece,
    WordPieceWithSource,
};

use super::exec::{Assign, AssignValue, Flow, Interp};
use super::pattern::{self, Pattern};
use super::state::Value;
use super::storage_path;
use super::LimitHit;

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
        if self.subshells > 0 {
            1
        } else {
            127
        }
    }
}

impl Interp<'_> {
    fn ifs(&self) -> String {
        self.st.get("IFS").map_or_else(|| " \t\n".to_string(), str::to_string)
    }

    /// Expands a word into fields (all expansions, splitting and globbing).
    pub(crate) fn expand_word_into(&mut self, raw: &str, out: &mut Vec<String>) -> Result<(), Flow> {
        if is_plain(raw) {
            out.push(raw.to_string());
            return Ok(());
        }
        if raw.contains('{') {
            let words = brace_expand(raw);
            if words.len() > MAX_BRACE_WORDS {
                return Err(Flow::Limit(super::LimitHit::Output));
            }
            if words.len() > 1 {
                for word in words {
                    self.expand_fields(&word, out)?;
                }
                return Ok(());
            }
        }
        self.expand_fields(raw, out)
    }

    fn expand_fields(&mut self, raw: &str, out: &mut Vec<String>) -> Result<(), Flow> {
        let mut fields = Fields::new(true, self.ifs());
        self.expand_raw(raw, &mut fields, true)?;
        fields.end();
        let noglob = self.st.options.noglob;
        for (text, pat) in fields.done {
            match pat {
                Some(pat) if !noglob => self.glob_word(&pat, text, out)?,
                _ => out.push(text),
            }
        }
        Ok(())
    }

    /// Expands a word to one string: no splitting, no globbing (assignment
    /// values, redirection targets, `case` words, `[[ ]]` operands).
    pub(crate) fn expand_string(&mut self, raw: &str) -> Result<String, Flow> {
        if is_plain(raw) {
            return Ok(raw.to_string());
        }
        let mut fields = Fields::new(false, String::new());
        self.expand_raw(raw, &mut fields, true)?;
        Ok(fields.cur)
    }

    /// Expands a word to a pattern: quoted characters escaped.
    pub(crate) fn expand_pattern(&mut self, raw: &str) -> Result<String, Flow> {
        if is_plain(raw) {
            return Ok(raw.to_string());
        }
        let mut fields = Fields::new(false, String::new());
        self.expand_raw(raw, &mut fields, true)?;
        Ok(fields.pat)
    }

    /// Expands the right side of `=~`: quoted parts match literally.
    pub(crate) fn expand_regex(&mut self, raw: &str) -> Result<String, Flow> {
        let mut fields = Fields::new(false, String::new());
        fields.mode = PatMode::Regex;
        self.expand_raw(raw, &mut fields, true)?;
        Ok(fields.pat)
    }

    /// Expands the replacement of `${v/p/r}` (see [`PatMode::Replacement`]).
    fn expand_replacement(&mut self, raw: &str) -> Result<String, Flow> {
        let mut fields = Fields::new(false, String::new());
        fields.mode = PatMode::Replacement;
        self.expand_raw(raw, &mut fields, true)?;
        Ok(fields.pat)
    }

    /// Expands an assignment value (tilde at the start, no splitting or
    /// globbing) or an array literal (each element split and globbed).
    pub(crate) fn expand_assignment(&mut self, assignment: &brush_parser::ast::Assignment) -> Result<Assign, Flow> {
        let (name, index) = match &assignment.name {
            brush_parser::ast::AssignmentName::VariableName(name) => (name.clone(), None),
            brush_parser::ast::AssignmentName::ArrayElementName(name, index) => {
                let key = self.expand_string(index)?;
                (name.clone(), Some(key))
            }
        };
        let value = match &assignment.value {
            brush_parser::ast::AssignmentValue::Scalar(word) => AssignValue::Scalar(self.expand_string(&word.value)?),
            brush_parser::ast::AssignmentValue::Array(elements) => {
                let mut values = Vec::new();
                for (key, word) in elements {
                    match key {
                        Some(key) => {
                            let key = self.expand_string(&key.value)?;
                            let value = self.expand_string(&word.value)?;
                            values.push((Some(key), value));
                        }
                        None => {
                            let mut words = Vec::new();
                            self.expand_word_into(&word.value, &mut words)?;
                            values.extend(words.into_iter().map(|w| (None, w)));
                        }
                    }
                }
                AssignValue::Array(values)
            }
        };
        // A variable may not outgrow a few times the output limit: doubling
        // a string in a loop must not exhaust memory.
        let size = match &value {
            AssignValue::Scalar(s) => s.len(),
            AssignValue::Array(items) => items.iter().map(|(k, v)| v.len() + k.as_ref().map_or(0, String::len)).sum(),
        };
        if size > self.rt.limits.max_output_bytes.saturating_mul(4) {
            return Err(Flow::Limit(super::LimitHit::Output));
        }
        Ok(Assign { name, index, value, append: assignment.append })
    }

    /// Expands a here-document body (quotes are literal there).
    pub(crate) fn expand_heredoc(&mut self, body: &str) -> Result<String, Flow> {
        if !body.contains(['$', '`', '\\']) {
            return Ok(body.to_string());
        }
        // A backslash-newline joins lines, as in bash.
        let mut joined = String::with_capacity(body.len());
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('\n') => {}
                    Some(next) => {
                        joined.push(c);
                        joined.push(next);
                    }
                    None => joined.push(c),
                }
            } else {
                joined.push(c);
            }
        }
        let body = joined.as_str();
        let Some(pieces) = super::parse::parse_heredoc(body, &self.popts) else {
            return Ok(body.to_string());
        };
        let mut fields = Fields::new(false, String::new());
        self.expand_pieces(&pieces, true, &mut fields)?;
        Ok(fields.cur)
    }

    /// Tilde prefix, then the word's pieces.
    fn expand_raw(&mut self, raw: &str, fields: &mut Fields, tilde: bool) -> Result<(), Flow> {
        self.rt.check_stack()?;
        let mut rest = raw;
        if tilde && raw.starts_with('~') {
            let end = raw.find('/').unwrap_or(raw.len());
            let prefix = &raw[1..end];
            let home = match prefix {
                "" => Some(self.st.get("HOME").unwrap_or("/").to_string()),
                "+" => self.st.get("PWD").map(str::to_string),
                "-" => self.st.get("OLDPWD").map(str::to_string),
                _ => None,
            };
            if let Some(home) = home {
                fields.lit(&home, true);
                fields.mark();
                rest = &raw[end..];
            }
        }
        if rest.is_empty() {
            return Ok(());
        }
        if is_plain(rest) {
            fields.lit(rest, false);
            return Ok(());
        }
        match self.word_pieces(rest) {
            Some(pieces) => {
                if looks_bad(&pieces) {
                    self.check_bad_substitution(rest)?;
                }
                self.expand_pieces(&pieces, false, fields)
            }
            None => {
                self.check_bad_substitution(rest)?;
                fields.lit(rest, false);
                Ok(())
            }
        }
    }

    fn expand_pieces(&mut self, pieces: &[WordPieceWithSource], quoted: bool, fields: &mut Fields) -> Result<(), Flow> {
        for piece in pieces {
            // `$x$x$x…`: a word may not grow past the memory budget.
            if fields.bytes > self.rt.limits.max_memory_bytes {
                return Err(Flow::Limit(LimitHit::Memory));
            }
            match &piece.piece {
                WordPiece::Text(text) => {
                    if fields.split_text && !quoted {
                        fields.exp(text, false);
                    } else {
                        fields.lit(text, quoted);
                    }
                }
                WordPiece::SingleQuotedText(text) => {
                    fields.lit(text, true);
                    fields.mark();
                }
                WordPiece::AnsiCQuotedText(text) => {
                    fields.lit(&ansi_c(text), true);
                    fields.mark();
                }
                WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    if !inner.iter().all(|p| is_at_expansion(&p.piece)) || inner.is_empty() {
                        fields.mark();
                    }
                    self.expand_pieces(inner, true, fields)?;
                }
                WordPiece::TildeExpansion(_) => fields.lit("~", quoted),
                WordPiece::ParameterExpansion(expr) => self.expand_parameter(expr, quoted, fields)?,
                WordPiece::CommandSubstitution(command) => {
                    let text = self.command_substitution(command)?;
                    fields.exp(&text, quoted);
                }
                WordPiece::BackquotedCommandSubstitution(command) => {
                    // Inside backquotes, `\$` and `\\` lose their backslash.
                    let command = unescape_backquoted(command);
                    let text = self.command_substitution(&command)?;
                    fields.exp(&text, quoted);
                }
                WordPiece::EscapeSequence(seq) => {
                    let mut chars = seq.chars();
                    chars.next();
                    match chars.next() {
                        Some('\n') | None => {}
                        Some(c) => fields.escaped(c),
                    }
                }
                WordPiece::ArithmeticExpression(expr) => {
                    let value = self.arith_expand(&expr.value)?;
                    fields.exp(&value.to_string(), quoted);
                }
            }
        }
        Ok(())
    }

    /// Runs `$(…)` in a subshell and returns its output without the
    /// trailing newlines. `set -e` is off inside, as in bash.
    pub(crate) fn command_substitution(&mut self, command: &str) -> Result<String, Flow> {
        let program = match super::parse::parse_program(command, &self.popts) {
            Ok(program) => program,
            Err(message) => {
                self.err(message.as_bytes())?;
                self.subst_status = Some(2);
                return Ok(String::new());
            }
        };
        // `$(< file)`: the file's content.
        if let Some(word) = lone_input_redirect(&program) {
            let name = self.expand_string(word)?;
            let path = storage_path(&self.st.cwd, &name);
            return match self.rt.storage.read(&path) {
                Ok(data) => {
                    self.subst_status = Some(0);
                    Ok(trim_newlines(String::from_utf8_lossy(&data).into_owned()))
                }
                Err(error) => {
                    self.error(format_args!("{name}: {}", super::command::error_reason(&error)))?;
                    self.subst_status = Some(1);
                    Ok(String::new())
                }
            };
        }
        let (data, status) = self.capture(|s| {
            s.st.options.errexit = false;
            s.run_program(&program)
        })?;
        self.subst_status = Some(status);
        self.st.last_status = status;
        Ok(trim_newlines(String::from_utf8_lossy(&data).into_owned()))
    }

    /// Runs `f` in a subshell and returns what it wrote to stdout.
    pub(crate) fn capture(&mut self, f: impl FnOnce(&mut Self) -> super::exec::Res) -> Result<(Vec<u8>, i32), Flow> {
        let saved = self.fd;
        self.outs.push(super::command::Output::new(self.rt.limits.max_output_bytes));
        self.fd.out = self.outs.len() - 1;
        self.scopes += 1;
        let line = self.line;
        // Inside, `$LINENO` (and an `ERR` trap's) is the line of the command
        // holding the substitution, as in bash for a one-line `$(…)`.
        let saved_line = self.st.trap_line;
        self.st.trap_line = Some(saved_line.unwrap_or(line));
        let result = self.subshell(f);
        self.st.trap_line = saved_line;
        self.line = line;
        self.scopes -= 1;
        let data = self.outs.pop().map(|mut o| o.take()).unwrap_or_default();
        self.fd = saved;
        Ok((data, result?))
    }

    /// A parameter's value (`indirect`: `${!name}`).
    fn param_value(&mut self, parameter: &Parameter, indirect: bool) -> Result<PVal, Flow> {
        if indirect {
            // `${!ref}` of a nameref is the name it refers to.
            if let Parameter::Named(name) = parameter {
                if let Some(var) = self.st.vars.get(name.as_str()).filter(|v| v.nameref) {
                    return Ok(match &var.value {
                        Value::Str(t) if !t.is_empty() => PVal::Str(t.clone()),
                        _ => PVal::Unset,
                    });
                }
            }
        }
        let value = self.param_value_direct(parameter)?;
        if !indirect {
            return Ok(value);
        }
        let name = match value {
            PVal::Str(s) => s,
            PVal::List(items, _) => items.join(" "),
            PVal::Unset => return Ok(PVal::Unset),
        };
        match super::parse::parse_word(&format!("${{{name}}}"), &self.popts).as_deref() {
            Some(
                [WordPieceWithSource {
                    piece: WordPiece::ParameterExpansion(ParameterExpr::Parameter { parameter, .. }),
                    ..
                }],
            ) => self.param_value_direct(parameter),
            _ => {
                self.error(format_args!("{name}: invalid variable name"))?;
                Err(fatal(1))
            }
        }
    }

    fn param_value_direct(&mut self, parameter: &Parameter) -> Result<PVal, Flow> {
        if let Some(target) = self.nameref_target(parameter)? {
            return match target {
                Some(target) => self.param_value_direct(&target),
                None => Ok(PVal::Unset),
            };
        }
        Ok(match parameter {
            Parameter::Positional(0) => PVal::Str(self.st.arg0.to_string()),
            Parameter::Positional(n) => match self.st.positional.get(*n as usize - 1) {
                Some(v) => PVal::Str(v.clone()),
                None => PVal::Unset,
            },
            Parameter::Special(special) => match special {
                SpecialParameter::AllPositionalParameters { concatenate } => {
                    PVal::List(self.st.positional.to_vec(), *concatenate)
                }
                SpecialParameter::PositionalParameterCount => PVal::Str(self.st.positional.len().to_string()),
                SpecialParameter::LastExitStatus => PVal::Str(self.st.last_status.to_string()),
                SpecialParameter::CurrentOptionFlags => PVal::Str(self.st.options.flags()),
                SpecialParameter::ProcessId => PVal::Str(FAKE_PID.to_string()),
                SpecialParameter::LastBackgroundProcessId => {
                    self.st.last_bg.map_or(PVal::Unset, |pid| PVal::Str(pid.to_string()))
                }
                SpecialParameter::ShellName => PVal::Str(self.st.arg0.to_string()),
            },
            Parameter::Named(name) => match self.dynamic_var(name) {
                Some(v) => v,
                None => match self.st.vars.get(name.as_str()) {
                    Some(var) => match var.value.scalar() {
                        Some(s) => PVal::Str(s.to_string()),
                        None => PVal::Unset,
                    },
                    None => PVal::Unset,
                },
            },
            Parameter::NamedWithIndex { name, index } => {
                if name == "FUNCNAME" {
                    let i = self.arith_index(index)?;
                    let names = &self.function_names;
                    return Ok(match usize::try_from(i).ok().and_then(|i| names.iter().rev().nth(i)) {
                        Some(s) => PVal::Str(s.clone()),
                        None => PVal::Unset,
                    });
                }
                if name == "PIPESTATUS" {
                    let i = self.arith_index(index)?;
                    return Ok(match usize::try_from(i).ok().and_then(|i| self.st.pipestatus.get(i)) {
                        Some(s) => PVal::Str(s.to_string()),
                        None => PVal::Unset,
                    });
                }
                let assoc = matches!(self.st.vars.get(name.as_str()).map(|v| &v.value), Some(Value::Assoc(_)));
                if assoc {
                    let key = self.expand_string(index)?;
                    match self.st.vars.get(name.as_str()).map(|v| &v.value) {
                        Some(Value::Assoc(map)) => map.get(&key).map_or(PVal::Unset, |v| PVal::Str(v.clone())),
                        _ => PVal::Unset,
                    }
                } else {
                    let i = self.arith_index(index)?;
                    let Some(i) = self.resolve_index(name, i) else {
                        self.error(format_args!("{name}: bad array subscript"))?;
                        return Ok(PVal::Unset);
                    };
                    match self.st.vars.get(name.as_str()).map(|v| &v.value) {
                        Some(Value::Indexed(map)) => map.get(&i).map_or(PVal::Unset, |v| PVal::Str(v.clone())),
                        Some(Value::Str(s)) if i == 0 => PVal::Str(s.clone()),
                        _ => PVal::Unset,
                    }
                }
            }
            Parameter::NamedWithAllIndices { name, concatenate } => {
                if name == "PIPESTATUS" {
                    return Ok(PVal::List(self.st.pipestatus.iter().map(i32::to_string).collect(), *concatenate));
                }
                if name == "FUNCNAME" {
                    return Ok(PVal::List(self.function_names.iter().rev().cloned().collect(), *concatenate));
                }
                match self.st.vars.get(name.as_str()) {
                    Some(var) => PVal::List(var.value.elements(), *concatenate),
                    None => PVal::List(Vec::new(), *concatenate),
                }
            }
        })
    }

    /// The parameter a nameref stands for (`declare -n r=a`: `${r[1]}` is
    /// `${a[1]}`, `declare -n e='a[1]'`: `$e` is `${a[1]}`); `None` when the
    /// parameter is no nameref, `Some(None)` for a circular chain (warned,
    /// unset, as bash).
    pub(crate) fn nameref_target(&mut self, parameter: &Parameter) -> Result<Option<Option<Parameter>>, Flow> {
        let name = match parameter {
            Parameter::Named(name)
            | Parameter::NamedWithIndex { name, .. }
            | Parameter::NamedWithAllIndices { name, .. } => name,
            _ => return Ok(None),
        };
        if !self.st.vars.get(name.as_str()).is_some_and(|v| v.nameref) {
            return Ok(None);
        }
        let target = match self.st.resolve(name) {
            Ok(target) if *target != **name => target.into_owned(),
            Ok(_) => return Ok(None),
            Err(start) => {
                self.error(format_args!("warning: {start}: circular name reference"))?;
                return Ok(Some(None));
            }
        };
        let (base, subscript) = match target.strip_suffix(']').and_then(|t| t.split_once('[')) {
            Some((base, index)) => (base.to_string(), Some(index.to_string())),
            None => (target, None),
        };
        Ok(Some(Some(match (parameter, subscript) {
            (Parameter::Named(_), Some(index)) => Parameter::NamedWithIndex { name: base, index },
            (Parameter::Named(_), None) => Parameter::Named(base),
            (Parameter::NamedWithIndex { index, .. }, _) => {
                Parameter::NamedWithIndex { name: base, index: index.clone() }
            }
            (Parameter::NamedWithAllIndices { concatenate, .. }, _) => {
                Parameter::NamedWithAllIndices { name: base, concatenate: *concatenate }
            }
            _ => return Ok(None),
        })))
    }

    /// `$RANDOM`, `$LINENO`, `$SECONDS`, `$BASHPID`, `$PIPESTATUS`.
    fn dynamic_var(&mut self, name: &str) -> Option<PVal> {
        Some(match name {
            "RANDOM" => {
                // A fixed-seed linear congruential generator: runs are reproducible.
                self.random = self.random.wrapping_mul(1_103_515_245).wrapping_add(12345);
                PVal::Str(((self.random >> 16) & 0x7fff).to_string())
            }
            "LINENO" => PVal::Str(self.st.trap_line.unwrap_or(self.line).to_string()),
            "SECONDS" => PVal::Str(self.rt.elapsed_secs().to_string()),
            "BASHPID" => PVal::Str(FAKE_PID.to_string()),
            "PIPESTATUS" => PVal::Str(self.st.pipestatus.first().copied().unwrap_or(0).to_string()),
            "FUNCNAME" => match self.function_names.last() {
                Some(name) => PVal::Str(name.clone()),
                None => PVal::Unset,
            },
            _ => return None,
        })
    }

    fn arith_index(&mut self, index: &str) -> Result<i64, Flow> {
        let text = self.expand_string(index)?;
        self.arith_expand_text(&text)
    }

    fn unbound(&mut self, parameter: &Parameter) -> Result<(), Flow> {
        let name = match parameter {
            Parameter::Positional(n) => n.to_string(),
            Parameter::Named(name) => name.clone(),
            Parameter::NamedWithIndex { name, index } => format!("{name}[{index}]"),
            _ => return Ok(()),
        };
        self.error(format_args!("{name}: unbound variable"))?;
        Err(fatal(self.unset_status()))
    }

    /// Expands `${…}` into `fields`.
    fn expand_parameter(&mut self, expr: &ParameterExpr, quoted: bool, fields: &mut Fields) -> Result<(), Flow> {
        match expr {
            ParameterExpr::Parameter { parameter, indirect } => {
                let value = self.param_value(parameter, *indirect)?;
                if matches!(value, PVal::Unset) && self.st.options.nounset {
                    self.unbound(parameter)?;
                }
                self.emit(value, quoted, fields);
            }
            ParameterExpr::UseDefaultValues { parameter, indirect, test_type, default_value } => {
                let value = self.param_value(parameter, *indirect)?;
                if is_missing(&value, test_type) {
                    if let Some(word) = default_value {
                        self.expand_inner(word, quoted, fields)?;
                    }
                } else {
                    self.emit(value, quoted, fields);
                }
            }
            ParameterExpr::AssignDefaultValues { parameter, indirect, test_type, default_value } => {
                let value = self.param_value(parameter, *indirect)?;
                if is_missing(&value, test_type) {
                    let text = match default_value {
                        Some(word) => self.expand_string(word)?,
                        None => String::new(),
                    };
                    let name = match parameter {
                        Parameter::Named(name) => name.clone(),
                        Parameter::NamedWithIndex { name, index } => {
                            let key = self.expand_string(index)?;
                            let assign = Assign {
                                name: name.clone(),
                                index: Some(key),
                                value: AssignValue::Scalar(text.clone()),
                                append: false,
                            };
                            if let Err(message) = self.assign(&assign, false) {
                                self.error(message)?;
                                return Err(fatal(1));
                            }
                            fields.exp(&text, quoted);
                            return Ok(());
                        }
                        other => {
                            self.error(format_args!("{}: cannot assign in this way", param_name(other)))?;
                            return Err(fatal(1));
                        }
                    };
                    if let Err(message) = self.set_var(&name, text.clone()) {
                        self.error(message)?;
                        return Err(fatal(1));
                    }
                    fields.exp(&text, quoted);
                } else {
                    self.emit(value, quoted, fields);
                }
            }
            ParameterExpr::IndicateErrorIfNullOrUnset { parameter, indirect, test_type, error_message } => {
                let value = self.param_value(parameter, *indirect)?;
                if is_missing(&value, test_type) {
                    let message = match error_message {
                        Some(word) => self.expand_string(word)?,
                        None => match test_type {
                            ParameterTestType::UnsetOrNull => "parameter null or not set".to_string(),
                            ParameterTestType::Unset => "parameter not set".to_string(),
                        },
                    };
                    self.error(format_args!("{}: {message}", param_name(parameter)))?;
                    return Err(fatal(self.unset_status()));
                }
                self.emit(value, quoted, fields);
            }
            ParameterExpr::UseAlternativeValue { parameter, indirect, test_type, alternative_value } => {
                let value = self.param_value(parameter, *indirect)?;
                if !is_missing(&value, test_type) {
                    if let Some(word) = alternative_value {
                        self.expand_inner(word, quoted, fields)?;
                    }
                }
            }
            ParameterExpr::ParameterLength { parameter, indirect } => {
                let value = self.param_value(parameter, *indirect)?;
                let n = match value {
                    PVal::Unset => {
                        if self.st.options.nounset {
                            self.unbound(parameter)?;
                        }
                        0
                    }
                    PVal::Str(s) => s.chars().count(),
                    PVal::List(items, _) => items.len(),
                };
                fields.exp(&n.to_string(), quoted);
            }
            ParameterExpr::RemoveSmallestSuffixPattern { parameter, indirect, pattern }
            | ParameterExpr::RemoveLargestSuffixPattern { parameter, indirect, pattern }
            | ParameterExpr::RemoveSmallestPrefixPattern { parameter, indirect, pattern }
            | ParameterExpr::RemoveLargestPrefixPattern { parameter, indirect, pattern } => {
                let value = self.checked_value(parameter, *indirect)?;
                let pat = match pattern {
                    Some(p) => self.expand_pattern(p)?,
                    None => String::new(),
                };
                let (suffix, longest) = match expr {
                    ParameterExpr::RemoveSmallestSuffixPattern { .. } => (true, false),
                    ParameterExpr::RemoveLargestSuffixPattern { .. } => (true, true),
                    ParameterExpr::RemoveSmallestPrefixPattern { .. } => (false, false),
                    _ => (false, true),
                };
                let compiled = Pattern::with(&pat, self.pattern_syntax(false));
                let rt = self.rt;
                let check = move || rt.check();
                let value = try_map_value(value, |s| remove_affix(&s, &compiled, suffix, longest, &check))?;
                self.emit(value, quoted, fields);
            }
            ParameterExpr::Substring { parameter, indirect, offset, length } => {
                let value = self.checked_value(parameter, *indirect)?;
                let offset = self.arith_expand(&offset.value)?;
                let length = match length {
                    Some(l) => Some(self.arith_expand(&l.value)?),
                    None => None,
                };
                let positional =
                    matches!(parameter, Parameter::Special(SpecialParameter::AllPositionalParameters { .. }));
                let value = match value {
                    PVal::Unset => PVal::Unset,
                    PVal::Str(s) => {
                        let chars: Vec<char> = s.chars().collect();
                        match slice_range(chars.len(), offset, length) {
                            Some((a, b)) => PVal::Str(chars[a..b].iter().collect()),
                            None => {
                                if length.is_some_and(|l| l < 0) {
                                    self.error(format_args!("{}: substring expression < 0", length.unwrap_or(0)))?;
                                    return Err(fatal(1));
                                }
                                PVal::Str(String::new())
                            }
                        }
                    }
                    PVal::List(items, concat) => {
                        // `${@:0}` starts at $0.
                        let items = if positional {
                            std::iter::once(self.st.arg0.to_string()).chain(items).collect::<Vec<_>>()
                        } else {
                            items
                        };
                        match slice_range(items.len(), offset, length) {
                            Some((a, b)) => PVal::List(items[a..b].to_vec(), concat),
                            None => PVal::List(Vec::new(), concat),
                        }
                    }
                };
                self.emit(value, quoted, fields);
            }
            ParameterExpr::Transform { parameter, indirect, op } => {
                let value = self.checked_value(parameter, *indirect)?;
                let value = match op {
                    ParameterTransformOp::ToUpperCase => map_value(value, |s| s.to_uppercase()),
                    ParameterTransformOp::ToLowerCase => map_value(value, |s| s.to_lowercase()),
                    ParameterTransformOp::CapitalizeInitial => map_value(value, |s| change_first(&s, true)),
                    ParameterTransformOp::Quoted => map_value(value, |s| super::builtins::single_quote(&s)),
                    ParameterTransformOp::ExpandEscapeSequences => map_value(value, |s| ansi_c(&s)),
                    ParameterTransformOp::ToAttributeFlags => {
                        let flags = match parameter {
                            Parameter::Named(name) => super::builtins::attribute_flags(&self.st, name),
                            _ => String::new(),
                        };
                        PVal::Str(flags)
                    }
                    _ => value,
                };
                self.emit(value, quoted, fields);
            }
            ParameterExpr::UppercaseFirstChar { parameter, indirect, pattern }
            | ParameterExpr::UppercasePattern { parameter, indirect, pattern }
            | ParameterExpr::LowercaseFirstChar { parameter, indirect, pattern }
            | ParameterExpr::LowercasePattern { parameter, indirect, pattern } => {
                let value = self.checked_value(parameter, *indirect)?;
                let pat = match pattern {
                    Some(p) if !p.is_empty() => {
                        Some(Pattern::with(&self.expand_pattern(p)?, self.pattern_syntax(false)))
                    }
                    _ => None,
                };
                let (upper, all) = match expr {
                    ParameterExpr::UppercaseFirstChar { .. } => (true, false),
                    ParameterExpr::UppercasePattern { .. } => (true, true),
                    ParameterExpr::LowercaseFirstChar { .. } => (false, false),
                    _ => (false, true),
                };
                let value = map_value(value, |s| change_case(&s, upper, all, pat.as_ref()));
                self.emit(value, quoted, fields);
            }
            ParameterExpr::ReplaceSubstring { parameter, indirect, pattern, replacement, match_kind } => {
                let value = self.checked_value(parameter, *indirect)?;
                let pat = self.expand_pattern(pattern)?;
                let replacement = match replacement {
                    Some(r) => self.expand_replacement(r)?,
                    None => String::new(),
                };
                // bash 5.2 lets `nocasematch` apply here (not to `${v#p}`).
                let syntax = self.pattern_syntax(true);
                let compiled = Pattern::with(&pat, syntax);
                let literal = if syntax.nocase { None } else { pattern::literal_with(&pat, syntax.extglob) };
                let max = self.rt.limits.max_memory_bytes;
                let rt = self.rt;
                let check = move || rt.check();
                // `${x//a/$x}` squares the length: refused before it is
                // built; a long scan ends at the time limit or cancellation.
                let value = try_map_value(value, |s| {
                    replace(&s, &compiled, literal.as_deref(), &replacement, match_kind, max, &check)
                })?;
                self.emit(value, quoted, fields);
            }
            ParameterExpr::VariableNames { prefix, concatenate } => {
                let mut names: Vec<String> =
                    self.st.vars.keys().filter(|k| k.starts_with(prefix.as_str())).cloned().collect();
                names.sort();
                self.emit(PVal::List(names, *concatenate), quoted, fields);
            }
            ParameterExpr::MemberKeys { variable_name, concatenate } => {
                let keys = match self.st.var(variable_name.as_str()) {
                    Some(var) => var.value.keys(),
                    None => Vec::new(),
                };
                self.emit(PVal::List(keys, *concatenate), quoted, fields);
            }
        }
        Ok(())
    }

    /// A parameter's value, with `set -u` checked.
    fn checked_value(&mut self, parameter: &Parameter, indirect: bool) -> Result<PVal, Flow> {
        let value = self.param_value(parameter, indirect)?;
        if matches!(value, PVal::Unset) && self.st.options.nounset {
            self.unbound(parameter)?;
        }
        Ok(value)
    }

    /// The word inside `${v:-word}`, expanded in the outer quoting.
    fn expand_inner(&mut self, word: &str, quoted: bool, fields: &mut Fields) -> Result<(), Flow> {
        if word.is_empty() {
            return Ok(());
        }
        if quoted {
            // Inside double quotes the word is double-quoted text.
            let text = self.expand_string(word)?;
            fields.exp(&text, true);
            return Ok(());
        }
        let saved = std::mem::replace(&mut fields.split_text, true);
        let result = match self.word_pieces(word) {
            Some(pieces) if looks_bad(&pieces) => {
                self.check_bad_substitution(word)?;
                self.expand_pieces(&pieces, false, fields)
            }
            Some(pieces) => self.expand_pieces(&pieces, false, fields),
            None => {
                self.check_bad_substitution(word)?;
                fields.exp(word, false);
                Ok(())
            }
        };
        fields.split_text = saved;
        result
    }

    /// A word the parser refused: when it holds a `${…}` that is no
    /// parameter expansion (`${a.b}`), bash reports `bad substitution` and
    /// abandons the current line (status 1); other such words stay literal.
    fn check_bad_substitution(&mut self, word: &str) -> Result<(), Flow> {
        let Some(bad) = bad_substitution(word, &self.popts) else { return Ok(()) };
        self.err(format!("bash: {bad}: bad substitution\n").as_bytes())?;
        Err(Flow::Abort(1))
    }

    fn emit(&mut self, value: PVal, quoted: bool, fields: &mut Fields) {
        match value {
            PVal::Unset => {}
            PVal::Str(s) => fields.exp(&s, quoted),
            PVal::List(items, concat) => {
                if quoted && concat {
                    let sep = self.ifs().chars().next().map(String::from).unwrap_or_default();
                    fields.exp(&items.join(&sep), true);
                } else if !fields.split && concat {
                    let sep = self.ifs().chars().next().map(String::from).unwrap_or_default();
                    fields.exp(&items.join(&sep), quoted);
                } else {
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            fields.brk();
                        }
                        fields.exp(item, quoted);
                        if quoted {
                            fields.mark();
                        }
                    }
                }
            }
        }
    }
}

fn is_at_expansion(piece: &WordPiece) -> bool {
    match piece {
        WordPiece::ParameterExpansion(ParameterExpr::Parameter { parameter, .. }) => matches!(
            parameter,
            Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate: false })
                | Parameter::NamedWithAllIndices { concatenate: false, .. }
        ),
        _ => false,
    }
}

fn is_missing(value: &PVal, test: &ParameterTestType) -> bool {
    match value {
        PVal::Unset => true,
        PVal::Str(s) => s.is_empty() && matches!(test, ParameterTestType::UnsetOrNull),
        PVal::List(items, _) => {
            items.is_empty() || (matches!(test, ParameterTestType::UnsetOrNull) && items.iter().all(String::is_empty))
        }
    }
}

fn param_name(parameter: &Parameter) -> String {
    match parameter {
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(s) => s.to_string(),
        Parameter::Named(name) => name.clone(),
        Parameter::NamedWithIndex { name, index } => format!("{name}[{index}]"),
        Parameter::NamedWithAllIndices { name, concatenate } => {
            format!("{name}[{}]", if *concatenate { "*" } else { "@" })
        }
    }
}

fn map_value(value: PVal, mut f: impl FnMut(String) -> String) -> PVal {
    match value {
        PVal::Unset => PVal::Unset,
        PVal::Str(s) => PVal::Str(f(s)),
        PVal::List(items, concat) => PVal::List(items.into_iter().map(f).collect(), concat),
    }
}

/// [`map_value`] with a step that may stop at a limit (the first one met
/// ends the expansion).
fn try_map_value(value: PVal, mut f: impl FnMut(String) -> Result<String, LimitHit>) -> Result<PVal, Flow> {
    Ok(match value {
        PVal::Unset => PVal::Unset,
        PVal::Str(s) => PVal::Str(f(s).map_err(Flow::Limit)?),
        PVal::List(items, concat) => {
            PVal::List(items.into_iter().map(&mut f).collect::<Result<_, _>>().map_err(Flow::Limit)?, concat)
        }
    })
}

/// `${v:offset:length}` bounds over `len` items; `None` when out of range.
fn slice_range(len: usize, offset: i64, length: Option<i64>) -> Option<(usize, usize)> {
    let len = len as i64;
    let start = if offset < 0 { len + offset } else { offset };
    if start < 0 || start > len {
        return None;
    }
    let end = match length {
        None => len,
        Some(l) if l < 0 => {
            let end = len + l;
            if end < start {
                return None;
            }
            end
        }
        Some(l) => (start.saturating_add(l)).min(len),
    };
    Some((start as usize, end as usize))
}

fn remove_affix(
    s: &str,
    pattern: &Pattern,
    suffix: bool,
    longest: bool,
    check: &dyn Fn() -> Result<(), LimitHit>,
) -> Result<String, LimitHit> {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    if !suffix {
        let mut cut = None;
        pattern.match_ends_checked(&chars, 0, check, |end| {
            cut = Some(end);
            !longest
        })?;
        Ok(match cut {
            Some(end) => chars[end..].iter().collect(),
            None => s.to_string(),
        })
    } else {
        // Shortest suffix: the latest start that matches to the end.
        let starts: Box<dyn Iterator<Item = usize>> = if longest { Box::new(0..=n) } else { Box::new((0..=n).rev()) };
        for (scanned, start) in starts.enumerate() {
            if scanned % 64 == 63 {
                check()?;
            }
            if pattern.match_ends_checked(&chars, start, check, |end| end == n)? {
                return Ok(chars[..start].iter().collect());
            }
        }
        Ok(s.to_string())
    }
}

/// `${s/pattern/replacement}` and its kinds. Fails with the memory limit
/// when the result would hold more than `max` bytes (checked before it is
/// built, or as it grows), and with `check`'s limit (called every 64
/// positions scanned) when the clock runs out or the caller cancels.
fn replace(
    s: &str,
    pattern: &Pattern,
    literal: Option<&str>,
    replacement: &str,
    kind: &SubstringMatchKind,
    max: usize,
    check: &dyn Fn() -> Result<(), LimitHit>,
) -> Result<String, LimitHit> {
    // The replacement came through pattern expansion: `\x` is a literal x,
    // an unescaped `&` is the matched text (bash 5.2's patsub_replacement).
    let render = |matched: &str| -> String {
        let mut out = String::new();
        let mut chars = replacement.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.push(chars.next().unwrap_or('\\')),
                '&' => out.push_str(matched),
                c => out.push(c),
            }
        }
        out
    };
    if let (Some(lit), SubstringMatchKind::Anywhere | SubstringMatchKind::FirstOccurrence) = (literal, kind) {
        if lit.is_empty() {
            return Ok(s.to_string());
        }
        let rendered = render(lit);
        let count = if matches!(kind, SubstringMatchKind::Anywhere) { s.matches(lit).count() } else { 1 };
        if s.len().saturating_add(count.saturating_mul(rendered.len())) > max {
            return Err(LimitHit::Memory);
        }
        return Ok(match kind {
            SubstringMatchKind::Anywhere => s.replace(lit, &rendered),
            _ => s.replacen(lit, &rendered, 1),
        });
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    match kind {
        SubstringMatchKind::Prefix => {
            let mut best = None;
            pattern.match_ends_checked(&chars, 0, check, |end| {
                best = Some(end);
                false
            })?;
            match best {
                Some(end) => {
                    let matched: String = chars[..end].iter().collect();
                    Ok(format!("{}{}", render(&matched), chars[end..].iter().collect::<String>()))
                }
                None => Ok(s.to_string()),
            }
        }
        SubstringMatchKind::Suffix => {
            for start in 0..=n {
                if start % 64 == 63 {
                    check()?;
                }
                if pattern.match_ends_checked(&chars, start, check, |end| end == n)? {
                    let matched: String = chars[start..].iter().collect();
                    return Ok(format!("{}{}", chars[..start].iter().collect::<String>(), render(&matched)));
                }
            }
            Ok(s.to_string())
        }
        SubstringMatchKind::FirstOccurrence | SubstringMatchKind::Anywhere => {
            let all = matches!(kind, SubstringMatchKind::Anywhere);
            let mut out = String::new();
            let mut i = 0;
            let mut replaced = false;
            let mut scanned = 0usize;
            while i <= n {
                if replaced && !all {
                    break;
                }
                scanned += 1;
                if scanned.is_multiple_of(64) {
                    check()?;
                }
                let mut best = None;
                pattern.match_ends_checked(&chars, i, check, |end| {
                    best = Some(end);
                    false
                })?;
                match best {
                    Some(end) if end > i => {
                        let matched: String = chars[i..end].iter().collect();
                        out.push_str(&render(&matched));
                        if out.len() > max {
                            return Err(LimitHit::Memory);
                        }
                        i = end;
                        replaced = true;
                    }
                    // `*…`: no match here means none further on either.
                    None if pattern.starts_with_star() => break,
                    _ => {
                        if i < n {
                            out.push(chars[i]);
                        }
                        i += 1;
                    }
                }
            }
            if i < n {
                out.extend(&chars[i..]);
            }
            Ok(out)
        }
    }
}

fn change_first(s: &str, upper: bool) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => {
            let first: String = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            first + chars.as_str()
        }
        None => String::new(),
    }
}

fn change_case(s: &str, upper: bool, all: bool, pattern: Option<&Pattern>) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.chars().enumerate() {
        let eligible = (all || i == 0) && pattern.is_none_or(|p| p.matches(c.encode_utf8(&mut [0u8; 4])));
        if eligible {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape_backquoted(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('$') | Some('\\')) {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn trim_newlines(mut s: String) -> String {
    while s.ends_with('\n') {
        s.pop();
    }
    s
}

/// The word of `$(< word)`, when that is the whole substitution.
fn lone_input_redirect(program: &brush_parser::ast::Program) -> Option<&str> {
    use brush_parser::ast;
    let [list] = &program.complete_commands[..] else { return None };
    let [item] = &list.0[..] else { return None };
    if !item.0.additional.is_empty() || item.0.first.bang {
        return None;
    }
    let [ast::Command::Simple(simple)] = &item.0.first.seq[..] else { return None };
    if simple.word_or_name.is_some() || simple.suffix.is_some() {
        return None;
    }
    let [ast::CommandPrefixOrSuffixItem::IoRedirect(ast::IoRedirect::File(
        None | Some(0),
        ast::IoFileRedirectKind::Read,
        ast::IoFileRedirectTarget::Filename(word),
    ))] = &simple.prefix.as_ref()?.0[..]
    else {
        return None;
    };
    Some(&word.value)
}

/// Decodes the escapes of `$'…'` (also `echo -e`'s, minus `\c`).
pub(crate) fn ansi_c(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        i += 1;
        let c = bytes[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(0x1b),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' => out.push(b'\\'),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'?' => out.push(b'?'),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut k = 0;
                while k < 2 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push((v & 0xff) as u8);
            }
            b'x' => {
                let mut v = 0u32;
                let mut k = 0;
                while k < 2 && i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v * 16 + (bytes[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    k += 1;
                }
                if k == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    out.push(v as u8);
                }
            }
            b'u' | b'U' => {
                let max = if c == b'u' { 4 } else { 8 };
                let mut v = 0u32;
                let mut k = 0;
                while k < max && i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v * 16 + (bytes[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    k += 1;
                }
                match char::from_u32(v) {
                    Some(ch) if k > 0 && ch.is_ascii() => out.push(ch as u8),
                    // The C locale cannot show it: bash prints the escape.
                    Some(_) if k > 0 => {
                        let text = if c == b'u' { format!("\\u{v:04X}") } else { format!("\\U{v:08X}") };
                        out.extend_from_slice(text.as_bytes());
                    }
                    _ => {
                        out.push(b'\\');
                        out.push(c);
                    }
                }
            }
            b'c' => {
                // \cX: control character
                if i < bytes.len() {
                    out.push(bytes[i] & 0x1f);
                    i += 1;
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Brace expansion of a raw word: `{a,b}`, `{1..5}`, `{a..e}`, `{01..10}`,
/// `{1..10..2}`, nested. Quoted and `$`-constructs are left alone.
pub(crate) fn brace_expand(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    brace_into(word, &mut out);
    out
}

fn brace_into(word: &str, out: &mut Vec<String>) {
    if out.len() > MAX_BRACE_WORDS {
        return;
    }
    // One level per brace group: past the stack's room the rest stays literal.
    if super::stack::too_deep() {
        out.push(word.to_string());
        return;
    }
    let Some((open, close, items)) = find_brace(word) else {
        out.push(word.to_string());
        return;
    };
    let prefix = &word[..open];
    let suffix = &word[close + 1..];
    for item in items {
        if out.len() > MAX_BRACE_WORDS {
            return;
        }
        brace_into(&format!("{prefix}{item}{suffix}"), out);
    }
}

/// Skips a quoted or `$`-construct starting at `i`; returns the index after it.
fn skip_construct(bytes: &[u8], i: usize) -> usize {
    let n = bytes.len();
    match bytes[i] {
        b'\\' => (i + 2).min(n),
        b'\'' => bytes[i + 1..].iter().position(|&b| b == b'\'').map_or(n, |p| i + 1 + p + 1),
        b'"' => {
            let mut j = i + 1;
            while j < n && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(n)
        }
        b'`' => bytes[i + 1..].iter().position(|&b| b == b'`').map_or(n, |p| i + 1 + p + 1),
        b'$' if i + 1 < n && (bytes[i + 1] == b'{' || bytes[i + 1] == b'(') => {
            let (open, close) = if bytes[i + 1] == b'{' { (b'{', b'}') } else { (b'(', b')') };
            let mut depth = 0;
            let mut j = i + 1;
            while j < n {
                let b = bytes[j];
                if b == b'\\' || b == b'\'' || b == b'"' {
                    j = skip_construct(bytes, j);
                    continue;
                }
                if b == open {
                    depth += 1;
                } else if b == close {
                    depth -= 1;
                    if depth == 0 {
                        return j + 1;
                    }
                }
                j += 1;
            }
            n
        }
        _ => i + 1,
    }
}

/// The first brace expression of a word: (open, close, alternatives).
fn find_brace(word: &str) -> Option<(usize, usize, Vec<String>)> {
    let bytes = word.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        match bytes[i] {
            b'\\' | b'\'' | b'"' | b'`' | b'$' => {
                i = skip_construct(bytes, i);
                continue;
            }
            b'{' => {
                if let Some(found) = brace_at(word, i) {
                    return Some(found);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn brace_at(word: &str, open: usize) -> Option<(usize, usize, Vec<String>)> {
    let bytes = word.as_bytes();
    let n = bytes.len();
    let mut depth = 0;
    let mut commas = Vec::new();
    let mut j = open;
    while j < n {
        match bytes[j] {
            b'\\' | b'\'' | b'"' | b'`' | b'$' => {
                j = skip_construct(bytes, j);
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    let inner = &word[open + 1..j];
                    if !commas.is_empty() {
                        let mut items = Vec::new();
                        let mut start = open + 1;
                        for &c in &commas {
                            items.push(word[start..c].to_string());
                            start = c + 1;
                        }
                        items.push(word[start..j].to_string());
                        return Some((open, j, items));
                    }
                    return sequence(inner).map(|items| (open, j, items));
                }
            }
            b',' if depth == 1 => commas.push(j),
            _ => {}
        }
        j += 1;
    }
    None
}

/// `1..5`, `a..e`, `01..10`, `1..10..2`.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if parts.len() != 2 && parts.len() != 3 {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse().ok()?,
        None => 1,
    };
    let step = step.checked_abs()?.max(1);
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let width = |s: &str| {
            let digits = s.trim_start_matches(['-', '+']);
            if digits.len() > 1 && digits.starts_with('0') {
                s.len()
            } else {
                0
            }
        };
        let pad = width(parts[0]).max(width(parts[1]));
        let count = (a.abs_diff(b) / step as u64) + 1;
        if count as usize > MAX_BRACE_WORDS {
            return Some(vec![String::new(); MAX_BRACE_WORDS + 1]);
        }
        let mut items = Vec::with_capacity(count as usize);
        let mut v = a;
        for _ in 0..count {
            items.push(if pad > 0 { super::commands::layout::zero_padded(i128::from(v), pad) } else { v.to_string() });
            v = if a <= b { v.saturating_add(step) } else { v.saturating_sub(step) };
        }
        return Some(items);
    }
    let single = |s: &str| {
        let mut chars = s.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c.is_ascii_alphabetic()).then_some(c)
    };
    let (a, b) = (single(parts[0])?, single(parts[1])?);
    let (a, b) = (a as u8, b as u8);
    let mut items = Vec::new();
    let mut v = i64::from(a);
    let end = i64::from(b);
    loop {
        items.push((v as u8 as char).to_string());
        if v == end {
            break;
        }
        v += if a <= b { step } else { -step };
        if (a <= b && v > end) || (a > b && v < end) {
            break;
        }
    }
    Some(items)
}

/// Whether the parser left a `${` as text: a `$` piece followed by text
/// that starts with `{` (brush-parser's reading of `${a.b}`).
fn looks_bad(pieces: &[WordPieceWithSource]) -> bool {
    use brush_parser::word::WordPiece;
    pieces.windows(2).any(|pair| {
        matches!((&pair[0].piece, &pair[1].piece), (WordPiece::Text(a), WordPiece::Text(b)) if a.ends_with('$') && b.starts_with('{'))
    }) || pieces.iter().any(|p| match &p.piece {
        WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => looks_bad(inner),
        WordPiece::Text(text) => text.contains("${"),
        _ => false,
    })
}

/// The first `${…}` of `word` (outside single quotes) that is not one
/// parameter expansion on its own.
fn bad_substitution(word: &str, options: &brush_parser::ParserOptions) -> Option<String> {
    let bytes = word.as_bytes();
    let (mut i, mut single) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if !single => i += 1,
            b'\'' => single = !single,
            b'$' if !single && bytes.get(i + 1) == Some(&b'{') => {
                let mut depth = 0;
                let mut j = i + 1;
                while j < bytes.len() {
                    match bytes[j] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'\\' => j += 1,
                        _ => {}
                    }
                    j += 1;
                }
                if j >= bytes.len() {
                    return None;
                }
                let text = &word[i..=j];
                let single_expansion = super::parse::parse_word(text, options).is_some_and(|pieces| {
                    pieces.len() == 1 && matches!(pieces[0].piece, brush_parser::word::WordPiece::ParameterExpansion(_))
                });
                if !single_expansion {
                    return Some(text.to_string());
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces() {
        assert_eq!(brace_expand("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(brace_expand("{1..3}"), ["1", "2", "3"]);
        assert_eq!(brace_expand("{3..1}"), ["3", "2", "1"]);
        assert_eq!(brace_expand("{01..03}"), ["01", "02", "03"]);
        assert_eq!(brace_expand("{1..10..4}"), ["1", "5", "9"]);
        assert_eq!(brace_expand("{a..c}"), ["a", "b", "c"]);
        assert_eq!(brace_expand("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"]);
        assert_eq!(brace_expand("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(brace_expand("{a}"), ["{a}"]);
        assert_eq!(brace_expand("'{a,b}'"), ["'{a,b}'"]);
        assert_eq!(brace_expand("${x:-{a,b}}"), ["${x:-{a,b}}"]);
        assert_eq!(brace_expand("{,x}"), ["", "x"]);
        assert!(brace_expand("{1..99999999999999}").len() > MAX_BRACE_WORDS);
    }

    #[test]
    fn ansi() {
        assert_eq!(ansi_c("a\\nb\\t\\x41\\101\\'"), "a\nb\tAA'");
    }

    #[test]
    fn affixes() {
        let p = Pattern::new("*.");
        let ok = || Ok(());
        assert_eq!(remove_affix("a.b.c", &Pattern::new("*."), false, false, &ok), Ok("b.c".to_string()));
        assert_eq!(remove_affix("a.b.c", &p, false, true, &ok), Ok("c".to_string()));
        assert_eq!(remove_affix("a.b.c", &Pattern::new(".*"), true, false, &ok), Ok("a.b".to_string()));
        assert_eq!(remove_affix("a.b.c", &Pattern::new(".*"), true, true, &ok), Ok("a".to_string()));
        assert_eq!(
            replace("aXbXc", &Pattern::new("X"), Some("X"), "-", &SubstringMatchKind::Anywhere, 100, &|| Ok(())),
            Ok("a-b-c".to_string())
        );
        assert_eq!(
            replace("aXbXc", &Pattern::new("X"), Some("X"), "-----", &SubstringMatchKind::Anywhere, 12, &|| Ok(())),
            Err(LimitHit::Memory)
        );
        assert_eq!(
            replace("abc", &Pattern::new("b*"), None, "<&>", &SubstringMatchKind::FirstOccurrence, 100, &|| Ok(())),
            Ok("a<bc>".to_string())
        );
    }
}
