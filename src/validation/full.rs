//! FULL and REPAIR validation: the compiled schema, over the `jsonschema`
//! crate (the cargo feature `full-validation`, on by default).

use std::borrow::Cow;
use std::cell::Cell;

use serde_json::Value;

use super::tape::{self, Entry, Tape, TapeNode};
use super::{message, repair, Repair, Violation};
use crate::json;

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
            json::parse_value(text.as_bytes()).map_err(|error| format!("the schema cannot be read: {error}"))?;
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
        json.len() <= tape::MAX_LEN
            && with_entries(|entries| {
                tape::build(json, entries) && self.validator.is_valid(TapeNode::root(json, entries))
            })
    }

    /// Checks `json`, any JSON value, and returns every violation.
    pub fn validate(&self, json: &str) -> Result<(), Vec<Violation>> {
        let not_json = || vec![Violation { pointer: "(root)".to_owned(), message: "not valid JSON".to_owned() }];
        if json.len() > tape::MAX_LEN {
            return Err(if json::is_valid_json(json.as_bytes()) { too_large(json.len()) } else { not_json() });
        }
        with_entries(|entries| {
            if !tape::build(json, entries) {
                return Err(not_json());
            }
            self.violations(TapeNode::root(json, entries))
        })
    }

    /// [`Schema::validate`] on text that passed the syntax check.
    pub(crate) fn validate_checked(&self, json: &str) -> Result<(), Vec<Violation>> {
        if json.len() > tape::MAX_LEN {
            return Err(too_large(json.len()));
        }
        with_tape(json, |node| self.violations(node))
    }

    /// Every violation of the document at `node`.
    fn violations(&self, node: TapeNode<'_>) -> Result<(), Vec<Violation>> {
        if self.validator.is_valid(node) {
            return Ok(());
        }
        Err(message::violations(self.validator.iter_errors(node)))
    }

    /// Checks arguments that passed the seed's syntax rules: with `repair`,
    /// REPAIR mode (the repaired text and every repair), else FULL.
    pub(crate) fn check<'a>(&self, arguments: &'a str, repair: bool) -> Result<(Cow<'a, str>, Vec<Repair>), String> {
        if repair {
            return repair::repair(arguments, self);
        }
        self.validate_checked(arguments).map_err(|violations| message::join(&violations))?;
        Ok((Cow::Borrowed(arguments), Vec::new()))
    }

    /// FULL mode's whole check of raw arguments: the seed's syntax rules
    /// (`json::check`, same messages) and the schema, with the tape built
    /// by the syntax check's own pass over the text.
    pub(crate) fn check_full<'a>(&self, raw: &'a [u8]) -> Result<&'a str, String> {
        if raw.len() > tape::MAX_LEN {
            let arguments = json::check(raw, &json::Required::NONE)?;
            self.check(arguments, false)?;
            return Ok(arguments);
        }
        with_entries(|entries| {
            tape::reserve(entries, raw.len());
            let arguments = json::check_with(raw, &json::Required::NONE, tape::Builder::new(entries))?;
            if entries.is_empty() {
                // Empty arguments, read as `{}`: the scan saw no token.
                tape::build(arguments, entries);
            }
            self.violations(TapeNode::root(arguments, entries)).map_err(|violations| message::join(&violations))?;
            Ok(arguments)
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

/// The violation of a text too long for a tape's 32-bit offsets.
fn too_large(len: usize) -> Vec<Violation> {
    vec![Violation {
        pointer: "(root)".to_owned(),
        message: format!("the arguments are too large to validate ({len} bytes; at most 4 GiB)"),
    }]
}

/// Runs `visit` on the root of `json` (valid JSON, at most `MAX_LEN` bytes).
fn with_tape<R>(json: &str, visit: impl FnOnce(TapeNode<'_>) -> R) -> R {
    with_entries(|entries| {
        let valid = tape::build(json, entries);
        debug_assert!(valid, "the caller checked the JSON");
        visit(TapeNode::root(json, entries))
    })
}

/// Runs `fill` on the thread's entry array.
fn with_entries<R>(fill: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
    // Taken, not borrowed: a handler may dispatch again on this thread,
    // and a panic inside leaves an empty array behind, never a borrowed one.
    let mut entries = TAPE.take();
    let result = fill(&mut entries);
    if entries.capacity() <= KEPT_ENTRIES {
        entries.clear();
        TAPE.set(entries);
    }
    result
}
