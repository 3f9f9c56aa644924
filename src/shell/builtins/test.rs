//! `test`/`[` and `[[ ]]`: file and string tests, comparisons, `=~`.

use super::*;

pub(super) fn test<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let name = argv[0].as_str();
    let mut args = &argv[1..];
    if name == "[" {
        if args.last().map(String::as_str) != Some("]") {
            interp.error("[: missing `]'")?;
            return Ok(2);
        }
        args = &args[..args.len() - 1];
    }
    if args.len() > 512 {
        interp.error(format_args!("{name}: too many arguments"))?;
        return Ok(2);
    }
    let expr = match brush_parser::test_command::parse(args) {
        Ok(expr) => expr,
        Err(_) => {
            let message = match args.len() {
                1 | 2 => format!("{}: unary operator expected", args[0]),
                3 => format!("{}: binary operator expected", args[1]),
                _ => "too many arguments".to_string(),
            };
            interp.error(format_args!("{name}: {message}"))?;
            return Ok(2);
        }
    };
    match eval_test(interp, &expr) {
        Ok(true) => Ok(0),
        Ok(false) => Ok(1),
        Err(message) => {
            interp.error(format_args!("{name}: {message}"))?;
            Ok(2)
        }
    }
}

pub(super) fn eval_test<E: BuiltinEnv + ?Sized>(interp: &mut E, expr: &TestExpr) -> Result<bool, String> {
    if crate::shell::stack::too_deep() {
        return Err("expression nested too deeply".to_string());
    }
    Ok(match expr {
        TestExpr::False => false,
        TestExpr::Literal(s) => !s.is_empty(),
        TestExpr::And(a, b) => eval_test(interp, a)? && eval_test(interp, b)?,
        TestExpr::Or(a, b) => eval_test(interp, a)? || eval_test(interp, b)?,
        TestExpr::Not(a) => !eval_test(interp, a)?,
        TestExpr::Parenthesized(a) => eval_test(interp, a)?,
        TestExpr::UnaryTest(predicate, operand) => unary(interp, predicate, operand),
        TestExpr::BinaryTest(predicate, left, right) => match predicate {
            BinaryPredicate::StringExactlyMatchesPattern | BinaryPredicate::StringExactlyMatchesString => left == right,
            BinaryPredicate::StringDoesNotExactlyMatchPattern | BinaryPredicate::StringDoesNotExactlyMatchString => {
                left != right
            }
            _ => binary_common(interp, predicate, left, right, false)?,
        },
    })
}

/// A file or string test shared by `test` and `[[ ]]`.
pub(super) fn unary<E: BuiltinEnv + ?Sized>(interp: &mut E, predicate: &UnaryPredicate, operand: &str) -> bool {
    let storage = interp.runtime().storage;
    let path = || storage_path(&interp.state().cwd, operand);
    let stat = || if operand.is_empty() { None } else { storage.stat(&path()).ok() };
    match predicate {
        UnaryPredicate::StringHasZeroLength => operand.is_empty(),
        UnaryPredicate::StringHasNonZeroLength => !operand.is_empty(),
        UnaryPredicate::FileExists => stat().is_some(),
        UnaryPredicate::FileExistsAndIsDir => stat().is_some_and(|m| m.kind == FileKind::Directory),
        UnaryPredicate::FileExistsAndIsRegularFile => stat().is_some_and(|m| m.kind == FileKind::File),
        UnaryPredicate::FileExistsAndIsSymlink => {
            !operand.is_empty() && storage.lstat(&path()).is_ok_and(|m| m.kind == FileKind::Symlink)
        }
        // A directory is never empty on disk (bash sees its 4096-byte size).
        UnaryPredicate::FileExistsAndIsNotZeroLength => {
            stat().is_some_and(|m| m.size > 0 || m.kind == crate::storage::FileKind::Directory)
        }
        UnaryPredicate::FileExistsAndIsReadable => stat().is_some_and(|m| m.mode & 0o444 != 0),
        UnaryPredicate::FileExistsAndIsWritable => stat().is_some_and(|m| m.mode & 0o222 != 0),
        UnaryPredicate::FileExistsAndIsExecutable => {
            stat().is_some_and(|m| m.kind == FileKind::Directory || m.mode & 0o111 != 0)
        }
        UnaryPredicate::FileExistsAndOwnedByEffectiveUserId | UnaryPredicate::FileExistsAndOwnedByEffectiveGroupId => {
            stat().is_some()
        }
        UnaryPredicate::ShellOptionEnabled => {
            let o = interp.state().options;
            match operand {
                "errexit" => o.errexit,
                "errtrace" => o.errtrace,
                "functrace" => o.functrace,
                "nounset" => o.nounset,
                "pipefail" => o.pipefail,
                "xtrace" => o.xtrace,
                "noglob" => o.noglob,
                "noclobber" => o.noclobber,
                _ => false,
            }
        }
        UnaryPredicate::ShellVariableIsSetAndAssigned => var_is_set(interp, operand),
        UnaryPredicate::ShellVariableIsSetAndNameRef => interp
            .state()
            .vars
            .get(operand)
            .is_some_and(|v| v.nameref && v.value.scalar().is_some_and(|t| !t.is_empty())),
        _ => false,
    }
}

pub(super) fn var_is_set<E: BuiltinEnv + ?Sized>(interp: &mut E, operand: &str) -> bool {
    let resolved = interp.state().resolved(operand).into_owned();
    let operand = resolved.as_str();
    if let Some((name, index)) = operand.strip_suffix(']').and_then(|n| n.split_once('[')) {
        let i = match interp.state().var(name).map(|v| &v.value) {
            Some(Value::Indexed(_)) => interp.arith_value(index).unwrap_or(-1),
            _ => 0,
        };
        let i = interp.state().resolve_index(name, i);
        let key = match interp.state().var(name).map(|v| &v.value) {
            Some(Value::Assoc(_)) => interp.expand_string(index).unwrap_or_else(|_| index.to_string()),
            _ => index.to_string(),
        };
        return match interp.state().var(name).map(|v| &v.value) {
            Some(Value::Assoc(map)) => map.contains_key(&key),
            Some(Value::Indexed(map)) => i.is_some_and(|i| map.contains_key(&i)),
            Some(Value::Str(_)) => index == "0",
            None => false,
        };
    }
    match interp.state().vars.get(operand).filter(|v| !v.nameref) {
        Some(var) => var.value.scalar().is_some() || !matches!(var.value, Value::Str(_)),
        None => false,
    }
}

pub(super) fn parse_integer(s: &str) -> Result<i64, String> {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{s}: integer expression expected"));
    }
    t.parse::<i64>().map_err(|_| format!("{s}: integer expression expected"))
}

/// Comparisons shared by `test` and `[[ ]]` (`arith`: operands of `-eq`…
/// are arithmetic expressions, as in `[[ ]]`).
pub(super) fn binary_common<E: BuiltinEnv + ?Sized>(
    interp: &mut E,
    predicate: &BinaryPredicate,
    left: &str,
    right: &str,
    arith: bool,
) -> Result<bool, String> {
    let int = |interp: &mut E, s: &str| -> Result<i64, String> {
        if arith {
            interp.arith_value(s).map_err(|e| super::super::arith::message(s, &e))
        } else {
            parse_integer(s)
        }
    };
    Ok(match predicate {
        BinaryPredicate::ArithmeticEqualTo => int(interp, left)? == int(interp, right)?,
        BinaryPredicate::ArithmeticNotEqualTo => int(interp, left)? != int(interp, right)?,
        BinaryPredicate::ArithmeticLessThan => int(interp, left)? < int(interp, right)?,
        BinaryPredicate::ArithmeticLessThanOrEqualTo => int(interp, left)? <= int(interp, right)?,
        BinaryPredicate::ArithmeticGreaterThan => int(interp, left)? > int(interp, right)?,
        BinaryPredicate::ArithmeticGreaterThanOrEqualTo => int(interp, left)? >= int(interp, right)?,
        BinaryPredicate::LeftSortsBeforeRight => left.as_bytes() < right.as_bytes(),
        BinaryPredicate::LeftSortsAfterRight => left.as_bytes() > right.as_bytes(),
        BinaryPredicate::StringExactlyMatchesString | BinaryPredicate::StringExactlyMatchesPattern => left == right,
        BinaryPredicate::StringDoesNotExactlyMatchString | BinaryPredicate::StringDoesNotExactlyMatchPattern => {
            left != right
        }
        BinaryPredicate::StringContainsSubstring => left.contains(right),
        BinaryPredicate::FilesReferToSameDeviceAndInodeNumbers => {
            let storage = interp.runtime().storage;
            let a = storage_path(&interp.state().cwd, left);
            let b = storage_path(&interp.state().cwd, right);
            storage.stat(&a).is_ok() && storage.stat(&b).is_ok() && a == b
        }
        BinaryPredicate::LeftFileIsNewerOrExistsWhenRightDoesNot
        | BinaryPredicate::LeftFileIsOlderOrDoesNotExistWhenRightDoes => {
            let storage = interp.runtime().storage;
            let a = storage.stat(&storage_path(&interp.state().cwd, left)).ok().map(|m| m.modified);
            let b = storage.stat(&storage_path(&interp.state().cwd, right)).ok().map(|m| m.modified);
            let newer = matches!(predicate, BinaryPredicate::LeftFileIsNewerOrExistsWhenRightDoesNot);
            match (a, b) {
                (Some(a), Some(b)) => {
                    if newer {
                        a > b
                    } else {
                        a < b
                    }
                }
                (Some(_), None) => newer,
                (None, Some(_)) => !newer,
                (None, None) => false,
            }
        }
        BinaryPredicate::StringMatchesRegex => false,
    })
}

/// `[[ ]]`, for any [`BuiltinEnv`].
pub(crate) trait ExtendedTest: BuiltinEnv {
    /// `[[ expr ]]`: 0 true, 1 false, 2 error (a bad regex or number).
    fn run_extended_test(&mut self, expr: &ExtendedTestExpr) -> Res {
        match self.eval_extended(expr)? {
            Ok(true) => Ok(0),
            Ok(false) => Ok(1),
            Err(message) => {
                if !message.is_empty() {
                    self.error(message)?;
                }
                Ok(2)
            }
        }
    }

    fn eval_extended(&mut self, expr: &ExtendedTestExpr) -> Result<Result<bool, String>, Flow> {
        self.runtime().check_stack()?;
        Ok(Ok(match expr {
            ExtendedTestExpr::And(a, b) => match self.eval_extended(a)? {
                Ok(true) => return self.eval_extended(b),
                other => return Ok(other),
            },
            ExtendedTestExpr::Or(a, b) => match self.eval_extended(a)? {
                Ok(false) => return self.eval_extended(b),
                other => return Ok(other),
            },
            ExtendedTestExpr::Not(a) => {
                let result = match &**a {
                    ExtendedTestExpr::UnaryTest(..) | ExtendedTestExpr::BinaryTest(..) => self.eval_test(a, true)?,
                    _ => self.eval_extended(a)?,
                };
                match result {
                    Ok(v) => !v,
                    Err(e) => return Ok(Err(e)),
                }
            }
            ExtendedTestExpr::Parenthesized(a) => return self.eval_extended(a),
            ExtendedTestExpr::UnaryTest(..) | ExtendedTestExpr::BinaryTest(..) => return self.eval_test(expr, false),
        }))
    }

    /// One test of `[[ ]]`, traced under `set -x` as bash does (`+ [[ -n
    /// abc ]]`, `+ [[ ! -f x ]]`, a test at a time).
    fn eval_test(&mut self, expr: &ExtendedTestExpr, negated: bool) -> Result<Result<bool, String>, Flow> {
        let not = if negated { "! " } else { "" };
        Ok(Ok(match expr {
            ExtendedTestExpr::UnaryTest(predicate, word) => {
                let operand = self.expand_string(&word.value)?;
                if self.state().options.xtrace {
                    self.trace_test(&format!("{not}{predicate} {}", shown(&operand)))?;
                }
                unary(self, predicate, &operand)
            }
            ExtendedTestExpr::BinaryTest(predicate, left, right) => {
                let l = self.expand_string(&left.value)?;
                match predicate {
                    BinaryPredicate::StringExactlyMatchesPattern
                    | BinaryPredicate::StringExactlyMatchesString
                    | BinaryPredicate::StringDoesNotExactlyMatchPattern
                    | BinaryPredicate::StringDoesNotExactlyMatchString => {
                        let pattern = self.expand_pattern(&right.value)?;
                        if self.state().options.xtrace {
                            self.trace_test(&format!("{not}{} {predicate} {}", shown(&l), shown(&pattern)))?;
                        }
                        let matched = self.pattern_matches(&pattern, &l, true)?;
                        let equal = matches!(
                            predicate,
                            BinaryPredicate::StringExactlyMatchesPattern | BinaryPredicate::StringExactlyMatchesString
                        );
                        matched == equal
                    }
                    BinaryPredicate::StringMatchesRegex => {
                        let regex = self.expand_regex(&right.value)?;
                        if self.state().options.xtrace {
                            self.trace_test(&format!("{not}{} =~ {}", shown(&l), shown(&regex)))?;
                        }
                        return Ok(self.regex_match(&l, &regex));
                    }
                    _ => {
                        let r = self.expand_string(&right.value)?;
                        if self.state().options.xtrace {
                            self.trace_test(&format!("{not}{} {predicate} {}", shown(&l), shown(&r)))?;
                        }
                        match binary_common(self, predicate, &l, &r, true) {
                            Ok(v) => v,
                            Err(e) => return Ok(Err(e)),
                        }
                    }
                }
            }
            _ => return self.eval_extended(expr),
        }))
    }

    fn trace_test(&mut self, text: &str) -> Result<(), Flow> {
        let line = format!("{} [[ {text} ]]\n", "+".repeat(self.at().substs as usize + 1));
        self.err(line.as_bytes())
    }

    /// `text =~ regex`: sets `BASH_REMATCH`.
    fn regex_match(&mut self, text: &str, regex: &str) -> Result<bool, String> {
        // `nocasematch` applies to `=~` too; the cache keeps the two apart.
        let nocase = self.state().options.nocasematch;
        let key = if nocase { format!("\0i{regex}") } else { regex.to_string() };
        let compiled = match self.caches().regexes.get(&key) {
            Some(r) => r.clone(),
            None => {
                // POSIX ERE, as regcomp(3) reads it in the C locale.
                let Ok(translated) = crate::shell::commands::ere_to_regex(regex) else { return Err(String::new()) };
                let Ok(r) =
                    regex::bytes::RegexBuilder::new(&translated).unicode(false).case_insensitive(nocase).build()
                else {
                    return Err(String::new());
                };
                let r = std::rc::Rc::new(r);
                if self.caches().regexes.len() < 256 {
                    self.caches_mut().regexes.insert(key, r.clone());
                }
                r
            }
        };
        let mut map = std::collections::BTreeMap::new();
        let matched = match compiled.captures(text.as_bytes()) {
            Some(caps) => {
                for (i, group) in caps.iter().enumerate() {
                    let value = group.map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned()).unwrap_or_default();
                    map.insert(i as i64, value);
                }
                true
            }
            None => false,
        };
        self.state_mut().set_value("BASH_REMATCH", Value::Indexed(map));
        Ok(matched)
    }
}

/// An operand as bash's `[[ ]]` trace shows it: as it is, `''` when empty.
fn shown(text: &str) -> &str {
    if text.is_empty() {
        "''"
    } else {
        text
    }
}

impl<E: BuiltinEnv + ?Sized> ExtendedTest for E {}
