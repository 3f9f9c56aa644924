use super::*;
use serde_json::Value;
use tape::TapeNode;

const READ: &str = r#"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1},"mode":{"enum":["r","w"]}},"required":["path"]}"#;

fn reason(schema: &str, arguments: &str) -> String {
    let schema = Schema::compile(schema).unwrap();
    check_arguments(arguments.as_bytes(), &[], ValidationMode::Full, Some(&schema)).err().unwrap_or_default()
}

#[test]
fn every_violation_at_once_in_the_spec_shape() {
    assert_eq!(
        reason(READ, r#"{"path":"a","limit":"200","mode":"x"}"#),
        r#"/limit: expected integer, got string "200"; /mode: must be one of "r", "w""#
    );
    assert_eq!(reason(READ, r#"{"limit":0}"#), r#"(root): missing required field "path"; /limit: must be >= 1, got 0"#);
}

#[test]
fn tape_reads_what_serde_reads() {
    let text = r#"{"a":[1,2.5,-3e2,{"b":null,"c":true,"d":false}],"e\u0041":"x\ny","a":"last"}"#;
    let mut entries = Vec::new();
    tape::build(text, &mut entries);
    let value = TapeNode::root(text, &entries).value();
    let expected: Value = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
}

#[test]
fn repair_coerces_only_the_unambiguous() {
    let schema = Schema::compile(
        r#"{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number"},"b":{"type":"boolean"},"o":{"type":"object","properties":{"k":{"type":"integer"}}},"a":{"type":"array"}}}"#,
    )
    .unwrap();
    let checked = check_arguments(
        br#"{"n":"200","x":"2.5","b":"true","o":"{\"k\":\"7\"}","a":"[1]"}"#,
        &[],
        ValidationMode::Repair,
        Some(&schema),
    )
    .unwrap();
    assert_eq!(checked.arguments, r#"{"n":200,"x":2.5,"b":true,"o":{"k":7},"a":[1]}"#);
    assert_eq!(checked.repairs.len(), 6);
    let refused = check_arguments(br#"{"n":"2.5"}"#, &[], ValidationMode::Repair, Some(&schema)).err().unwrap();
    assert_eq!(refused, r#"/n: expected integer, got string "2.5""#);
}
