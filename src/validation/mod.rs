//! Full JSON Schema validation of tool arguments (docs/VALIDATION.md).
//!
//! A registry checks arguments in one of three [`ValidationMode`]s. The
//! default, [`ValidationMode::Required`], is the seed's check: one JSON
//! object holding every required field. [`ValidationMode::Full`] checks the
//! arguments against the whole schema (JSON Schema 2020-12, plus the draft-07
//! keywords tool schemas still use) and reports every violation at once, each
//! at its JSON Pointer, in words a model can act on.
//! [`ValidationMode::Repair`] first coerces what the schema makes
//! unambiguous (`"200"` where an integer is wanted) and reports each change
//! as a [`Repair`].
//!
//! The validator is the `jsonschema` crate (measured against `boon` in
//! docs/PERFORMANCE.md) over a representation of our own ([`tape`]): the
//! arguments are read in place, with one reused array of entries, instead of
//! being converted into a `serde_json::Value`.

mod message;
mod repair;
mod tape;

use std::borrow::Cow;
use std::cell::Cell;

use serde_json::Value;

pub use repair::{repairs_json, Repair};

use crate::json;
use tape::{Entry, Tape, TapeNode};

/// How thoroughly dispatch checks a call's arguments before the handler runs.
/// The numbers are the C constants `AIKIDO_VALIDATE_*`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ValidationMode {
    /// The seed's check: one JSON object holding every required field, not
    /// null. The default.
    #[default]
    Required = 0,
    /// The whole schema (JSON Schema 2020-12), every violation reported.
    Full = 1,
    /// [`ValidationMode::Full`] after repairing what the schema makes
    /// unambiguous: a string holding the object or array wanted, a numeric
    /// string where a number is wanted, `"true"`/`"false"` for a boolean.
    Repair = 2,
}

impl ValidationMode {
    /// The mode with this number (`AIKIDO_VALIDATE_*`), if there is one.
    pub fn from_code(code: u32) -> Option<ValidationMode> {
        match code {
            0 => Some(ValidationMode::Required),
            1 => Some(ValidationMode::Full),
            2 => Some(ValidationMode::Repair),
            _ => None,
        }
    }

    /// Whether this mode checks the whole schema (and so needs it compiled).
    pub fn is_full(self) -> bool {
        self != ValidationMode::Required
    }
}

/// How many violations a message lists before it says how many more there are.
const LISTED_VIOLATIONS: usize = 20;

/// One way the arguments break the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where, as a JSON Pointer into the arguments; `(root)` for the
    /// arguments themselves.
    pub pointer: String,
    /// What is wrong, written for the model.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}: {}", self.pointer, self.message)
    }
}

/// A compiled JSON Schema: made once, used by every call.
pub struct Schema {
    validator: jsonschema::Validator<Tape>,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Schema").finish_non_exhaustive()
    }
}

/// Keywords of draft 7 that 2020-12 replaced; a schema that has no
/// `$schema` and uses any of them is read as draft 7.
fn uses_draft7_keywords(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            matches!(key.as_str(), "additionalItems" | "dependencies")
                || (key == "items" && value.is_array())
                || uses_draft7_keywords(value)
        }),
        Value::Array(items) => items.iter().any(uses_draft7_keywords),
        _ => false,
    }
}

impl Schema {
    /// Compiles schema text. Fails, with the reason, on text that is not
    /// JSON, a schema that is not valid JSON Schema (checked against its
    /// meta-schema), a pattern the `regex` crate cannot compile, or a `$ref`
    /// to another document (never fetched).
    pub fn compile(text: &str) -> Result<Schema, String> {
        if !json::is_valid_json(text.as_bytes()) {
            return Err("the schema is not valid JSON".to_owned());
        }
        let schema: Value =
            serde_json::from_str(text).map_err(|error| format!("the schema cannot be read: {error}"))?;
        Schema::from_value(&schema)
    }

    /// Compiles a schema already parsed.
    pub fn from_value(schema: &Value) -> Result<Schema, String> {
        if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
            return Err("a JSON Schema must be an object or a boolean".to_owned());
        }
        let mut options = jsonschema::options_for::<Tape>()
            .with_pattern_options(jsonschema::PatternOptions::regex().size_limit(1 << 20).dfa_size_limit(1 << 20));
        let has_dialect = schema.get("$schema").is_some();
        options = options.with_draft(if !has_dialect && uses_draft7_keywords(schema) {
            jsonschema::Draft::Draft7
        } else {
            jsonschema::Draft::Draft202012
        });
        let validator = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| options.build(schema)))
            .map_err(|_| "the schema could not be compiled (the validator panicked)".to_owned())?
            .map_err(|error| message::schema_error(&error))?;
        Ok(Schema { validator })
    }

    /// Whether `json` (any JSON value) is valid against the schema. Text
    /// that is not JSON is not.
    pub fn is_valid(&self, json: &str) -> bool {
        json::is_valid_json(json.as_bytes())
            && json.len() <= tape::MAX_LEN
            && with_tape(json, |node| self.validator.is_valid(node))
    }

    /// Checks `json`, any JSON value, and returns every violation.
    pub fn validate(&self, json: &str) -> Result<(), Vec<Violation>> {
        if !json::is_valid_json(json.as_bytes()) {
            return Err(vec![Violation { pointer: "(root)".to_owned(), message: "not valid JSON".to_owned() }]);
        }
        self.validate_checked(json)
    }

    /// [`Schema::validate`] on text that passed the syntax check.
    pub(crate) fn validate_checked(&self, json: &str) -> Result<(), Vec<Violation>> {
        if json.len() > tape::MAX_LEN {
            return Err(vec![Violation {
                pointer: "(root)".to_owned(),
                message: format!("the arguments are too large to validate ({} bytes; at most 4 GiB)", json.len()),
            }]);
        }
        with_tape(json, |node| {
            if self.validator.is_valid(node) {
                return Ok(());
            }
            Err(message::violations(self.validator.iter_errors(node)))
        })
    }

    /// The violations of a document, with the tape at hand (repair uses it).
    pub(crate) fn with_errors<R>(
        &self,
        json: &str,
        visit: impl FnOnce(TapeNode<'_>, Vec<jsonschema::ValidationError<'_>>) -> R,
    ) -> R {
        with_tape(json, |node| {
            let errors: Vec<_> =
                if self.validator.is_valid(node) { Vec::new() } else { self.validator.iter_errors(node).collect() };
            visit(node, errors)
        })
    }
}

thread_local! {
    /// Each thread's entry array, reused by every validation on it.
    static TAPE: Cell<Vec<Entry>> = const { Cell::new(Vec::new()) };
}

/// Entries a thread keeps between calls (about 1.3 MB); a larger document
/// gets its own array, freed after the call.
const KEPT_ENTRIES: usize = 1 << 16;

/// Runs `visit` on the root of `json` (valid JSON, at most `MAX_LEN` bytes).
fn with_tape<R>(json: &str, visit: impl FnOnce(TapeNode<'_>) -> R) -> R {
    // Taken, not borrowed: a handler may dispatch again on this thread,
    // and a panic inside leaves an empty array behind, never a borrowed one.
    let mut entries = TAPE.take();
    tape::build(json, &mut entries);
    let result = visit(TapeNode::root(json, &entries));
    if entries.capacity() <= KEPT_ENTRIES {
        entries.clear();
        TAPE.set(entries);
    }
    result
}

/// What the handler receives once the check passed.
pub(crate) struct Checked<'a> {
    /// The arguments: verbatim, `{}` for empty ones, or the repaired text.
    pub(crate) arguments: Cow<'a, str>,
    /// What REPAIR mode changed; empty otherwise.
    pub(crate) repairs: Vec<Repair>,
}

/// Dispatch's check in every mode. REQUIRED is the seed's check, byte for
/// byte. FULL and REPAIR run the seed's syntax rules first (one JSON object,
/// the same messages), then the schema, when the tool has one.
pub(crate) fn check_arguments<'a>(
    raw: &'a [u8],
    required: &[Box<str>],
    mode: ValidationMode,
    schema: Option<&Schema>,
) -> Result<Checked<'a>, String> {
    let (arguments, schema) = match (mode, schema) {
        (ValidationMode::Required, _) => (json::check(raw, required)?, None),
        (_, None) => (json::check(raw, &[])?, None),
        (_, Some(schema)) => (json::check(raw, &[])?, Some(schema)),
    };
    let Some(schema) = schema else {
        return Ok(Checked { arguments: Cow::Borrowed(arguments), repairs: Vec::new() });
    };
    if mode == ValidationMode::Repair {
        let (arguments, repairs) = repair::repair(arguments, schema)?;
        return Ok(Checked { arguments, repairs });
    }
    schema.validate_checked(arguments).map_err(|violations| message::join(&violations))?;
    Ok(Checked { arguments: Cow::Borrowed(arguments), repairs: Vec::new() })
}

#[cfg(test)]
mod tests;
