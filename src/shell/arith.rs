//! Shell arithmetic on i64 with C semantics (wrapping, as bash's): `$(( ))`,
//! `(( ))`, `for (( ; ; ))`, `let`, array indices and `declare -i`. A
//! variable's value is itself evaluated as an expression, as in bash.

use std::rc::Rc;

use brush_parser::ast::{ArithmeticExpr, ArithmeticTarget, BinaryOperator, UnaryAssignmentOperator, UnaryOperator};

use super::expand::{Assign, AssignValue, ExpandEnv, Expander};
use super::flow::Flow;
use super::state::Value;

/// How deep variables may refer to variables (`a=b b=a; $((a))`).
const MAX_RECURSION: u32 = 32;

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ArithError {
    DivisionByZero,
    NegativeExponent,
    Syntax(String),
    /// `08`, `2#3`: a digit too great for the base.
    Base(String),
    Recursion,
    Assign(String),
    /// A text bash cannot read, with bash's whole message for it.
    Diagnosed(String),
}

impl std::fmt::Display for ArithError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArithError::DivisionByZero => f.write_str("division by 0"),
            ArithError::NegativeExponent => f.write_str("exponent less than 0"),
            ArithError::Syntax(text) => write!(f, "syntax error in expression (error token is \"{text}\")"),
            ArithError::Base(text) => write!(f, "value too great for base (error token is \"{text}\")"),
            ArithError::Recursion => f.write_str("expression recursion level exceeded"),
            ArithError::Assign(message) | ArithError::Diagnosed(message) => f.write_str(message),
        }
    }
}

/// The message bash prints for an error in `text`.
pub(crate) fn message(text: &str, error: &ArithError) -> String {
    match error {
        ArithError::DivisionByZero => {
            let token = text.rfind(['/', '%']).map_or(text, |i| text[i + 1..].trim_start());
            format!("{}: {error} (error token is \"{token}\")", text.trim_start())
        }
        ArithError::NegativeExponent => {
            let token = text.rfind(['*', '-']).map_or(text, |i| text[i + 1..].trim_start());
            format!("{}: {error} (error token is \"{token}\")", text.trim_start())
        }
        ArithError::Assign(message) | ArithError::Diagnosed(message) => message.clone(),
        // The text at fault may be a variable's value, not the expression.
        ArithError::Syntax(inner) | ArithError::Base(inner) => format!("{inner}: {error}"),
        _ => format!("{}: {error}", text.trim_start()),
    }
}

fn needs_expansion(text: &str) -> bool {
    text.contains(['$', '`', '"', '\'', '\\'])
}

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// `$(( text ))`: an error ends the script (status 1), as in bash.
    pub(super) fn arith_expand(&mut self, text: &str) -> Result<i64, Flow> {
        if needs_expansion(text) {
            let expanded = self.expand_string(text)?;
            self.arith_expand_text(&expanded)
        } else {
            self.arith_expand_text(text)
        }
    }

    /// Like [`arith_expand`](Self::arith_expand) on already expanded text.
    pub(super) fn arith_expand_text(&mut self, text: &str) -> Result<i64, Flow> {
        match self.arith_eval_str(text, 0) {
            Ok(v) => Ok(v),
            Err(error) => {
                self.error(message(text, &error))?;
                Err(Flow::Abort(1))
            }
        }
    }

    /// `(( text ))` and the parts of `for (( ))`: an error prints a message
    /// and gives `None` (status 1) without ending the script.
    pub(super) fn arith_command(&mut self, text: &str) -> Result<Option<i64>, Flow> {
        let expanded = if needs_expansion(text) { self.expand_string(text)? } else { text.to_string() };
        match self.arith_eval_str(&expanded, 0) {
            Ok(v) => Ok(Some(v)),
            Err(error) => {
                self.error(format_args!("((: {}", message(&expanded, &error)))?;
                Ok(None)
            }
        }
    }

    /// An expression's value, with the error for the caller to report.
    pub(super) fn arith_value(&mut self, text: &str) -> Result<i64, ArithError> {
        self.arith_eval_str(text, 0)
    }

    fn arith_eval_str(&mut self, text: &str, depth: u32) -> Result<i64, ArithError> {
        if depth > MAX_RECURSION {
            return Err(ArithError::Recursion);
        }
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(0);
        }
        if let Some(v) = parse_plain_number(trimmed) {
            return Ok(v);
        }
        let expr = match self.caches().ariths.get(trimmed) {
            Some(expr) => expr.clone(),
            None => {
                let expr = super::parse::parse_arith(trimmed).ok_or_else(|| {
                    // The parser gives up on a nesting deeper than the stack.
                    if super::parse::arith_too_deep(trimmed) {
                        ArithError::Recursion
                    } else {
                        // bash's own words for it, about the text
                        // as written (its trailing blanks too).
                        super::arith_syntax::diagnose(text)
                            .map_or_else(|| bad_number_or_syntax(trimmed), ArithError::Diagnosed)
                    }
                })?;
                let expr = Rc::new(expr);
                if self.caches().ariths.len() < 4096 {
                    self.caches_mut().ariths.insert(trimmed.to_string(), expr.clone());
                }
                expr
            }
        };
        self.arith_eval(&expr, depth)
    }

    fn arith_read(&mut self, target: &ArithmeticTarget, depth: u32) -> Result<i64, ArithError> {
        let text = match target {
            ArithmeticTarget::Variable(name) => match self.state().get(name) {
                Some(v) => v.to_string(),
                None => match name.as_str() {
                    "RANDOM" | "LINENO" | "SECONDS" => self.special_var_text(name),
                    _ => {
                        if self.state().options.nounset {
                            return Err(ArithError::Assign(format!("{name}: unbound variable")));
                        }
                        return Ok(0);
                    }
                },
            },
            ArithmeticTarget::ArrayElement(name, index) => {
                let key = self.element_key(name, index, depth)?;
                match (self.state().var(name.as_str()).map(|v| &v.value), key) {
                    (Some(Value::Indexed(map)), Key::Index(i)) => map.get(&i).cloned().unwrap_or_default(),
                    (Some(Value::Str(s)), Key::Index(0)) => s.clone(),
                    (Some(Value::Assoc(map)), Key::Name(k)) => map.get(&k).cloned().unwrap_or_default(),
                    _ => String::new(),
                }
            }
        };
        self.arith_eval_str(&text, depth + 1)
    }

    fn special_var_text(&mut self, name: &str) -> String {
        let mut fields = Vec::new();
        // Expanding `$NAME` reuses the dynamic variables of the expander.
        if self.expand_word_into(&format!("${name}"), &mut fields).is_err() {
            return String::new();
        }
        fields.pop().unwrap_or_default()
    }

    fn element_key(&mut self, name: &str, index: &ArithmeticExpr, depth: u32) -> Result<Key, ArithError> {
        if matches!(self.state().var(name).map(|v| &v.value), Some(Value::Assoc(_))) {
            // An associative array's key is the index's text.
            return Ok(Key::Name(match index {
                ArithmeticExpr::Reference(ArithmeticTarget::Variable(v)) => v.clone(),
                ArithmeticExpr::Literal(n) => n.to_string(),
                other => self.arith_eval(other, depth)?.to_string(),
            }));
        }
        let i = self.arith_eval(index, depth)?;
        match self.state().resolve_index(name, i) {
            Some(i) => Ok(Key::Index(i)),
            None => Err(ArithError::Assign(format!("{name}: bad array subscript"))),
        }
    }

    fn arith_write(&mut self, target: &ArithmeticTarget, value: i64, depth: u32) -> Result<(), ArithError> {
        let (name, index) = match target {
            ArithmeticTarget::Variable(name) => (name.clone(), None),
            ArithmeticTarget::ArrayElement(name, index) => {
                let key = match self.element_key(name, index, depth)? {
                    Key::Index(i) => i.to_string(),
                    Key::Name(k) => k,
                };
                (name.clone(), Some(key))
            }
        };
        let assign = Assign { name, index, value: AssignValue::Scalar(value.to_string()), append: false };
        self.assign(&assign, false).map_err(ArithError::Assign)
    }

    fn arith_eval(&mut self, expr: &ArithmeticExpr, depth: u32) -> Result<i64, ArithError> {
        if super::stack::too_deep() {
            return Err(ArithError::Recursion);
        }
        Ok(match expr {
            ArithmeticExpr::Literal(n) => *n,
            ArithmeticExpr::Reference(target) => self.arith_read(target, depth)?,
            ArithmeticExpr::UnaryOp(op, operand) => {
                let v = self.arith_eval(operand, depth)?;
                match op {
                    UnaryOperator::UnaryPlus => v,
                    UnaryOperator::UnaryMinus => v.wrapping_neg(),
                    UnaryOperator::BitwiseNot => !v,
                    UnaryOperator::LogicalNot => i64::from(v == 0),
                }
            }
            ArithmeticExpr::BinaryOp(op, left, right) => match op {
                BinaryOperator::LogicalAnd => {
                    let l = self.arith_eval(left, depth)?;
                    i64::from(l != 0 && self.arith_eval(right, depth)? != 0)
                }
                BinaryOperator::LogicalOr => {
                    let l = self.arith_eval(left, depth)?;
                    i64::from(l != 0 || self.arith_eval(right, depth)? != 0)
                }
                _ => {
                    let l = self.arith_eval(left, depth)?;
                    let r = self.arith_eval(right, depth)?;
                    binary(op, l, r)?
                }
            },
            ArithmeticExpr::Conditional(cond, then, otherwise) => {
                if self.arith_eval(cond, depth)? != 0 {
                    self.arith_eval(then, depth)?
                } else {
                    self.arith_eval(otherwise, depth)?
                }
            }
            ArithmeticExpr::Assignment(target, value) => {
                let v = self.arith_eval(value, depth)?;
                self.arith_write(target, v, depth)?;
                v
            }
            ArithmeticExpr::BinaryAssignment(op, target, value) => {
                let current = self.arith_read(target, depth)?;
                let v = self.arith_eval(value, depth)?;
                let v = binary(op, current, v)?;
                self.arith_write(target, v, depth)?;
                v
            }
            ArithmeticExpr::UnaryAssignment(op, target) => {
                let current = self.arith_read(target, depth)?;
                let (new, result) = match op {
                    UnaryAssignmentOperator::PrefixIncrement => (current.wrapping_add(1), current.wrapping_add(1)),
                    UnaryAssignmentOperator::PrefixDecrement => (current.wrapping_sub(1), current.wrapping_sub(1)),
                    UnaryAssignmentOperator::PostfixIncrement => (current.wrapping_add(1), current),
                    UnaryAssignmentOperator::PostfixDecrement => (current.wrapping_sub(1), current),
                };
                self.arith_write(target, new, depth)?;
                result
            }
        })
    }
}

enum Key {
    Index(i64),
    Name(String),
}

fn binary(op: &BinaryOperator, l: i64, r: i64) -> Result<i64, ArithError> {
    Ok(match op {
        BinaryOperator::Power => {
            if r < 0 {
                return Err(ArithError::NegativeExponent);
            }
            let mut result: i64 = 1;
            let mut base = l;
            let mut exp = r as u64;
            while exp > 0 {
                if exp & 1 == 1 {
                    result = result.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                exp >>= 1;
            }
            result
        }
        BinaryOperator::Multiply => l.wrapping_mul(r),
        BinaryOperator::Divide => {
            if r == 0 {
                return Err(ArithError::DivisionByZero);
            }
            l.wrapping_div(r)
        }
        BinaryOperator::Modulo => {
            if r == 0 {
                return Err(ArithError::DivisionByZero);
            }
            l.wrapping_rem(r)
        }
        BinaryOperator::Comma => r,
        BinaryOperator::Add => l.wrapping_add(r),
        BinaryOperator::Subtract => l.wrapping_sub(r),
        BinaryOperator::ShiftLeft => l.wrapping_shl(r as u32),
        BinaryOperator::ShiftRight => l.wrapping_shr(r as u32),
        BinaryOperator::LessThan => i64::from(l < r),
        BinaryOperator::LessThanOrEqualTo => i64::from(l <= r),
        BinaryOperator::GreaterThan => i64::from(l > r),
        BinaryOperator::GreaterThanOrEqualTo => i64::from(l >= r),
        BinaryOperator::Equals => i64::from(l == r),
        BinaryOperator::NotEquals => i64::from(l != r),
        BinaryOperator::BitwiseAnd => l & r,
        BinaryOperator::BitwiseXor => l ^ r,
        BinaryOperator::BitwiseOr => l | r,
        BinaryOperator::LogicalAnd => i64::from(l != 0 && r != 0),
        BinaryOperator::LogicalOr => i64::from(l != 0 || r != 0),
    })
}

/// The error for text the grammar refused: a number with a digit too great
/// for its base (`08`, `2#2`), else a syntax error.
fn bad_number_or_syntax(text: &str) -> ArithError {
    let bad_octal = text.len() > 1 && text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit());
    let bad_based = text.split_once('#').is_some_and(|(base, digits)| {
        base.parse::<u32>().is_ok_and(|b| (2..=36).contains(&b))
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if bad_octal || bad_based {
        ArithError::Base(text.to_string())
    } else {
        ArithError::Syntax(text.to_string())
    }
}

/// A plain decimal number (the common case, parsed without the grammar).
fn parse_plain_number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    text.parse().ok()
}
