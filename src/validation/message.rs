//! Violations in words a model acts on: what was expected, what was sent
//! (cut when long), the allowed values, the bounds, the pattern.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use serde_json::Value;

use super::Violation;

/// How many violations a message lists before it says how many more there are.
const LISTED_VIOLATIONS: usize = 20;
use crate::json::quote_list;

/// How many characters of a value a message shows before it cuts.
const SHOWN_CHARS: usize = 60;
/// How many allowed values a message lists before it cuts.
const LISTED_VALUES: usize = 20;

/// The pointer a violation of the arguments themselves carries.
pub(crate) const ROOT: &str = "(root)";

fn pointer_of(path: &str) -> String {
    if path.is_empty() {
        ROOT.to_owned()
    } else {
        path.to_owned()
    }
}

/// Every error, phrased, sorted by pointer (stable: within one pointer in
/// the schema's order), missing fields of one object merged.
pub(crate) fn violations<'a>(errors: impl Iterator<Item = ValidationError<'a>>) -> Vec<Violation> {
    let mut missing: Vec<(String, Vec<String>)> = Vec::new();
    let mut out: Vec<Violation> = Vec::new();
    for error in errors {
        let pointer = pointer_of(error.instance_path().as_str());
        if let ValidationErrorKind::Required { property } = error.kind() {
            let name = property.as_str().map(str::to_owned).unwrap_or_else(|| property.to_string());
            match missing.iter_mut().find(|(at, _)| *at == pointer) {
                Some((_, names)) => {
                    if !names.contains(&name) {
                        names.push(name)
                    }
                }
                None => {
                    // Keep its place among the other violations.
                    out.push(Violation { pointer: pointer.clone(), message: String::new() });
                    missing.push((pointer, vec![name]));
                }
            }
            continue;
        }
        out.push(Violation { pointer, message: phrase(&error) });
    }
    for violation in out.iter_mut().filter(|violation| violation.message.is_empty()) {
        if let Some((_, names)) = missing.iter().find(|(at, _)| *at == violation.pointer) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let noun = if names.len() == 1 { "field" } else { "fields" };
            violation.message = format!("missing required {noun} {}", quote_list(&names));
        }
    }
    out.sort_by(|left, right| order_key(left).cmp(&order_key(right)));
    out.dedup();
    out
}

/// The root first, then pointers in text order; at one pointer, missing
/// fields first.
fn order_key(violation: &Violation) -> (bool, &str, bool) {
    (violation.pointer != ROOT, &violation.pointer, !violation.message.starts_with("missing required"))
}

/// `a; b; c`, at most [`LISTED_VIOLATIONS`] of them.
pub(crate) fn join(violations: &[Violation]) -> String {
    let mut parts: Vec<String> = violations.iter().take(LISTED_VIOLATIONS).map(Violation::to_string).collect();
    if violations.len() > LISTED_VIOLATIONS {
        parts.push(format!("and {} more violations", violations.len() - LISTED_VIOLATIONS));
    }
    parts.join("; ")
}

/// A JSON value as a model reads it, cut after [`SHOWN_CHARS`] characters.
pub(crate) fn shown(value: &Value) -> String {
    cut(&value.to_string())
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}… ({} characters in all)", &text[..at], text.chars().count()),
    }
}

/// `string "200"`, `integer 5`, `number 2.5`, `boolean true`, `null`,
/// `object {"a":1}`, `array [1,2]`.
fn described(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "boolean",
        Value::Number(number)
            if number.is_i64() || number.is_u64() || !number.to_string().contains(['.', 'e', 'E']) =>
        {
            "integer"
        }
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    format!("{kind} {}", shown(value))
}

fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn count_of(value: &Value) -> u64 {
    match value {
        Value::String(text) => text.chars().count() as u64,
        Value::Array(items) => items.len() as u64,
        Value::Object(members) => members.len() as u64,
        _ => 0,
    }
}

fn quoted_names(names: &[String]) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    quote_list(&names)
}

/// One error in words, without its pointer.
pub(crate) fn phrase(error: &ValidationError<'_>) -> String {
    let instance = error.instance();
    let got = || described(instance);
    match error.kind() {
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(single) => single.to_string(),
                TypeKind::Multiple(set) => or_list(&set.iter().map(|t| t.to_string()).collect::<Vec<_>>()),
            };
            format!("expected {expected}, got {}", got())
        }
        ValidationErrorKind::Enum { options } => {
            let values = options.as_array().map(Vec::as_slice).unwrap_or_default();
            let mut listed: Vec<String> = values.iter().take(LISTED_VALUES).map(shown).collect();
            if values.len() > LISTED_VALUES {
                listed.push(format!("and {} more", values.len() - LISTED_VALUES));
            }
            format!("must be one of {}", listed.join(", "))
        }
        ValidationErrorKind::Constant { expected_value } => format!("must be {}, got {}", shown(expected_value), got()),
        ValidationErrorKind::Required { property } => {
            format!("missing required field {}", property)
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            if unexpected.len() == 1 {
                format!("field {} is not allowed here", quoted_names(unexpected))
            } else {
                format!("fields {} are not allowed here", quoted_names(unexpected))
            }
        }
        ValidationErrorKind::AdditionalItems { limit } => {
            format!("must have at most {}, got {}", plural(*limit as u64, "item", "items"), count_of(instance))
        }
        ValidationErrorKind::UnevaluatedItems { unexpected } => {
            format!("items {} are not allowed here", unexpected.join(", "))
        }
        ValidationErrorKind::MinLength { limit } => format!(
            "must be at least {} long, got {} ({})",
            plural(*limit, "character", "characters"),
            count_of(instance),
            got()
        ),
        ValidationErrorKind::MaxLength { limit } => format!(
            "must be at most {} long, got {} ({})",
            plural(*limit, "character", "characters"),
            count_of(instance),
            got()
        ),
        ValidationErrorKind::Minimum { limit } => format!("must be >= {limit}, got {}", shown(instance)),
        ValidationErrorKind::Maximum { limit } => format!("must be <= {limit}, got {}", shown(instance)),
        ValidationErrorKind::ExclusiveMinimum { limit } => format!("must be > {limit}, got {}", shown(instance)),
        ValidationErrorKind::ExclusiveMaximum { limit } => format!("must be < {limit}, got {}", shown(instance)),
        ValidationErrorKind::MultipleOf { multiple_of } => {
            format!("must be a multiple of {multiple_of}, got {}", shown(instance))
        }
        ValidationErrorKind::MinItems { limit } => {
            format!("must have at least {}, got {}", plural(*limit, "item", "items"), count_of(instance))
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("must have at most {}, got {}", plural(*limit, "item", "items"), count_of(instance))
        }
        ValidationErrorKind::MinProperties { limit } => {
            format!("must have at least {}, got {}", plural(*limit, "field", "fields"), count_of(instance))
        }
        ValidationErrorKind::MaxProperties { limit } => {
            format!("must have at most {}, got {}", plural(*limit, "field", "fields"), count_of(instance))
        }
        ValidationErrorKind::UniqueItems => "items must be unique, but some are equal".to_owned(),
        ValidationErrorKind::Pattern { pattern } => {
            format!("must match the pattern {}, got {}", Value::String(pattern.clone()), got())
        }
        ValidationErrorKind::Format { format } => format!("must be a valid {format}, got {}", got()),
        ValidationErrorKind::Contains => "must contain an item that matches the schema given for it".to_owned(),
        ValidationErrorKind::FalseSchema => "no value is allowed here".to_owned(),
        ValidationErrorKind::Not { schema } => format!("must not match the schema {}", shown(schema)),
        ValidationErrorKind::AnyOf { context } => {
            format!("must match at least one of the alternatives: {}", alternatives(error, context))
        }
        ValidationErrorKind::OneOfNotValid { context } => {
            format!("must match exactly one of the alternatives: {}", alternatives(error, context))
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            "must match exactly one of the alternatives, but matches more than one".to_owned()
        }
        ValidationErrorKind::PropertyNames { error } => {
            format!("field name {} is not allowed: {}", shown(instance_name(error)), phrase(error))
        }
        ValidationErrorKind::ContentEncoding { content_encoding } => {
            format!("must be text encoded as {content_encoding}")
        }
        ValidationErrorKind::FromUtf8 { .. } => "must decode to valid UTF-8".to_owned(),
        ValidationErrorKind::ContentMediaType { content_media_type } => {
            format!("must hold a valid {content_media_type} document")
        }
        ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. } => {
            "the pattern could not be checked against this value".to_owned()
        }
        ValidationErrorKind::Custom { message, .. } => message.clone(),
        ValidationErrorKind::Referencing(error) => format!("the schema's reference cannot be resolved: {error}"),
    }
}

fn instance_name<'e>(error: &'e ValidationError<'_>) -> &'e Value {
    error.instance()
}

/// `(1) expected string, got integer 5; (2) /a: missing required field "b"`,
/// each alternative's errors relative to the value that failed them.
fn alternatives(outer: &ValidationError<'_>, context: &[Vec<ValidationError<'static>>]) -> String {
    let prefix = outer.instance_path().as_str();
    let mut parts = Vec::new();
    for (index, errors) in context.iter().enumerate().take(8) {
        let inner: Vec<String> = errors
            .iter()
            .take(4)
            .map(|error| {
                let path = error.instance_path().as_str();
                let path = path.strip_prefix(prefix).unwrap_or(path);
                let phrased = phrase(error);
                if path.is_empty() {
                    phrased
                } else {
                    format!("{path}: {phrased}")
                }
            })
            .collect();
        parts.push(format!("({}) {}", index + 1, inner.join(", ")));
    }
    if context.len() > 8 {
        parts.push(format!("and {} more", context.len() - 8));
    }
    parts.join("; ")
}

/// Why a schema was refused, for the registration error.
pub(crate) fn schema_error(error: &ValidationError<'_>) -> String {
    match error.kind() {
        ValidationErrorKind::Referencing(inner) => {
            format!("a $ref cannot be resolved ({inner}); references to other documents are never fetched")
        }
        _ => {
            let path = error.instance_path().as_str();
            let at = if path.is_empty() { "the schema".to_owned() } else { format!("the schema at {path}") };
            format!("{at} is not valid JSON Schema: {}", phrase(error))
        }
    }
}
