use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::environment::CancelToken;
use crate::schema;
use crate::tool::ToolError;

fn registry() -> Registry {
    let registry = Registry::new();
    let read = schema::object(
        [("path", schema::string("File to read.")), ("limit", schema::integer("Maximum lines."))],
        &["path"],
    );
    registry
        .register(
            ToolDefinition::new("read", "Read a file.").with_parameters(read),
            |arguments: &str, _: &Environment| Ok(ToolResult::new(format!("read {arguments}"))),
        )
        .unwrap();
    registry
        .register(ToolDefinition::new("fail", ""), |_: &str, _: &Environment| Err(ToolError::failed("it broke")))
        .unwrap();
    registry
}

#[test]
fn dialect_numbers_are_the_spec() {
    assert_eq!(Dialect::ALL.map(|dialect| dialect as u32), [0, 1, 2, 3, 4, 5]);
    assert_eq!(Dialect::from_code(3), Some(Dialect::Anthropic));
    assert!(Dialect::from_code_checked(6).is_err());
    assert_eq!((STRICT, RESPOND_SEQUENTIAL), (1, 2));
}

#[test]
fn definitions_per_dialect() {
    let registry = registry();
    let read = r#"{"properties":{"limit":{"description":"Maximum lines.","type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}"#;
    assert_eq!(
        registry.definitions_for(Dialect::OpenAiChat, 0).unwrap(),
        format!(
            r#"[{{"type":"function","function":{{"name":"read","description":"Read a file.","parameters":{read}}}}},{{"type":"function","function":{{"name":"fail","parameters":{{"type":"object","properties":{{}}}}}}}}]"#
        )
    );
    assert_eq!(
        registry.definitions_for(Dialect::OpenAiResponses, 0).unwrap(),
        format!(
            r#"[{{"type":"function","name":"read","description":"Read a file.","parameters":{read},"strict":false}},{{"type":"function","name":"fail","parameters":{{"type":"object","properties":{{}}}},"strict":false}}]"#
        )
    );
    assert_eq!(
        registry.definitions_for(Dialect::Anthropic, 0).unwrap(),
        format!(
            r#"[{{"name":"read","description":"Read a file.","input_schema":{read}}},{{"name":"fail","input_schema":{{"type":"object","properties":{{}}}}}}]"#
        )
    );
    assert_eq!(
        registry.definitions_for(Dialect::Mcp, 0).unwrap(),
        format!(
            r#"{{"tools":[{{"name":"read","description":"Read a file.","inputSchema":{read}}},{{"name":"fail","inputSchema":{{"type":"object","properties":{{}}}}}}]}}"#
        )
    );
    assert_eq!(
        registry.definitions_for(Dialect::Gemini, 0).unwrap(),
        r#"[{"functionDeclarations":[{"name":"read","description":"Read a file.","parameters":{"properties":{"limit":{"description":"Maximum lines.","type":"INTEGER"},"path":{"description":"File to read.","type":"STRING"}},"required":["path"],"type":"OBJECT"}},{"name":"fail"}]}]"#
    );
    assert_eq!(registry.definitions_for(Dialect::Neutral, 0).unwrap(), registry.definitions_json());
    assert_eq!(Registry::new().definitions_for(Dialect::Gemini, 0).unwrap(), "[]");
    assert_eq!(Registry::new().definitions_for(Dialect::Mcp, 0).unwrap(), r#"{"tools":[]}"#);
    assert!(registry.definitions_for(Dialect::Anthropic, 8).is_err());
}

#[test]
fn strict_definitions() {
    let registry = registry();
    assert_eq!(
        registry.definitions_for(Dialect::Anthropic, STRICT).unwrap(),
        r#"[{"name":"read","description":"Read a file.","input_schema":{"additionalProperties":false,"properties":{"limit":{"description":"Maximum lines.","type":["integer","null"]},"path":{"description":"File to read.","type":"string"}},"required":["path","limit"],"type":"object"},"strict":true},{"name":"fail","input_schema":{"additionalProperties":false,"properties":{},"required":[],"type":"object"},"strict":true}]"#
    );
    assert!(registry.definitions_for(Dialect::OpenAiResponses, STRICT).unwrap().contains(r#""strict":true}"#));
    // Strict mode changes nothing for Gemini and MCP.
    assert_eq!(
        registry.definitions_for(Dialect::Gemini, STRICT).unwrap(),
        registry.definitions_for(Dialect::Gemini, 0).unwrap()
    );
}

#[test]
fn strict_rewrites_nested_and_refuses_what_it_cannot_express() {
    let registry = Registry::new();
    let nested = r##"{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]},"b":{"$ref":"#/$defs/B"}},"required":["a"]}}},"$defs":{"B":{"type":"object","properties":{"c":{"type":"integer"}}}}}"##;
    registry
        .register(ToolDefinition::new("nested", "").with_parameters(nested), |_: &str, _: &Environment| {
            Ok(ToolResult::default())
        })
        .unwrap();
    let json = registry.definitions_for(Dialect::OpenAiChat, STRICT).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let parameters = &value[0]["function"]["parameters"];
    let item = &parameters["properties"]["items"]["items"];
    assert_eq!(item["additionalProperties"], false);
    assert_eq!(item["required"], serde_json::json!(["a", "b"]));
    assert_eq!(item["properties"]["b"], serde_json::json!({"anyOf":[{"$ref":"#/$defs/B"},{"type":"null"}]}));
    assert_eq!(parameters["$defs"]["B"]["properties"]["c"]["type"], serde_json::json!(["integer", "null"]));
    assert_eq!(parameters["properties"]["items"]["type"], serde_json::json!(["array", "null"]));

    let free = Registry::new();
    free.register(
        ToolDefinition::new("free", "").with_parameters(
            r#"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}"#,
        ),
        |_: &str, _: &Environment| Ok(ToolResult::default()),
    )
    .unwrap();
    let error = free.definitions_for(Dialect::Anthropic, STRICT).unwrap_err();
    assert_eq!(error.status(), crate::Status::InvalidInput);
    assert!(error.to_string().contains("tool \"free\""), "{error}");
    assert!(error.to_string().contains("/properties/m"), "{error}");
    assert!(free.definitions_for(Dialect::Anthropic, 0).is_ok());
}

#[test]
fn names_a_dialect_cannot_carry_are_refused() {
    let registry = Registry::new();
    registry
        .register(ToolDefinition::new("files.read", ""), |_: &str, _: &Environment| Ok(ToolResult::default()))
        .unwrap();
    for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic] {
        let error = registry.definitions_for(dialect, 0).unwrap_err().to_string();
        assert!(error.contains("\"files.read\"") && error.contains("^[a-zA-Z0-9_-]"), "{error}");
    }
    assert!(registry.definitions_for(Dialect::Gemini, 0).is_ok());
    assert!(registry.definitions_for(Dialect::Mcp, 0).is_ok());
    let registry = Registry::new();
    registry.register(ToolDefinition::new("1tool", ""), |_: &str, _: &Environment| Ok(ToolResult::default())).unwrap();
    assert!(registry.definitions_for(Dialect::Gemini, 0).unwrap_err().to_string().contains("start with a letter"));
    assert!(registry.definitions_for(Dialect::OpenAiChat, 0).is_ok());
    let long = "a".repeat(65);
    let registry = Registry::new();
    registry
        .register(ToolDefinition::new(long.as_str(), ""), |_: &str, _: &Environment| Ok(ToolResult::default()))
        .unwrap();
    assert!(registry.definitions_for(Dialect::OpenAiChat, 0).is_err());
    assert!(registry.definitions_for(Dialect::Gemini, 0).is_err());
    assert!(registry.definitions_for(Dialect::Mcp, 0).is_ok());
}

#[test]
fn gemini_translation() {
    let schema: serde_json::Value = serde_json::from_str(
        r##"{"$schema":"x","type":"object","additionalProperties":false,"properties":{
            "mode":{"const":"fast"},
            "level":{"type":"integer","enum":[1,2,3]},
            "note":{"type":["string","null"],"format":"email","maxLength":5},
            "pick":{"anyOf":[{"type":"string"},{"type":"null"}]},
            "ref":{"$ref":"#/$defs/P","description":"Where."},
            "list":{"type":"array","items":{"$ref":"#/definitions/Q"},"uniqueItems":true}},
            "required":["mode","ghost"],
            "$defs":{"P":{"type":"object","properties":{"x":{"type":"number","exclusiveMinimum":0}}}},
            "definitions":{"Q":{"type":"string","enum":["a",null]}}}"##,
    )
    .unwrap();
    let translated = gemini::translate_parameters(&schema).unwrap().unwrap();
    assert_eq!(
        translated,
        serde_json::json!({"type":"OBJECT","required":["mode"],"properties":{
            "mode":{"type":"STRING","enum":["fast"]},
            "level":{"type":"INTEGER","description":"One of: 1, 2, 3."},
            "note":{"type":"STRING","nullable":true,"maxLength":5},
            "pick":{"type":"STRING","nullable":true},
            "ref":{"type":"OBJECT","description":"Where.","properties":{"x":{"type":"NUMBER"}}},
            "list":{"type":"ARRAY","items":{"type":"STRING","enum":["a"],"nullable":true}}}})
    );
    let cycle: serde_json::Value = serde_json::from_str(
        r##"{"type":"object","properties":{"node":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}"##,
    )
    .unwrap();
    let (pointer, reason) = gemini::translate_parameters(&cycle).unwrap_err();
    assert!(reason.contains("refers to itself"), "{reason}");
    assert_eq!(pointer, "/properties/node/properties/next");
}

const ANTHROPIC_REPLY: &str = r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[
    {"type":"text","text":"Reading."},
    {"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"/a", "limit":1e400}},
    {"type":"tool_use","id":"toolu_2","name":"fail","input":{}},
    {"type":"tool_use","id":"toolu_3","name":"nope","input":{}}],"stop_reason":"tool_use"}"#;

#[test]
fn anthropic_round_trip() {
    let registry = registry();
    let calls = tool_calls_parse(Dialect::Anthropic, ANTHROPIC_REPLY).unwrap();
    assert_eq!(calls.len(), 3);
    assert_eq!(
        calls[0],
        ParsedCall { id: "toolu_1".into(), name: "read".into(), arguments: r#"{"path":"/a","limit":1e400}"#.into() }
    );
    let out = registry.respond(Dialect::Anthropic, ANTHROPIC_REPLY, &Environment::default(), 0).unwrap();
    assert_eq!(
        out,
        r#"[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"read {\"path\":\"/a\",\"limit\":1e400}"},{"type":"tool_result","tool_use_id":"toolu_2","content":"it broke","is_error":true},{"type":"tool_result","tool_use_id":"toolu_3","content":"aikido/tools: unknown tool \"nope\"; the registered tools are \"read\", \"fail\"","is_error":true}]}]"#
    );
    // The content array alone reads the same.
    let start = ANTHROPIC_REPLY.find("\"content\":").unwrap() + 10;
    let end = ANTHROPIC_REPLY.rfind(",\"stop_reason\"").unwrap();
    assert_eq!(tool_calls_parse(Dialect::Anthropic, &ANTHROPIC_REPLY[start..end]).unwrap(), calls);
}

#[test]
fn openai_chat_broken_arguments_get_an_error_result() {
    let registry = registry();
    let reply = r#"{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
        {"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"/x\"}"}},
        {"id":"call_2","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]},"finish_reason":"tool_calls"}]}"#;
    let out = registry.respond(Dialect::OpenAiChat, reply, &Environment::default(), 0).unwrap();
    let direct = registry.dispatch(&ToolCall::new("read", "{\"path\":"), &Environment::default()).unwrap_err();
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value[0], serde_json::json!({"role":"tool","tool_call_id":"call_1","content":"read {\"path\":\"/x\"}"}));
    assert_eq!(value[1]["content"], direct.to_string());
    // The message alone, and the tool_calls array alone.
    let message = &reply[reply.find("{\"role\"").unwrap()..reply.rfind(",\"finish_reason\"").unwrap()];
    assert_eq!(registry.respond(Dialect::OpenAiChat, message, &Environment::default(), 0).unwrap(), out);
}

#[test]
fn responses_and_gemini_and_neutral() {
    let registry = registry();
    let reply = r#"{"id":"resp","object":"response","output":[{"type":"reasoning","id":"rs","summary":[]},
        {"type":"function_call","id":"fc","call_id":"call_9","name":"read","arguments":"{\"path\":\"/r\"}","status":"completed"}]}"#;
    assert_eq!(
        registry.respond(Dialect::OpenAiResponses, reply, &Environment::default(), 0).unwrap(),
        r#"[{"type":"function_call_output","call_id":"call_9","output":"read {\"path\":\"/r\"}"}]"#
    );
    let reply = r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"x","thought":true},
        {"functionCall":{"name":"read","args":{"path":"/g"}},"thoughtSignature":"c2ln"},
        {"functionCall":{"id":"g2","name":"fail","args":{}}}]},"finishReason":"STOP"}]}"#;
    assert_eq!(
        registry.respond(Dialect::Gemini, reply, &Environment::default(), 0).unwrap(),
        r#"[{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"read {\"path\":\"/g\"}"}}},{"functionResponse":{"id":"g2","name":"fail","response":{"error":"it broke"}}}]}]"#
    );
    let reply = r#"[{"id":"1","name":"read","arguments":"{\"path\":\"/n\"}"},{"name":"fail","arguments":{}}]"#;
    assert_eq!(
        registry.respond(Dialect::Neutral, reply, &Environment::default(), 0).unwrap(),
        r#"[{"id":"1","name":"read","content":"read {\"path\":\"/n\"}"},{"id":"","name":"fail","error":"it broke"}]"#
    );
    assert_eq!(
        tool_calls_parse_json(Dialect::Neutral, reply).unwrap(),
        r#"[{"id":"1","name":"read","arguments":"{\"path\":\"/n\"}"},{"id":"","name":"fail","arguments":"{}"}]"#
    );
    assert_eq!(registry.respond(Dialect::Anthropic, "[]", &Environment::default(), 0).unwrap(), "[]");
}

#[test]
fn unreadable_replies_are_refused_saying_where() {
    let registry = registry();
    let cases: &[(Dialect, &str, &str)] = &[
        (Dialect::Anthropic, "not json", "not a JSON object or array"),
        (Dialect::Anthropic, "", "empty"),
        (Dialect::Anthropic, r#"{"choices":[]}"#, "looks like an OpenAI Chat Completions reply"),
        (Dialect::OpenAiChat, ANTHROPIC_REPLY, "looks like an Anthropic Messages reply"),
        (Dialect::Gemini, ANTHROPIC_REPLY, "looks like an Anthropic Messages reply"),
        (Dialect::OpenAiResponses, r#"{"candidates":[]}"#, "looks like a Gemini reply"),
        (
            Dialect::Anthropic,
            r#"{"type":"message","content":[{"type":"tool_use","id":"x","name":"read","input":{}},]}"#,
            "at byte",
        ),
        (Dialect::Mcp, "[]", "MCP"),
    ];
    for (dialect, reply, fragment) in cases {
        let error = registry.respond(*dialect, reply, &Environment::default(), 0).unwrap_err();
        assert_eq!(error.status(), crate::Status::InvalidInput);
        assert!(error.to_string().contains(fragment), "{dialect:?} {reply}: {error}");
    }
    // Deep arguments reach dispatch, whose check refuses them: the turn goes on.
    let deep = format!(
        r#"{{"content":[{{"type":"tool_use","id":"x","name":"read","input":{{"a":{}{}}}}}]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let out = registry.respond(Dialect::Anthropic, &deep, &Environment::default(), 0).unwrap();
    assert!(out.contains("nested deeper than 512 levels") && out.contains("\"is_error\":true"), "{out}");
    // Deep nesting elsewhere in the reply is read past (no calls there) or
    // refused saying at which byte reading stopped; never a crash. The
    // neutral list reads past it to its call.
    let nest = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let neutral = r#"[{"id":"a","name":"read","arguments":"{}","x":NEST}]"#.replace("NEST", &nest(100_000));
    let calls = tool_calls_parse(Dialect::Neutral, &neutral).unwrap();
    assert_eq!((calls.len(), calls[0].name.as_str()), (1, "read"));
    for (dialect, shape) in [
        (Dialect::OpenAiChat, r#"{"choices":[{"message":{"role":"assistant","x":NEST}}]}"#),
        (Dialect::OpenAiResponses, r#"{"object":"response","output":[{"type":"reasoning","x":NEST}]}"#),
        (Dialect::Anthropic, r#"{"content":[],"x":NEST}"#),
        (Dialect::Gemini, r#"{"candidates":[{"content":{"parts":[{"text":"t","x":NEST}]}}]}"#),
    ] {
        let deep = shape.replace("NEST", &nest(100_000));
        match registry.respond(dialect, &deep, &Environment::default(), 0) {
            Ok(out) => assert_eq!(out, "[]", "{dialect:?}"),
            Err(error) => {
                assert_eq!(error.status(), crate::Status::InvalidInput, "{dialect:?}");
                let message = error.to_string();
                assert!(message.contains("recursion limit") && message.contains("(at byte "), "{dialect:?}: {message}");
            }
        }
        // Nesting the reader allows is read past.
        let shallow = shape.replace("NEST", &nest(100));
        let parsed = tool_calls_parse(dialect, &shallow);
        assert!(parsed.is_ok(), "{dialect:?}: {parsed:?}");
    }
    let huge = " ".repeat(MAX_REPLY_LEN + 1);
    assert!(registry
        .respond(Dialect::Gemini, &huge, &Environment::default(), 0)
        .unwrap_err()
        .to_string()
        .contains("more than"));
}

#[test]
fn strict_undo_drops_nulls_for_optional_properties() {
    let registry = Registry::new();
    let schema = r##"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"opts":{"type":"object","properties":{"deep":{"type":"boolean"},"must":{"type":"string"}},"required":["must"]}},"required":["path"]}"##;
    registry
        .register(ToolDefinition::new("read", "").with_parameters(schema), |arguments: &str, _: &Environment| {
            Ok(ToolResult::new(arguments))
        })
        .unwrap();
    let reply = r#"[{"type":"tool_use","id":"t","name":"read","input":{"path":"/a","limit":null,"opts":{"deep":null,"must":null}}}]"#;
    let out = registry.respond(Dialect::Anthropic, reply, &Environment::default(), STRICT).unwrap();
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value[0]["content"][0]["content"], r#"{"path":"/a","opts":{"must":null}}"#);
    let out = registry.respond(Dialect::Anthropic, reply, &Environment::default(), 0).unwrap();
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value[0]["content"][0]["content"], r#"{"path":"/a","limit":null,"opts":{"deep":null,"must":null}}"#);
}

/// Measures whether calls overlap without timing them (timings fail on a
/// loaded machine): each call waits, up to its patience, for every call of
/// the round to have started, and the most calls running at once is kept.
#[derive(Default)]
struct Rendezvous {
    /// Calls of this round that have started.
    arrived: AtomicUsize,
    /// Calls running now, and the most at once.
    inside: AtomicUsize,
    most: AtomicUsize,
    /// How long a call waits for the others, in milliseconds.
    patience_ms: AtomicUsize,
}

impl Rendezvous {
    const ROUND: usize = 4;

    fn new(patience_ms: usize) -> Arc<Self> {
        let rendezvous = Rendezvous::default();
        rendezvous.patience_ms.store(patience_ms, Ordering::SeqCst);
        Arc::new(rendezvous)
    }

    fn call(&self) {
        let now = self.inside.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        self.arrived.fetch_add(1, Ordering::SeqCst);
        let deadline = Instant::now() + Duration::from_millis(self.patience_ms.load(Ordering::SeqCst) as u64);
        while self.arrived.load(Ordering::SeqCst) < Self::ROUND && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.inside.fetch_sub(1, Ordering::SeqCst);
    }

    /// Starts a round; returns the most calls that ran at once in the last.
    fn next_round(&self) -> usize {
        self.arrived.store(0, Ordering::SeqCst);
        self.most.swap(0, Ordering::SeqCst)
    }
}

#[test]
fn calls_run_at_once_in_order_with_one_turn_and_cancellation() {
    let registry = Registry::new();
    let turns = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&turns);
    let rendezvous = Rendezvous::new(10_000);
    let meeting = Arc::clone(&rendezvous);
    registry
        .register(ToolDefinition::new("sleep", ""), move |arguments: &str, environment: &Environment| {
            seen.lock().unwrap().push(environment.turn_id);
            meeting.call();
            Ok(ToolResult::new(arguments))
        })
        .unwrap();
    let reply: String = format!(
        "[{}]",
        (0..Rendezvous::ROUND)
            .map(|index| format!(r#"{{"type":"tool_use","id":"t{index}","name":"sleep","input":{{"n":{index}}}}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let turn = uuid::Uuid::new_v4();
    let environment = Environment { session_id: "s", turn_id: turn, cancel: None };
    let out = registry.respond(Dialect::Anthropic, &reply, &environment, 0).unwrap();
    assert_eq!(rendezvous.next_round(), Rendezvous::ROUND, "all four calls ran at once");
    for index in 0..4 {
        assert!(out.contains(&format!(r#""tool_use_id":"t{index}","content":"{{\"n\":{index}}}""#)), "{out}");
    }
    assert!(out.find("t0").unwrap() < out.find("t3").unwrap());
    assert!(turns.lock().unwrap().iter().all(|id| *id == turn));
    rendezvous.patience_ms.store(20, Ordering::SeqCst);
    registry.respond(Dialect::Anthropic, &reply, &environment, RESPOND_SEQUENTIAL).unwrap();
    assert_eq!(rendezvous.next_round(), 1, "one call at a time");

    let token = CancelToken::new();
    token.fire();
    let environment = Environment { session_id: "s", turn_id: turn, cancel: Some(&token) };
    let count = turns.lock().unwrap().len();
    let out = registry.respond(Dialect::Anthropic, &reply, &environment, 0).unwrap();
    assert_eq!(turns.lock().unwrap().len(), count, "no handler ran");
    let cancelled = registry.dispatch(&ToolCall::new("sleep", "{}"), &environment).unwrap_err().to_string();
    assert_eq!(out.matches(&cancelled.replace('"', "\\\"")).count(), 4, "{out}");
}

/// Quick handlers run on the calling thread once they have been timed
/// (waking a helper would cost more than the calls); a tool that blocks
/// keeps overlapping, and one quick call does not make it look quick.
#[test]
fn quick_calls_stay_on_the_calling_thread_and_slow_ones_overlap() {
    let registry = Registry::new();
    let threads = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&threads);
    registry
        .register(ToolDefinition::new("quick", ""), move |_: &str, _: &Environment| {
            seen.lock().unwrap().push(std::thread::current().id());
            Ok(ToolResult::new("ok"))
        })
        .unwrap();
    let rendezvous = Rendezvous::new(10_000);
    let meeting = Arc::clone(&rendezvous);
    registry
        .register(ToolDefinition::new("nap", ""), move |_: &str, _: &Environment| {
            meeting.call();
            Ok(ToolResult::new("ok"))
        })
        .unwrap();
    let reply = |name: &str| {
        let calls: Vec<String> = (0..Rendezvous::ROUND)
            .map(|index| format!(r#"{{"type":"tool_use","id":"t{index}","name":"{name}","input":{{}}}}"#))
            .collect();
        format!("[{}]", calls.join(","))
    };
    let environment = Environment::default();
    for _ in 0..3 {
        registry.respond(Dialect::Anthropic, &reply("quick"), &environment, 0).unwrap();
    }
    let recorded = threads.lock().unwrap().split_off(8);
    assert_eq!(recorded.len(), 4);
    assert!(recorded.iter().all(|id| *id == std::thread::current().id()), "{recorded:?}");

    for round in 0..3 {
        registry.respond(Dialect::Anthropic, &reply("nap"), &environment, 0).unwrap();
        assert_eq!(rendezvous.next_round(), Rendezvous::ROUND, "round {round}: the naps ran at once");
    }
    // One quick round later, the naps still overlap.
    rendezvous.patience_ms.store(0, Ordering::SeqCst);
    registry.respond(Dialect::Anthropic, &reply("nap"), &environment, 0).unwrap();
    rendezvous.next_round();
    rendezvous.patience_ms.store(10_000, Ordering::SeqCst);
    registry.respond(Dialect::Anthropic, &reply("nap"), &environment, 0).unwrap();
    assert_eq!(rendezvous.next_round(), Rendezvous::ROUND, "the naps still ran at once");
}

#[test]
fn many_replies_at_once_from_many_threads() {
    let registry = Arc::new(registry());
    let counter = Arc::new(AtomicUsize::new(0));
    std::thread::scope(|scope| {
        for _ in 0..8 {
            let registry = Arc::clone(&registry);
            let counter = Arc::clone(&counter);
            scope.spawn(move || {
                for _ in 0..200 {
                    let out =
                        registry.respond(Dialect::Anthropic, ANTHROPIC_REPLY, &Environment::default(), 0).unwrap();
                    assert!(out.contains("toolu_3"));
                    counter.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(counter.load(Ordering::Relaxed), 1600);
}

#[test]
fn definitions_are_cached_until_the_table_changes() {
    let registry = registry();
    let first = registry.with_definitions_for(Dialect::Anthropic, 0, |json| json.as_ptr()).unwrap();
    let again = registry.with_definitions_for(Dialect::Anthropic, 0, |json| json.as_ptr()).unwrap();
    assert_eq!(first, again);
    registry.unregister("fail").unwrap();
    assert!(!registry.definitions_for(Dialect::Anthropic, 0).unwrap().contains("fail"));
}
