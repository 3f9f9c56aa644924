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

#[cfg(feature = "full-validation")]
mod full;
#[cfg(feature = "full-validation")]
mod message;
#[cfg(feature = "full-validation")]
mod repair;
mod report;
#[cfg(feature = "full-validation")]
mod tape;

use std::borrow::Cow;

pub use report::{repairs_json, Repair};

use crate::json;

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

#[cfg(not(feature = "full-validation"))]
pub use absent::Schema;
#[cfg(feature = "full-validation")]
pub use full::Schema;

/// Whether this build has FULL and REPAIR validation (the cargo feature
/// `full-validation`, on by default).
pub const FULL_VALIDATION: bool = cfg!(feature = "full-validation");

/// The refusal of FULL and REPAIR mode in a build without them.
pub(crate) fn unavailable() -> String {
    "FULL and REPAIR validation are not in this build of libaikido (it was built without the cargo \
     feature `full-validation`); REQUIRED mode, the seed's check, is"
        .to_owned()
}

/// FULL validation left out of the build: no schema is ever compiled, so
/// no value of this type exists.
#[cfg(not(feature = "full-validation"))]
mod absent {
    use std::borrow::Cow;

    use super::{Repair, Violation};

    /// A compiled JSON Schema; none exists in a build without the cargo
    /// feature `full-validation`.
    #[derive(Debug)]
    pub struct Schema {
        never: std::convert::Infallible,
    }

    impl Schema {
        /// Always fails: this build has no JSON Schema validator.
        pub fn compile(_text: &str) -> Result<Schema, String> {
            Err(super::unavailable())
        }

        /// Never called: no `Schema` exists.
        pub fn is_valid(&self, _json: &str) -> bool {
            match self.never {}
        }

        /// Never called: no `Schema` exists.
        pub fn validate(&self, _json: &str) -> Result<(), Vec<Violation>> {
            match self.never {}
        }

        pub(crate) fn check<'a>(
            &self,
            _arguments: &'a str,
            _repair: bool,
        ) -> Result<(Cow<'a, str>, Vec<Repair>), String> {
            match self.never {}
        }

        pub(crate) fn check_full<'a>(&self, _raw: &'a [u8]) -> Result<&'a str, String> {
            match self.never {}
        }
    }
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
    required: &json::Required,
    mode: ValidationMode,
    schema: Option<&Schema>,
) -> Result<Checked<'a>, String> {
    let (arguments, schema) = match (mode, schema) {
        (ValidationMode::Required, _) => (json::check(raw, required)?, None),
        // The syntax check builds the validator's tape in the same pass.
        (ValidationMode::Full, Some(schema)) => {
            return Ok(Checked { arguments: Cow::Borrowed(schema.check_full(raw)?), repairs: Vec::new() })
        }
        (_, None) => (json::check(raw, &json::Required::NONE)?, None),
        (_, Some(schema)) => (json::check(raw, &json::Required::NONE)?, Some(schema)),
    };
    let Some(schema) = schema else {
        return Ok(Checked { arguments: Cow::Borrowed(arguments), repairs: Vec::new() });
    };
    let (arguments, repairs) = schema.check(arguments, mode == ValidationMode::Repair)?;
    Ok(Checked { arguments, repairs })
}

#[cfg(all(test, feature = "full-validation"))]
mod tests;

#[cfg(all(test, not(feature = "full-validation")))]
mod absent_tests {
    use crate::{Error, Registry, ToolDefinition, ToolResult, ValidationMode};

    /// Without the feature, REQUIRED is the only mode, and asking for
    /// another says why; the registry keeps checking as it did.
    #[test]
    fn full_modes_are_refused_with_the_reason() {
        let registry = Registry::new();
        registry
            .register(
                ToolDefinition::new("read", "").with_parameters(r#"{"type":"object","required":["path"]}"#),
                |arguments: &str, _: &crate::Environment| Ok(ToolResult::new(arguments)),
            )
            .unwrap();
        for mode in [ValidationMode::Full, ValidationMode::Repair] {
            let Err(Error::InvalidInput(message)) = registry.set_validation(mode) else { panic!("{mode:?} accepted") };
            assert!(message.contains("full-validation"), "{message}");
        }
        assert_eq!(registry.validation(), ValidationMode::Required);
        registry.set_validation(ValidationMode::Required).unwrap();
        let call = crate::ToolCall::new("read", "{}");
        let error = registry.dispatch(&call, &crate::Environment::new("s")).unwrap_err().to_string();
        assert!(error.contains("missing required field \"path\""), "{error}");
    }
}
