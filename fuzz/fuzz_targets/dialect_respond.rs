//! The provider dialects' readers and `respond` on any bytes.
//!
//! The first byte picks the dialect (its value mod 6) and the flags (bit 3:
//! AIKIDO_STRICT, bit 4: AIKIDO_RESPOND_SEQUENTIAL); the rest is the reply.
//! Whatever the reply, nothing panics, and:
//! - `tool_calls_parse` and `respond` agree: both read the reply or both
//!   refuse it, with `InvalidInput`;
//! - what `respond` writes is JSON, an array, with one result per call in
//!   the dialect's shape (Anthropic and Gemini: one message holding them,
//!   or `[]` without calls), each naming its call's id in order.

#![no_main]

use std::sync::OnceLock;

use aikido::dialect::{self, Dialect, RESPOND_SEQUENTIAL, STRICT};
use aikido::{Environment, Registry, Status, ToolDefinition, ToolError, ToolResult};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let registry = Registry::new();
        let schema = r##"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":["integer","null"]},"o":{"$ref":"#/$defs/O"}},"required":["path"],"$defs":{"O":{"type":"object","properties":{"x":{"type":"string"}}}}}"##;
        registry
            .register(ToolDefinition::new("read", "").with_parameters(schema), |arguments: &str, _: &Environment| {
                Ok(ToolResult::new(arguments))
            })
            .unwrap();
        registry
            .register(ToolDefinition::new("fail", ""), |_: &str, _: &Environment| Err(ToolError::failed("no")))
            .unwrap();
        registry
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(reply) = std::str::from_utf8(rest) else { return };
    let dialect = Dialect::from_code(u32::from(selector % 6)).unwrap();
    let flags = (if selector & 8 != 0 { STRICT } else { 0 }) | (if selector & 16 != 0 { RESPOND_SEQUENTIAL } else { 0 });

    let parsed = dialect::tool_calls_parse(dialect, reply);
    let responded = registry().respond(dialect, reply, &Environment::default(), flags);
    let calls = match (&parsed, &responded) {
        (Ok(calls), Ok(_)) => calls,
        (Err(first), Err(second)) => {
            assert_eq!(first.status(), Status::InvalidInput, "{first}");
            assert_eq!(second.status(), Status::InvalidInput, "{second}");
            return;
        }
        _ => panic!("tool_calls_parse and respond disagree: {parsed:?} / {responded:?}"),
    };
    let out: Value = serde_json::from_str(responded.as_ref().unwrap()).expect("respond writes JSON");
    let results = out.as_array().expect("respond writes an array");
    let (items, id_key): (Vec<&Value>, &str) = match dialect {
        Dialect::Anthropic | Dialect::Gemini if calls.is_empty() => {
            assert!(results.is_empty());
            return;
        }
        Dialect::Anthropic => (results[0]["content"].as_array().unwrap().iter().collect(), "tool_use_id"),
        Dialect::Gemini => (results[0]["parts"].as_array().unwrap().iter().map(|part| &part["functionResponse"]).collect(), ""),
        Dialect::OpenAiChat => (results.iter().collect(), "tool_call_id"),
        Dialect::OpenAiResponses => (results.iter().collect(), "call_id"),
        Dialect::Neutral => (results.iter().collect(), "id"),
        Dialect::Mcp => unreachable!("MCP replies are refused"),
    };
    assert_eq!(items.len(), calls.len());
    for (item, call) in items.iter().zip(calls) {
        if id_key.is_empty() {
            assert_eq!(item["name"].as_str(), Some(call.name.as_str()));
        } else {
            assert_eq!(item[id_key].as_str(), Some(call.id.as_str()));
        }
    }
});
