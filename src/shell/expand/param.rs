//! Parameter expansion: `$name`, `${…}` with its operators (defaults,
//! substrings, affixes, replacement, case, transformations), special and
//! dynamic parameters, namerefs, arrays.

use super::*;

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// A parameter's value (`indirect`: `${!name}`).
    pub(super) fn param_value(&mut self, parameter: &Parameter, indirect: bool) -> Result<PVal, Flow> {
        if indirect {
            // `${!ref}` of a nameref is the name it refers to.
            if let Parameter::Named(name) = parameter {
                if let Some(var) = self.state().vars.get(name.as_str()).filter(|v| v.nameref) {
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
        match crate::shell::parse::parse_word(&format!("${{{name}}}"), &self.caches().popts).as_deref() {
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

    pub(super) fn param_value_direct(&mut self, parameter: &Parameter) -> Result<PVal, Flow> {
        if let Some(target) = self.nameref_target(parameter)? {
            return match target {
                Some(target) => self.param_value_direct(&target),
                None => Ok(PVal::Unset),
            };
        }
        Ok(match parameter {
            Parameter::Positional(0) => PVal::Str(self.state().arg0.to_string()),
            Parameter::Positional(n) => match self.state().positional.get(*n as usize - 1) {
                Some(v) => PVal::Str(v.clone()),
                None => PVal::Unset,
            },
            Parameter::Special(special) => match special {
                SpecialParameter::AllPositionalParameters { concatenate } => {
                    PVal::List(self.state().positional.to_vec(), *concatenate)
                }
                SpecialParameter::PositionalParameterCount => PVal::Str(self.state().positional.len().to_string()),
                SpecialParameter::LastExitStatus => PVal::Str(self.state().last_status.to_string()),
                SpecialParameter::CurrentOptionFlags => PVal::Str(self.state().options.flags()),
                SpecialParameter::ProcessId => PVal::Str(FAKE_PID.to_string()),
                SpecialParameter::LastBackgroundProcessId => {
                    self.state().last_bg.map_or(PVal::Unset, |pid| PVal::Str(pid.to_string()))
                }
                SpecialParameter::ShellName => PVal::Str(self.state().arg0.to_string()),
            },
            Parameter::Named(name) => match self.dynamic_var(name) {
                Some(v) => v,
                None => match self.state().vars.get(name.as_str()) {
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
                    let names = &self.at().function_names;
                    return Ok(match usize::try_from(i).ok().and_then(|i| names.iter().rev().nth(i)) {
                        Some(s) => PVal::Str(s.clone()),
                        None => PVal::Unset,
                    });
                }
                if name == "PIPESTATUS" {
                    let i = self.arith_index(index)?;
                    return Ok(match usize::try_from(i).ok().and_then(|i| self.state().pipestatus.get(i)) {
                        Some(s) => PVal::Str(s.to_string()),
                        None => PVal::Unset,
                    });
                }
                let assoc = matches!(self.state().vars.get(name.as_str()).map(|v| &v.value), Some(Value::Assoc(_)));
                if assoc {
                    let key = self.expand_string(index)?;
                    match self.state().vars.get(name.as_str()).map(|v| &v.value) {
                        Some(Value::Assoc(map)) => map.get(&key).map_or(PVal::Unset, |v| PVal::Str(v.clone())),
                        _ => PVal::Unset,
                    }
                } else {
                    let i = self.arith_index(index)?;
                    let Some(i) = self.state().resolve_index(name, i) else {
                        self.error(format_args!("{name}: bad array subscript"))?;
                        return Ok(PVal::Unset);
                    };
                    match self.state().vars.get(name.as_str()).map(|v| &v.value) {
                        Some(Value::Indexed(map)) => map.get(&i).map_or(PVal::Unset, |v| PVal::Str(v.clone())),
                        Some(Value::Str(s)) if i == 0 => PVal::Str(s.clone()),
                        _ => PVal::Unset,
                    }
                }
            }
            Parameter::NamedWithAllIndices { name, concatenate } => {
                if name == "PIPESTATUS" {
                    return Ok(PVal::List(self.state().pipestatus.iter().map(i32::to_string).collect(), *concatenate));
                }
                if name == "FUNCNAME" {
                    return Ok(PVal::List(self.at().function_names.iter().rev().cloned().collect(), *concatenate));
                }
                match self.state().vars.get(name.as_str()) {
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
        if !self.state().vars.get(name.as_str()).is_some_and(|v| v.nameref) {
            return Ok(None);
        }
        let target = match self.state().resolve(name) {
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
    pub(super) fn dynamic_var(&mut self, name: &str) -> Option<PVal> {
        Some(match name {
            "RANDOM" => {
                // A fixed-seed linear congruential generator: runs are reproducible.
                self.at_mut().random = self.at().random.wrapping_mul(1_103_515_245).wrapping_add(12345);
                PVal::Str(((self.at().random >> 16) & 0x7fff).to_string())
            }
            "LINENO" => PVal::Str(self.state().trap_line.unwrap_or(self.at().line).to_string()),
            "SECONDS" => PVal::Str(self.runtime().elapsed_secs().to_string()),
            "BASHPID" => PVal::Str(FAKE_PID.to_string()),
            "BASH_COMMAND" => PVal::Str(self.at().command.as_deref().unwrap_or_default().to_string()),
            "PIPESTATUS" => PVal::Str(self.state().pipestatus.first().copied().unwrap_or(0).to_string()),
            "FUNCNAME" => match self.at().function_names.last() {
                Some(name) => PVal::Str(name.clone()),
                None => PVal::Unset,
            },
            _ => return None,
        })
    }

    pub(super) fn arith_index(&mut self, index: &str) -> Result<i64, Flow> {
        let text = self.expand_string(index)?;
        self.arith_expand_text(&text)
    }

    pub(super) fn unbound(&mut self, parameter: &Parameter) -> Result<(), Flow> {
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
    pub(super) fn expand_parameter(
        &mut self,
        expr: &ParameterExpr,
        quoted: bool,
        fields: &mut Fields,
    ) -> Result<(), Flow> {
        match expr {
            ParameterExpr::Parameter { parameter, indirect } => {
                let value = self.param_value(parameter, *indirect)?;
                if matches!(value, PVal::Unset) && self.state().options.nounset {
                    self.unbound(parameter)?;
                }
                self.emit(value, quoted, fields);
            }
            ParameterExpr::UseDefaultValues { parameter, indirect, test_type, default_value } => {
                let value = self.param_value(parameter, *indirect)?;
                if self.is_missing_here(&value, test_type, quoted) {
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
                if !self.is_missing_here(&value, test_type, quoted) {
                    if let Some(word) = alternative_value {
                        self.expand_inner(word, quoted, fields)?;
                    }
                }
            }
            ParameterExpr::ParameterLength { parameter, indirect } => {
                let value = self.param_value(parameter, *indirect)?;
                let n = match value {
                    PVal::Unset => {
                        if self.state().options.nounset {
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
                let rt = self.runtime();
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
                                    return Err(Flow::Abort(1));
                                }
                                PVal::Str(String::new())
                            }
                        }
                    }
                    PVal::List(items, concat) => {
                        if let Some(l) = length.filter(|l| *l < 0) {
                            self.error(format_args!("{l}: substring expression < 0"))?;
                            return Err(Flow::Abort(1));
                        }
                        // An indexed array's offset is an index, not a
                        // position: `${a[@]:15:2}` starts at the first
                        // element whose index is 15 or more.
                        let sparse = match parameter {
                            Parameter::NamedWithAllIndices { name, .. } => {
                                let resolved = self.state().resolved(name).into_owned();
                                match self.state().vars.get(&resolved).map(|v| &v.value) {
                                    Some(Value::Indexed(map)) => Some(map.clone()),
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        if let Some(map) = sparse {
                            let end = map.keys().next_back().map_or(0, |k| k + 1);
                            let start = if offset < 0 { end + offset } else { offset };
                            let taken: Vec<String> = if start < 0 {
                                Vec::new()
                            } else {
                                let from = map.range(start..).map(|(_, v)| v.clone());
                                match length {
                                    Some(l) => from.take(usize::try_from(l).unwrap_or(usize::MAX)).collect(),
                                    None => from.collect(),
                                }
                            };
                            self.emit(PVal::List(taken, concat), quoted, fields);
                            return Ok(());
                        }
                        // `${@:0}` starts at $0.
                        let items = if positional {
                            std::iter::once(self.state().arg0.to_string()).chain(items).collect::<Vec<_>>()
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
                    ParameterTransformOp::Quoted => map_value(value, |s| crate::shell::quote::quote_value(&s)),
                    ParameterTransformOp::ExpandEscapeSequences => map_value(value, |s| ansi_c(&s)),
                    ParameterTransformOp::ToAttributeFlags => {
                        let flags = match parameter {
                            Parameter::Named(name) => {
                                self.state().var(name).map(Var::attribute_letters).unwrap_or_default()
                            }
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
                let max = self.runtime().limits.max_memory_bytes;
                let rt = self.runtime();
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
                    self.state().vars.keys().filter(|k| k.starts_with(prefix.as_str())).cloned().collect();
                names.sort();
                self.emit(PVal::List(names, *concatenate), quoted, fields);
            }
            ParameterExpr::MemberKeys { variable_name, concatenate } => {
                let keys = match self.state().var(variable_name.as_str()) {
                    Some(var) => var.value.keys(),
                    None => Vec::new(),
                };
                self.emit(PVal::List(keys, *concatenate), quoted, fields);
            }
        }
        Ok(())
    }

    /// A parameter's value, with `set -u` checked.
    pub(super) fn checked_value(&mut self, parameter: &Parameter, indirect: bool) -> Result<PVal, Flow> {
        let value = self.param_value(parameter, indirect)?;
        if matches!(value, PVal::Unset) && self.state().options.nounset {
            self.unbound(parameter)?;
        }
        Ok(value)
    }

    /// [`is_missing`] for `:-` and `:+`: a list (`$@`, `${a[*]}`) is null
    /// when it has no element or one empty one, but `"${a[*]}"` (joined)
    /// when the joined text is empty, as bash decides.
    fn is_missing_here(&self, value: &PVal, test: &ParameterTestType, quoted: bool) -> bool {
        match value {
            PVal::List(items, concatenate) if matches!(test, ParameterTestType::UnsetOrNull) => {
                if *concatenate && quoted {
                    let separator = self.state().get("IFS").map_or(Some(' '), |ifs| ifs.chars().next());
                    items.iter().all(String::is_empty) && (items.len() < 2 || separator.is_none())
                } else {
                    items.is_empty() || (items.len() == 1 && items[0].is_empty())
                }
            }
            _ => is_missing(value, test),
        }
    }

    /// The word inside `${v:-word}`, expanded in the outer quoting.
    pub(super) fn expand_inner(&mut self, word: &str, quoted: bool, fields: &mut Fields) -> Result<(), Flow> {
        if word.is_empty() {
            return Ok(());
        }
        if quoted {
            // `"${a[@]+"${a[@]}"}"`: the elements stay words of their own.
            if word.contains('@') && !word.contains(['\'', '\\']) {
                if let Some(pieces) = self.caches_mut().word_pieces(word) {
                    return self.expand_pieces(&pieces, true, fields);
                }
            }
            // Inside double quotes the word is double-quoted text: its
            // single quotes are characters, and a backslash stays before
            // a character it does not escape there.
            let word = as_double_quoted(word);
            let text = self.expand_string(&word)?;
            fields.exp(&text, true);
            return Ok(());
        }
        let saved = std::mem::replace(&mut fields.split_text, true);
        let result = match self.caches_mut().word_pieces(word) {
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
    pub(super) fn check_bad_substitution(&mut self, word: &str) -> Result<(), Flow> {
        let Some(bad) = bad_substitution(word, &self.caches().popts) else { return Ok(()) };
        self.error(format_args!("{bad}: bad substitution"))?;
        Err(Flow::Abort(1))
    }

    pub(super) fn emit(&mut self, value: PVal, quoted: bool, fields: &mut Fields) {
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

pub(super) fn is_missing(value: &PVal, test: &ParameterTestType) -> bool {
    match value {
        PVal::Unset => true,
        PVal::Str(s) => s.is_empty() && matches!(test, ParameterTestType::UnsetOrNull),
        PVal::List(items, _) => {
            items.is_empty() || (matches!(test, ParameterTestType::UnsetOrNull) && items.iter().all(String::is_empty))
        }
    }
}

pub(super) fn param_name(parameter: &Parameter) -> String {
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

pub(super) fn map_value(value: PVal, mut f: impl FnMut(String) -> String) -> PVal {
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
pub(super) fn slice_range(len: usize, offset: i64, length: Option<i64>) -> Option<(usize, usize)> {
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

pub(super) fn remove_affix(
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
pub(super) fn replace(
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

pub(super) fn change_first(s: &str, upper: bool) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => {
            let first: String = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            first + chars.as_str()
        }
        None => String::new(),
    }
}

pub(super) fn change_case(s: &str, upper: bool, all: bool, pattern: Option<&Pattern>) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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

/// A word read inside double quotes (`"${v:-'x' \z}"`), rewritten as the
/// same text outside them: `'` and a backslash that escapes nothing there
/// are escaped; inner double quotes, `$(…)`, `${…}` and backquotes are kept
/// as written. A word holding `$'` is kept whole.
fn as_double_quoted(word: &str) -> std::borrow::Cow<'_, str> {
    if !word.contains(['\'', '\\']) || word.contains("$'") {
        return std::borrow::Cow::Borrowed(word);
    }
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len() + 8);
    let mut inner_quotes = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => match chars.get(i + 1) {
                Some(&next) if inner_quotes || matches!(next, '$' | '`' | '"' | '\\' | '\n') => {
                    out.push(c);
                    out.push(next);
                    i += 1;
                }
                Some(&next) => {
                    out.push_str("\\\\\\");
                    out.push(next);
                    i += 1;
                }
                None => out.push_str("\\\\"),
            },
            '\'' if !inner_quotes => out.push_str("\\'"),
            '"' => {
                inner_quotes = !inner_quotes;
                out.push(c);
            }
            '$' if matches!(chars.get(i + 1), Some('(' | '{')) => {
                // Copied whole, to its closing bracket.
                let (open, close) = if chars[i + 1] == '(' { ('(', ')') } else { ('{', '}') };
                let mut depth = 0;
                let mut j = i + 1;
                while j < chars.len() {
                    if chars[j] == '\\' {
                        j += 2;
                        continue;
                    }
                    if chars[j] == open {
                        depth += 1;
                    } else if chars[j] == close {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    j += 1;
                }
                let end = j.min(chars.len() - 1);
                out.extend(&chars[i..=end]);
                i = end;
            }
            '`' => {
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '`' {
                    j += if chars[j] == '\\' { 2 } else { 1 };
                }
                let end = j.min(chars.len() - 1);
                out.extend(&chars[i..=end]);
                i = end;
            }
            c => out.push(c),
        }
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod double_quoted_word_tests {
    use super::as_double_quoted;

    #[test]
    fn quotes_and_backslashes_inside_double_quotes() {
        assert_eq!(as_double_quoted("'b'"), "\\'b\\'");
        assert_eq!(as_double_quoted("\\z"), "\\\\\\z");
        assert_eq!(as_double_quoted("\\$"), "\\$");
        assert_eq!(as_double_quoted("\"'a'\""), "\"'a'\"");
        assert_eq!(as_double_quoted("$(echo 'x')'"), "$(echo 'x')\\'");
        assert_eq!(as_double_quoted("plain"), "plain");
    }
}
