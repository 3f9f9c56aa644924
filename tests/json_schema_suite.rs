//! The official JSON-Schema-Test-Suite, draft 2020-12, required tests
//! (tests/data/JSON-Schema-Test-Suite, MIT), against the validator FULL
//! mode uses. Every test must agree, except the groups whose schema refers
//! to the suite's remote server: the library never fetches a remote `$ref`
//! (it refuses one at registration, see `remote_refs_are_refused`). There is
//! no other exclusion.

use std::path::PathBuf;

use aikido::validation::Schema;
use serde_json::Value;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/JSON-Schema-Test-Suite/tests/draft2020-12")
}

fn groups() -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("the suite is in tests/data")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    files.sort();
    let mut groups = Vec::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let parsed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for group in parsed.as_array().unwrap() {
            groups.push((name.clone(), group.clone()));
        }
    }
    groups
}

fn is_remote(group: &Value) -> bool {
    group["schema"].to_string().contains("localhost:1234")
}

#[test]
fn json_schema_test_suite_draft2020_12() {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for (file, group) in groups() {
        let tests = group["tests"].as_array().unwrap();
        if is_remote(&group) {
            skipped += tests.len();
            continue;
        }
        let description = group["description"].as_str().unwrap_or_default();
        let schema = match Schema::compile(&group["schema"].to_string()) {
            Ok(schema) => schema,
            Err(reason) => {
                failed += tests.len();
                disagreements.push(format!("{file}: {description}: the schema was refused: {reason}"));
                continue;
            }
        };
        for test in tests {
            let data = test["data"].to_string();
            let expected = test["valid"].as_bool().unwrap();
            let verdict = schema.is_valid(&data);
            let report = schema.validate(&data);
            let agrees = verdict == expected && report.is_ok() == expected;
            if agrees {
                passed += 1;
            } else {
                failed += 1;
                disagreements.push(format!(
                    "{file}: {description}: {}: expected valid={expected}, is_valid={verdict}, validate={report:?}",
                    test["description"]
                ));
            }
        }
    }
    for disagreement in &disagreements {
        println!("disagreement: {disagreement}");
    }
    println!("json-schema-test-suite: {passed} passed, {failed} failed, {skipped} skipped (remote refs)");
    assert!(passed > 1200, "only {passed} tests ran");
    assert_eq!(failed, 0, "{disagreements:#?}");
}

#[test]
fn remote_refs_are_refused() {
    let mut refused = 0;
    for (file, group) in groups() {
        if file != "refRemote.json" {
            continue;
        }
        let reason = Schema::compile(&group["schema"].to_string()).expect_err("a remote $ref is refused");
        assert!(reason.contains("never fetched"), "{reason}");
        refused += 1;
    }
    assert!(refused > 10);
}

/// Invalid instances report at least one violation, each with a pointer
/// and a message, never an empty one.
#[test]
fn every_invalid_instance_gets_a_message() {
    for (_, group) in groups() {
        if is_remote(&group) {
            continue;
        }
        let Ok(schema) = Schema::compile(&group["schema"].to_string()) else { continue };
        for test in group["tests"].as_array().unwrap() {
            if test["valid"] == Value::Bool(false) {
                let violations = schema.validate(&test["data"].to_string()).unwrap_err();
                assert!(!violations.is_empty());
                for violation in violations {
                    assert!(violation.pointer == "(root)" || violation.pointer.starts_with('/'), "{violation}");
                    assert!(!violation.message.is_empty(), "{violation}");
                }
            }
        }
    }
}
