use super::*;
use serde_json::Value;
use tape::TapeNode;

const READ: &str = r#"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1},"mode":{"enum":["r","w"]}},"required":["path"]}"#;

fn reason(schema: &str, arguments: &str) -> String {
    let schema = Schema::compile(schema).unwrap();
    check_arguments(arguments.as_bytes(), &crate::json::Required::NONE, ValidationMode::Full, Some(&schema))
        .err()
        .unwrap_or_default()
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
        &crate::json::Required::NONE,
        ValidationMode::Repair,
        Some(&schema),
    )
    .unwrap();
    assert_eq!(checked.arguments, r#"{"n":200,"x":2.5,"b":true,"o":{"k":7},"a":[1]}"#);
    assert_eq!(checked.repairs.len(), 6);
    let refused =
        check_arguments(br#"{"n":"2.5"}"#, &crate::json::Required::NONE, ValidationMode::Repair, Some(&schema))
            .err()
            .unwrap();
    assert_eq!(refused, r#"/n: expected integer, got string "2.5""#);
}

/// Every entry of the tape under `node` against serde's reading of the
/// same text: kind, text span, member and element counts.
fn assert_tape_matches(node: TapeNode<'_>, expected: &Value) {
    use jsonschema::json::{Array, Node, Object};
    let parsed: Value = crate::json::parse_value(node.raw().as_bytes()).unwrap();
    assert_eq!(node.value(), parsed, "{}", node.raw());
    assert_eq!(&parsed, expected, "{}", node.raw());
    match expected {
        Value::Object(map) => {
            let object = node.as_object().unwrap();
            let members: Vec<_> = object.members().collect();
            // Duplicate names: serde keeps the last, the tape all of them.
            assert!(members.len() >= map.len());
            assert_eq!(object.len(), members.len());
            for (name, value) in map {
                assert_tape_matches(object.get(&name.as_str().into()).unwrap(), value);
            }
        }
        Value::Array(items) => {
            let array = node.as_array().unwrap();
            assert_eq!(array.len(), items.len());
            for (element, item) in array.elements().zip(items) {
                assert_tape_matches(element, item);
            }
        }
        _ => assert!(node.as_object().is_none() && node.as_array().is_none()),
    }
}

#[test]
fn both_tape_builds_agree_with_serde() {
    let documents = [
        r#"{"a":[1,2.5,-3e2,{"b":null,"c":true,"d":false}],"e\u0041":"x\ny","a":"last"}"#,
        " { \"a\" : [ ] , \"b\" : { } , \"c\" : [ [ ] , { } , [ [ 1 ] ] ] , \"d\" : \"é\\\"\" } \n",
        r#"{"":{"":{"":[[[[{}]]]]}},"k\\":"\ud83d\ude00","n":-0.0e+10,"s":"caf\u00e9 ☕"}"#,
        "{}",
        "{\t}",
        r#"{"x":[{},[],"",0,true,false,null]}"#,
    ];
    let mut entries = Vec::new();
    for text in documents {
        let expected: Value = crate::json::parse_value(text.as_bytes()).unwrap();
        assert!(tape::build(text, &mut entries), "{text}");
        assert_tape_matches(TapeNode::root(text, &entries), &expected);
        let checked =
            crate::json::check_with(text.as_bytes(), &crate::json::Required::NONE, tape::Builder::new(&mut entries))
                .unwrap();
        assert_eq!(checked, text);
        assert_tape_matches(TapeNode::root(text, &entries), &expected);
        entries.clear();
    }
    for scalar in ["1", " \"a\\n\" ", "null", "[1, [2], {}]", "true"] {
        let expected: Value = crate::json::parse_value(scalar.trim().as_bytes()).unwrap();
        assert!(tape::build(scalar, &mut entries));
        assert_tape_matches(TapeNode::root(scalar, &entries), &expected);
    }
    for broken in ["{", "[1,]", "{\"a\":}", "\"\\x\"", "[1] 2", ""] {
        assert!(!tape::build(broken, &mut entries), "{broken}");
    }
}

/// FULL mode's one-pass check gives the seed's messages for text that is
/// not a JSON object, and reads empty arguments as `{}`.
#[test]
fn full_mode_keeps_the_seed_syntax_messages() {
    let schema = Schema::compile(r#"{"type":"object","properties":{"a":{"type":"integer"}}}"#).unwrap();
    for raw in [&b"{\"a\":"[..], b"[1]", b"{\"a\":1} x", b"\"{}\"", b"{\"a\":\"\xff\"}", b"{\"a\":01}"] {
        let seed = crate::json::check(raw, &crate::json::Required::NONE).unwrap_err();
        let full =
            check_arguments(raw, &crate::json::Required::NONE, ValidationMode::Full, Some(&schema)).err().unwrap();
        assert_eq!(full, seed);
    }
    for empty in [&b""[..], b"  \n"] {
        let checked =
            check_arguments(empty, &crate::json::Required::NONE, ValidationMode::Full, Some(&schema)).unwrap();
        assert_eq!(checked.arguments, "{}");
    }
    let required = Schema::compile(r#"{"type":"object","required":["a"]}"#).unwrap();
    assert_eq!(
        check_arguments(b"", &crate::json::Required::NONE, ValidationMode::Full, Some(&required)).err().unwrap(),
        r#"(root): missing required field "a""#
    );
}
