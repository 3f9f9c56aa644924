//! The entry points: a word to fields (`expand_word_into`), to one string
//! (`expand_string`, patterns, here-documents, assignments), and the walk
//! over a word's pieces that calls the other parts.

use super::*;

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    pub(super) fn ifs(&self) -> String {
        self.state().get("IFS").map_or_else(|| " \t\n".to_string(), str::to_string)
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
                return Err(Flow::Limit(crate::shell::LimitHit::Output));
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

    pub(super) fn expand_fields(&mut self, raw: &str, out: &mut Vec<String>) -> Result<(), Flow> {
        let mut fields = Fields::new(true, self.ifs());
        self.expand_raw(raw, &mut fields, true)?;
        fields.end();
        let noglob = self.state().options.noglob;
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
    pub(super) fn expand_replacement(&mut self, raw: &str) -> Result<String, Flow> {
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
                        // `[a[0]]=v`: a key with brackets inside, which the
                        // parser leaves as a plain word.
                        None if keyed_element(&word.value).is_some() => {
                            let (key, value) = keyed_element(&word.value).unwrap_or_default();
                            let key = self.expand_string(key)?;
                            let value = self.expand_string(value)?;
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
        if size > self.runtime().limits.max_output_bytes.saturating_mul(4) {
            return Err(Flow::Limit(crate::shell::LimitHit::Output));
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
        let Some(pieces) = crate::shell::parse::parse_heredoc(body, &self.caches().popts) else {
            return Ok(body.to_string());
        };
        let mut fields = Fields::new(false, String::new());
        self.expand_pieces(&pieces, true, &mut fields)?;
        Ok(fields.cur)
    }

    /// Tilde prefix, then the word's pieces.
    pub(super) fn expand_raw(&mut self, raw: &str, fields: &mut Fields, tilde: bool) -> Result<(), Flow> {
        self.runtime().check_stack()?;
        let mut rest = raw;
        if tilde && raw.starts_with('~') {
            let end = raw.find('/').unwrap_or(raw.len());
            let prefix = &raw[1..end];
            let home = match prefix {
                "" => Some(self.state().get("HOME").unwrap_or("/").to_string()),
                "+" => self.state().get("PWD").map(str::to_string),
                "-" => self.state().get("OLDPWD").map(str::to_string),
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
        match self.caches_mut().word_pieces(rest) {
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

    /// `set -u`: an unset `$1` written without braces is `$1: unbound
    /// variable` in bash's message (`${1}` is `1: …`).
    fn check_unbraced_positional(&mut self, expr: &ParameterExpr) -> Result<(), Flow> {
        if let ParameterExpr::Parameter { parameter: parameter @ Parameter::Positional(n), indirect: false } = expr {
            if matches!(self.param_value(parameter, false)?, PVal::Unset) {
                self.error(format_args!("${n}: unbound variable"))?;
                return Err(fatal(self.unset_status()));
            }
        }
        Ok(())
    }

    pub(super) fn expand_pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        quoted: bool,
        fields: &mut Fields,
    ) -> Result<(), Flow> {
        for piece in pieces {
            // `$x$x$x…`: a word may not grow past the memory budget.
            if fields.bytes > self.runtime().limits.max_memory_bytes {
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
                WordPiece::ParameterExpansion(expr) => {
                    if piece.end_index - piece.start_index == 2 && self.state().options.nounset {
                        self.check_unbraced_positional(expr)?;
                    }
                    self.expand_parameter(expr, quoted, fields)?;
                }
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
}

pub(super) fn is_at_expansion(piece: &WordPiece) -> bool {
    let is_at = |parameter: &Parameter| {
        matches!(
            parameter,
            Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate: false })
                | Parameter::NamedWithAllIndices { concatenate: false, .. }
        )
    };
    match piece {
        WordPiece::ParameterExpansion(ParameterExpr::Parameter { parameter, .. }) => is_at(parameter),
        // `"${a[@]+…}"` of an empty array is no word at all (bash), the
        // idiom `"${a[@]+"${a[@]}"}"` of `set -u` scripts.
        WordPiece::ParameterExpansion(ParameterExpr::UseAlternativeValue { parameter, .. }) => is_at(parameter),
        _ => false,
    }
}

/// Whether the parser left a `${` as text: a `$` piece followed by text
/// that starts with `{` (brush-parser's reading of `${a.b}`).
pub(super) fn looks_bad(pieces: &[WordPieceWithSource]) -> bool {
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
pub(super) fn bad_substitution(word: &str, options: &brush_parser::ParserOptions) -> Option<String> {
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
                let single_expansion = crate::shell::parse::parse_word(text, options).is_some_and(|pieces| {
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

/// `[key]=value` as an array literal's element whose key holds brackets:
/// the key and the value, unexpanded.
fn keyed_element(word: &str) -> Option<(&str, &str)> {
    let rest = word.strip_prefix('[')?;
    let mut depth = 1;
    for (at, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    let value = rest[at + 1..].strip_prefix('=')?;
                    return Some((&rest[..at], value));
                }
            }
            '\\' | '\'' | '"' | '$' | '`' => return None,
            _ => {}
        }
    }
    None
}
