//! The validator against the official test suite's schemas
//! (tests/data/JSON-Schema-Test-Suite, draft 2020-12).
//!
//! The first byte of an input picks one of the suite's schemas; the rest is
//! a document. Whatever the bytes, nothing may panic, hang or leak, and:
//! - `is_valid` and `validate` agree, and an invalid document gets at least
//!   one violation, each with a pointer and a message;
//! - as arguments of a tool with that schema, FULL dispatch passes exactly
//!   when the document is a JSON object `validate` accepts, and hands the
//!   handler the text verbatim;
//! - REPAIR dispatch that passes hands the handler an object the schema
//!   accepts, and reports a repair for each change (none when nothing
//!   changed).

#![no_main]

use std::sync::OnceLock;

use aikido::validation::Schema;
use aikido::{Environment, Registry, ToolCall, ToolDefinition, ToolResult, ValidationMode};
use libfuzzer_sys::fuzz_target;

struct Case {
    schema: Schema,
    full: Registry,
    repair: Registry,
}

/// Every schema of the suite that compiles (the remote-ref ones do not).
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/JSON-Schema-Test-Suite/tests/draft2020-12");
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        files.sort();
        let mut cases = Vec::new();
        for file in files {
            let groups: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            for group in groups.as_array().unwrap() {
                let text = group["schema"].to_string();
                let Ok(schema) = Schema::compile(&text) else { continue };
                let registry = |mode| {
                    let registry = Registry::new();
                    registry.set_validation(mode).unwrap();
                    registry
                        .register(ToolDefinition::new("probe", "").with_parameters(&text), |arguments: &str, _: &Environment| {
                            Ok(ToolResult::new(arguments))
                        })
                        .unwrap();
                    registry
                };
                cases.push(Case { schema, full: registry(ValidationMode::Full), repair: registry(ValidationMode::Repair) });
            }
        }
        assert!(cases.len() > 300);
        cases
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, document)) = data.split_first() else { return };
    let cases = cases();
    let case = &cases[pick as usize % cases.len()];
    let Ok(text) = std::str::from_utf8(document) else {
        // Not UTF-8: dispatch refuses it in every mode.
        assert!(case.full.dispatch(&ToolCall { id: "", name: "probe", arguments: document }, &Environment::default()).is_err());
        return;
    };
    let valid = case.schema.is_valid(text);
    let report = case.schema.validate(text);
    assert_eq!(valid, report.is_ok(), "{text}: {report:?}");
    if let Err(violations) = &report {
        assert!(!violations.is_empty());
        for violation in violations {
            assert!(violation.pointer == "(root)" || violation.pointer.starts_with('/'), "{violation}");
            assert!(!violation.message.is_empty());
        }
    }
    let is_object = aikido::is_valid_json(document) && text.trim_start_matches([' ', '\t', '\r', '\n']).starts_with('{');
    let call = ToolCall::new("probe", text);
    let full = case.full.dispatch(&call, &Environment::default());
    if is_object {
        assert_eq!(full.is_ok(), valid, "{text}: {full:?}");
    }
    if let Ok(result) = full {
        if is_object {
            assert_eq!(result.content, text);
        }
        assert!(result.repairs.is_empty());
    }
    if let Ok(result) = case.repair.dispatch(&call, &Environment::default()) {
        assert!(case.schema.is_valid(&result.content) || result.content == "{}", "{text} -> {}", result.content);
        assert_eq!(result.repairs.is_empty(), result.content == text || result.content == "{}", "{text}");
    }
});
