//! FULL and REPAIR validation through the registry (docs/VALIDATION.md):
//! the mode per registry, what switching does to tools already registered,
//! the messages, the repairs, and bad input (deep arguments, `$ref` cycles,
//! patterns that would backtrack).

use std::time::{Duration, Instant};

use aikido::{Environment, Error, Registry, Repair, ToolCall, ToolDefinition, ToolResult, ValidationMode};

const READ: &str = r#"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1},"mode":{"enum":["r","w"]}},"required":["path"],"additionalProperties":false}"#;

fn echo(arguments: &str, _: &Environment) -> aikido::HandlerResult {
    Ok(ToolResult::new(arguments))
}

fn registry(mode: ValidationMode, schema: &str) -> Registry {
    let registry = Registry::new();
    registry.set_validation(mode).unwrap();
    registry.register(ToolDefinition::new("read", "").with_parameters(schema), echo).unwrap();
    registry
}

fn dispatch(registry: &Registry, arguments: &str) -> Result<ToolResult, Error> {
    registry.dispatch(&ToolCall::new("read", arguments), &Environment::default())
}

fn message(registry: &Registry, arguments: &str) -> String {
    let error = dispatch(registry, arguments).unwrap_err();
    assert!(matches!(error, Error::InvalidArguments { .. }), "{error:?}");
    error.to_string()
}

#[test]
fn the_default_is_the_seeds_check() {
    let registry = Registry::new();
    assert_eq!(registry.validation(), ValidationMode::Required);
    registry.register(ToolDefinition::new("read", "").with_parameters(READ), echo).unwrap();
    // Only `required` counts: a wrong type passes, verbatim.
    assert_eq!(dispatch(&registry, r#"{"path":1,"limit":"x"}"#).unwrap().content, r#"{"path":1,"limit":"x"}"#);
    assert_eq!(
        message(&registry, "{}"),
        r#"aikido/tools: invalid tool arguments for tool "read": missing required field "path""#
    );
}

#[test]
fn full_reports_every_violation_at_its_pointer() {
    let registry = registry(ValidationMode::Full, READ);
    assert_eq!(
        message(&registry, r#"{"path":"a","limit":"200","mode":"x"}"#),
        r#"aikido/tools: invalid tool arguments for tool "read": /limit: expected integer, got string "200"; /mode: must be one of "r", "w""#
    );
    assert_eq!(
        message(&registry, r#"{"limit":0,"extra":true}"#),
        r#"aikido/tools: invalid tool arguments for tool "read": (root): missing required field "path"; (root): field "extra" is not allowed here; /limit: must be >= 1, got 0"#
    );
    // The seed's syntax messages stay as they were.
    assert_eq!(
        message(&registry, "[1]"),
        r#"aikido/tools: invalid tool arguments for tool "read": the arguments must be a JSON object, not an array"#
    );
    // Valid arguments reach the handler verbatim; empty ones as {}.
    assert_eq!(dispatch(&registry, r#" {"path":"a","limit":3} "#).unwrap().content, r#" {"path":"a","limit":3} "#);
    let open = registry_with_no_required();
    assert_eq!(dispatch(&open, "").unwrap().content, "{}");
}

fn registry_with_no_required() -> Registry {
    registry(ValidationMode::Full, r#"{"type":"object","properties":{"a":{"type":"string"}}}"#)
}

#[test]
fn messages_show_values_cut_when_long_and_name_bounds_patterns_and_nesting() {
    let schema = r#"{"type":"object","properties":{
        "name":{"type":"string","pattern":"^[a-z]+$","maxLength":5},
        "tags":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true},
        "user":{"type":"object","required":["id","email"],"properties":{"id":{"type":"integer"}}},
        "kind":{"const":"file"},
        "ratio":{"type":"number","exclusiveMaximum":1,"multipleOf":0.25},
        "either":{"anyOf":[{"type":"string"},{"type":"integer"}]}
    }}"#;
    let registry = registry(ValidationMode::Full, schema);
    let long = "x".repeat(100);
    let got = message(
        &registry,
        &format!(
            r#"{{"name":"ABCDEFG","tags":[],"user":{{"id":"7"}},"kind":"dir","ratio":1.1,"either":null,"long":"{long}"}}"#
        ),
    );
    for expected in [
        r#"/either: must match at least one of the alternatives: (1) expected string, got null; (2) expected integer, got null"#,
        r#"/kind: must be "file", got string "dir""#,
        r#"/name: must match the pattern "^[a-z]+$", got string "ABCDEFG""#,
        r#"/name: must be at most 5 characters long, got 7 (string "ABCDEFG")"#,
        r#"/ratio: must be < 1, got 1.1"#,
        r#"/ratio: must be a multiple of 0.25, got 1.1"#,
        r#"/tags: must have at least 1 item, got 0"#,
        r#"/user: missing required field "email""#,
        r#"/user/id: expected integer, got string "7""#,
    ] {
        assert!(got.contains(expected), "{expected}\nnot in\n{got}");
    }
    assert!(!got.contains(r#"/long"#), "no schema for /long, so no violation: {got}");
}

#[test]
fn long_values_are_cut() {
    let registry = registry(ValidationMode::Full, r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#);
    let long = "y".repeat(500);
    let got = message(&registry, &format!(r#"{{"n":"{long}"}}"#));
    assert!(got.contains("… (502 characters in all)"), "{got}");
    assert!(got.len() < 200, "{got}");
}

#[test]
fn invalid_schemas_are_refused_in_full_mode_and_block_the_switch() {
    let registry = Registry::new();
    let bad = r#"{"type":"objekt"}"#;
    registry.register(ToolDefinition::new("lenient", "").with_parameters(bad), echo).unwrap();
    let error = registry.set_validation(ValidationMode::Full).unwrap_err();
    assert!(matches!(error, Error::InvalidInput(_)));
    let text = error.to_string();
    assert!(text.contains(r#"tool "lenient""#) && text.contains("not valid JSON Schema"), "{text}");
    assert_eq!(registry.validation(), ValidationMode::Required, "the mode stays as it was");

    registry.unregister("lenient").unwrap();
    registry.set_validation(ValidationMode::Full).unwrap();
    for (schema, reason) in [
        (bad, "not valid JSON Schema"),
        (r#"[1,2,3]"#, "must be an object or a boolean"),
        (r#"{"$ref":"https://example.com/schema.json"}"#, "never fetched"),
        (r#"{"pattern":"(unclosed"}"#, "not valid JSON Schema"),
    ] {
        let error =
            registry.register(ToolDefinition::new("strict", "").with_parameters(schema), echo).expect_err(schema);
        assert!(matches!(error, Error::InvalidInput(_)), "{error:?}");
        assert!(error.to_string().contains(reason), "{schema}: {error}");
        assert!(error.to_string().contains(r#"tool "strict""#), "{error}");
    }
    assert!(registry.is_empty());
}

#[test]
fn switching_compiles_the_tools_already_registered() {
    let registry = Registry::new();
    registry.register(ToolDefinition::new("read", "").with_parameters(READ), echo).unwrap();
    registry.register(ToolDefinition::new("bare", ""), echo).unwrap();
    assert!(dispatch(&registry, r#"{"path":"a","limit":"x"}"#).is_ok());
    registry.set_validation(ValidationMode::Full).unwrap();
    assert!(message(&registry, r#"{"path":"a","limit":"x"}"#).contains("/limit: expected integer"));
    assert!(registry.dispatch(&ToolCall::new("bare", r#"{"any":1}"#), &Environment::default()).is_ok());
    registry.set_validation(ValidationMode::Required).unwrap();
    assert!(dispatch(&registry, r#"{"path":"a","limit":"x"}"#).is_ok());
}

#[test]
fn draft7_keywords_seen_in_the_wild() {
    let schema = r##"{"type":"object","definitions":{"pos":{"type":"integer","minimum":0}},
        "properties":{"at":{"$ref":"#/definitions/pos"},"pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}},
        "dependencies":{"at":["pair"]}}"##;
    let registry = registry(ValidationMode::Full, schema);
    assert!(dispatch(&registry, r#"{"at":1,"pair":["a",2]}"#).is_ok());
    let got = message(&registry, r#"{"at":-1,"pair":[1,2,3]}"#);
    assert!(got.contains("/at: must be >= 0, got -1"), "{got}");
    assert!(got.contains("/pair/0: expected string, got integer 1"), "{got}");
    assert!(got.contains("/pair: must have at most 2 items, got 3"), "{got}");
    let got = message(&registry, r#"{"at":1}"#);
    assert!(got.contains(r#"(root): missing required field "pair""#), "{got}");
}

#[test]
fn repair_coerces_what_the_schema_makes_unambiguous_and_reports_it() {
    let schema = r#"{"type":"object","properties":{"limit":{"type":"integer"},"ratio":{"type":"number"},"follow":{"type":"boolean"},
        "options":{"type":"object","properties":{"depth":{"type":"integer"}}},"paths":{"type":"array","items":{"type":"string"}},
        "label":{"type":"string"}}}"#;
    let registry = registry(ValidationMode::Repair, schema);
    let result = dispatch(
        &registry,
        r#"{"limit":"200","ratio":"2.5","follow":"false","options":"{\"depth\":\"3\"}","paths":"[\"a\"]","label":"200"}"#,
    )
    .unwrap();
    assert_eq!(
        result.content,
        r#"{"limit":200,"ratio":2.5,"follow":false,"options":{"depth":3},"paths":["a"],"label":"200"}"#
    );
    let repair =
        |pointer: &str, from: &str, to: &str| Repair { pointer: pointer.into(), from: from.into(), to: to.into() };
    assert_eq!(
        result.repairs,
        [
            repair("/limit", r#""200""#, "200"),
            repair("/ratio", r#""2.5""#, "2.5"),
            repair("/follow", r#""false""#, "false"),
            repair("/options", r#""{\"depth\":\"3\"}""#, r#"{"depth":"3"}"#),
            repair("/paths", r#""[\"a\"]""#, r#"["a"]"#),
            repair("/options/depth", r#""3""#, "3"),
        ]
    );
    assert_eq!(
        aikido::validation::repairs_json(&result.repairs[..1]),
        r#"[{"pointer":"/limit","from":"200","to":200}]"#
    );
    // What is not unambiguous still fails, with the FULL message.
    for (arguments, expected) in [
        (r#"{"limit":"2.5"}"#, r#"/limit: expected integer, got string "2.5""#),
        (r#"{"limit":" 20"}"#, r#"/limit: expected integer, got string " 20""#),
        (r#"{"follow":"yes"}"#, r#"/follow: expected boolean, got string "yes""#),
        (r#"{"options":"{not json"}"#, r#"/options: expected object, got string "{not json""#),
        (r#"{"options":"[1]"}"#, r#"/options: expected object, got string "[1]""#),
    ] {
        let got = message(&registry, arguments);
        assert!(got.ends_with(expected), "{arguments}: {got}");
    }
    // Valid arguments are untouched and report no repair.
    let result = dispatch(&registry, r#"{"limit": 5}"#).unwrap();
    assert_eq!(result.content, r#"{"limit": 5}"#);
    assert!(result.repairs.is_empty());
}

/// A repaired object or array reaches the handler as the exact text the
/// model put in the string, compact: key order and number spelling kept
/// (not sorted, not reformatted), and the report's `to` is that same text.
#[test]
fn a_repaired_object_keeps_its_key_order_and_number_spelling() {
    let schema = r#"{"type":"object","properties":{"options":{"type":"object"},"list":{"type":"array"}}}"#;
    let registry = registry(ValidationMode::Repair, schema);
    let result = dispatch(
        &registry,
        r#"{"options":" { \"zeta\" : 1.50e3, \"alpha\" : \"a b\" } ","list":"[ 10 , {\"b\":1,\"a\":2} ]"}"#,
    )
    .unwrap();
    assert_eq!(result.content, r#"{"options":{"zeta":1.50e3,"alpha":"a b"},"list":[10,{"b":1,"a":2}]}"#);
    assert_eq!(result.repairs[0].to, r#"{"zeta":1.50e3,"alpha":"a b"}"#);
    assert_eq!(
        aikido::validation::repairs_json(&result.repairs),
        r#"[{"pointer":"/options","from":" { \"zeta\" : 1.50e3, \"alpha\" : \"a b\" } ","to":{"zeta":1.50e3,"alpha":"a b"}},{"pointer":"/list","from":"[ 10 , {\"b\":1,\"a\":2} ]","to":[10,{"b":1,"a":2}]}]"#
    );
}

#[test]
fn repair_never_touches_alternatives() {
    let registry = registry(
        ValidationMode::Repair,
        r#"{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}}}"#,
    );
    assert!(message(&registry, r#"{"n":"5"}"#).contains("/n: must match at least one of the alternatives"));
}

/// Runs `work` on a thread with the 2 MiB stack Rust gives new threads,
/// and bounds its time.
fn bounded(work: impl FnOnce() + Send + 'static) -> Duration {
    let started = Instant::now();
    std::thread::Builder::new().stack_size(2 << 20).spawn(work).unwrap().join().unwrap();
    started.elapsed()
}

#[test]
fn deep_arguments_against_a_recursive_schema() {
    let elapsed = bounded(|| {
        let schema = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/list"}},"$defs":{"list":{"type":"array","items":{"$ref":"#/$defs/list"}}}}"##;
        let registry = registry(ValidationMode::Full, schema);
        let deep = |levels: usize| format!("{{\"a\":{}{}}}", "[".repeat(levels), "]".repeat(levels));
        assert!(dispatch(&registry, &deep(511)).is_ok());
        let too_deep = message(&registry, &deep(600));
        assert!(too_deep.contains("nest"), "{too_deep}");
        let wrong = format!("{{\"a\":{}1{}}}", "[".repeat(300), "]".repeat(300));
        assert!(message(&registry, &wrong).contains("expected array, got integer 1"));
    });
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn ref_cycles_are_refused_or_bounded() {
    bounded(|| {
        let registry = Registry::new();
        registry.set_validation(ValidationMode::Full).unwrap();
        for schema in [
            r##"{"$ref":"#"}"##,
            r##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##,
            r##"{"type":"object","properties":{"x":{"$ref":"#"}}}"##,
        ] {
            registry.unregister("cycle").ok();
            match registry.register(ToolDefinition::new("cycle", "").with_parameters(schema), echo) {
                Err(error) => assert!(matches!(error, Error::InvalidInput(_)), "{schema}: {error:?}"),
                Ok(()) => {
                    let _ = registry.dispatch(&ToolCall::new("cycle", r#"{"x":{"x":{}}}"#), &Environment::default());
                }
            }
        }
    });
}

#[test]
fn patterns_never_backtrack() {
    let elapsed = bounded(|| {
        let registry = registry(ValidationMode::Full, r#"{"type":"object","properties":{"s":{"pattern":"^(a+)+$"}}}"#);
        let evil = format!(r#"{{"s":"{}!"}}"#, "a".repeat(100_000));
        assert!(message(&registry, &evil).contains("/s: must match the pattern"));
        // ECMA-262 look-around and back-references are not in the regex
        // crate: such a schema is refused at registration, with the reason.
        let error = Registry::new();
        error.set_validation(ValidationMode::Full).unwrap();
        let refused = error
            .register(
                ToolDefinition::new("t", "").with_parameters(r#"{"properties":{"s":{"pattern":"(?=a)a"}}}"#),
                echo,
            )
            .unwrap_err();
        assert!(refused.to_string().contains("pattern"), "{refused}");
    });
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn huge_arguments_are_checked_whole() {
    let registry = registry(
        ValidationMode::Full,
        r#"{"type":"object","properties":{"items":{"type":"array","items":{"type":"integer"}}}}"#,
    );
    let mut items: Vec<String> = (0..200_000).map(|index| index.to_string()).collect();
    items[150_000] = "\"x\"".to_owned();
    items[199_999] = "true".to_owned();
    let got = message(&registry, &format!(r#"{{"items":[{}]}}"#, items.join(",")));
    assert!(
        got.contains(
            r#"/items/150000: expected integer, got string "x"; /items/199999: expected integer, got boolean true"#
        ),
        "{got}"
    );
}
