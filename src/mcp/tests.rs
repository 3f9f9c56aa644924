//! The message handling, message by message.

use std::io::{BufReader, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::*;
use crate::{schema, Environment, Registry, ToolDefinition, ToolError, ToolResult};

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;

fn registry() -> Registry {
    let registry = Registry::new();
    registry
        .register(
            ToolDefinition::new("echo", "Echo the text.")
                .with_parameters(schema::object([("text", schema::string("What to echo."))], &["text"])),
            |arguments: &str, _: &Environment| {
                let value: Value = serde_json::from_str(arguments)?;
                Ok(ToolResult::new(value["text"].as_str().unwrap_or_default()))
            },
        )
        .unwrap();
    registry
        .register(ToolDefinition::new("fail", ""), |_: &str, _: &Environment| Err(ToolError::failed("it broke")))
        .unwrap();
    registry.register(ToolDefinition::new("boom", ""), |_: &str, _: &Environment| panic!("kaboom")).unwrap();
    registry
        .register(ToolDefinition::new("session", ""), |_: &str, environment: &Environment| {
            Ok(ToolResult::new(environment.session_id))
        })
        .unwrap();
    registry
        .register(ToolDefinition::new("wait", "Wait until cancelled."), |_: &str, environment: &Environment| {
            let start = Instant::now();
            while !environment.is_cancelled() {
                if start.elapsed() > Duration::from_secs(20) {
                    return Err(ToolError::failed("never cancelled"));
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok(ToolResult::new("cancelled"))
        })
        .unwrap();
    registry
}

fn parse(reply: Option<String>) -> Value {
    serde_json::from_str(&reply.expect("a reply")).unwrap()
}

fn ready(server: &McpServer) {
    let reply = parse(server.handle(INIT));
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(server.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), None);
}

#[test]
fn initialize_negotiates_the_version() {
    let registry = registry();
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let server = McpServer::new(&registry, "aikido-test", "9.9");
        let message = json!({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":asked,"capabilities":{}}});
        let reply = parse(server.handle(&message.to_string()));
        assert_eq!(reply["id"], "a");
        assert_eq!(reply["result"]["protocolVersion"], answered, "asked {asked}");
        assert_eq!(reply["result"]["serverInfo"], json!({"name":"aikido-test","version":"9.9"}));
        assert_eq!(reply["result"]["capabilities"]["tools"]["listChanged"], true);
    }
    let server = McpServer::new(&registry, "s", "1");
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#));
    assert_eq!(reply["error"]["code"], -32602);
}

#[test]
fn unknown_methods_get_method_not_found_and_notifications_get_nothing() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    for method in ["resources/list", "prompts/list", "logging/setLevel", "subscriptions/listen", "nope"] {
        let reply = parse(server.handle(&json!({"jsonrpc":"2.0","id":5,"method":method,"params":{}}).to_string()));
        assert_eq!(reply["error"]["code"], -32601, "{method}");
        assert_eq!(reply["id"], 5);
    }
    assert_eq!(server.handle(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#), None);
    assert_eq!(server.handle(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#), None);
}

#[test]
fn requests_before_initialize_are_refused_but_ping_is_answered() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#));
    assert_eq!(reply["error"]["code"], -32600);
    assert!(reply["error"]["message"].as_str().unwrap().contains("initialize"));
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}"#));
    assert_eq!(reply["error"]["code"], -32600);
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#));
    assert_eq!(reply, json!({"jsonrpc":"2.0","id":3,"result":{}}));
}

#[test]
fn malformed_messages_get_json_rpc_errors() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    ready(&server);
    let cases: [(&[u8], i64); 10] = [
        (b"{", -32700),
        (b"not json", -32700),
        (b"\xff\xfe", -32700),
        (b"42", -32600),
        (b"[]", -32600),
        (br#"{"id":1,"method":"ping"}"#, -32600),
        (br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),
        (br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, -32600),
        (br#"{"jsonrpc":"2.0","id":1,"method":7}"#, -32600),
        (br#"{"jsonrpc":"2.0","id":1}"#, -32600),
    ];
    for (message, code) in cases {
        let reply = parse(server.handle_in(server.session(), message));
        assert_eq!(reply["error"]["code"], code, "{}", String::from_utf8_lossy(message));
        assert_eq!(reply["jsonrpc"], "2.0");
    }
    let deep = "[".repeat(100_000);
    assert_eq!(parse(server.handle(&deep))["error"]["code"], -32700);
}

#[test]
fn wrong_param_types_get_invalid_params() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    ready(&server);
    for params in [
        json!([1]),
        json!("x"),
        json!({}),
        json!({"name": 3}),
        json!({"name": "echo", "arguments": "{\"text\":\"a\"}"}),
        json!({"name": "echo", "arguments": [1]}),
        json!({"name": "no_such_tool"}),
        json!({"name": "bad name!"}),
    ] {
        let reply =
            parse(server.handle(&json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":params}).to_string()));
        assert_eq!(reply["error"]["code"], -32602, "{params}");
    }
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#));
    assert!(reply["error"]["message"].as_str().unwrap().starts_with("aikido/tools: unknown tool \"nope\""));
    for params in [json!({"cursor": 5}), json!({"cursor": "garbage"}), json!({"cursor": "aikido-page-zz"}), json!(3)] {
        let reply =
            parse(server.handle(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":params}).to_string()));
        assert_eq!(reply["error"]["code"], -32602, "{params}");
    }
}

#[test]
fn tools_list_shows_mcp_tools_in_pages() {
    let registry = registry();
    for index in 0..7 {
        registry
            .register(ToolDefinition::new(format!("extra.{index}"), ""), |_: &str, _: &Environment| {
                Ok(ToolResult::new(""))
            })
            .unwrap();
    }
    registry
        .register(ToolDefinition::new("has space", ""), |_: &str, _: &Environment| Ok(ToolResult::new("")))
        .unwrap();
    registry
        .register(ToolDefinition::new("any", "").with_parameters("true"), |_: &str, _: &Environment| {
            Ok(ToolResult::new(""))
        })
        .unwrap();
    let server = McpServer::new(&registry, "s", "1").with_page_size(5);
    ready(&server);
    let mut names = Vec::new();
    let mut cursor = Value::Null;
    let mut pages = 0;
    loop {
        let reply = parse(
            server
                .handle(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":cursor}}).to_string()),
        );
        let tools = reply["result"]["tools"].as_array().unwrap().clone();
        assert!(tools.len() <= 5);
        for tool in &tools {
            names.push(tool["name"].as_str().unwrap().to_owned());
            assert!(tool["inputSchema"].is_object());
        }
        pages += 1;
        match &reply["result"]["nextCursor"] {
            Value::String(next) => cursor = Value::String(next.clone()),
            Value::Null => break,
            other => panic!("cursor {other}"),
        }
    }
    assert_eq!(pages, 3);
    // "has space" (a name MCP refuses) and "any" (parameters `true`, not an
    // object schema) are left out, as definitions_for(MCP) refuses them.
    assert_eq!(names.len(), 12);
    assert!(!names.contains(&"has space".to_owned()));
    assert!(!names.contains(&"any".to_owned()));
    let listed: Vec<Value> = mcp_tools(&registry).iter().map(|text| serde_json::from_str(text).unwrap()).collect();
    assert_eq!(
        listed[0],
        json!({"name":"echo","description":"Echo the text.","inputSchema":{"properties":{"text":{"description":"What to echo.","type":"string"}},"required":["text"],"type":"object"}})
    );
    assert_eq!(listed[1], json!({"name":"fail","inputSchema":{"type":"object","properties":{}}}));
}

#[test]
fn tools_list_equals_the_mcp_dialect() {
    let registry = registry();
    registry
        .register(
            ToolDefinition::new("typed.less", "No type given.")
                .with_parameters(r#"{"properties":{"a":{"type":"integer"}}}"#),
            |_: &str, _: &Environment| Ok(ToolResult::new("")),
        )
        .unwrap();
    let server = McpServer::new(&registry, "s", "1");
    ready(&server);
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#));
    let dialect: Value =
        serde_json::from_str(&registry.definitions_for(crate::dialect::Dialect::Mcp, 0).unwrap()).unwrap();
    assert_eq!(reply["result"], dialect);
    // The 2026-07-28 listing is the same tools, with the cache hints.
    let reply = parse(server.handle(
        &json!({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":(*MODERN_META).clone()}}).to_string(),
    ));
    assert_eq!(reply["result"]["tools"], dialect["tools"]);
    assert_eq!(reply["result"]["resultType"], "complete");
    assert_eq!(reply["result"]["ttlMs"], 0);
    assert_eq!(reply["result"]["cacheScope"], "private");
}

static MODERN_META: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},
           "io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}})
});

#[test]
fn stateless_requests_of_2026_07_28_need_no_initialize() {
    let registry = registry();
    let server = McpServer::new(&registry, "aikido-test", "9.9");
    let reply = parse(
        server.handle(
            &json!({"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":(*MODERN_META).clone()}})
                .to_string(),
        ),
    );
    assert_eq!(reply["id"], "d");
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["supportedVersions"],
        json!(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    );
    assert_eq!(result["capabilities"], json!({"tools":{"listChanged":true}}));
    assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"], json!({"name":"aikido-test","version":"9.9"}));
    // Without _meta too (a probe that names no version).
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#));
    assert_eq!(reply["result"]["supportedVersions"][0], "2026-07-28");
    // A call with no initialize: resultType and serverInfo in the result.
    let call = json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":(*MODERN_META).clone()}});
    let reply = parse(server.handle(&call.to_string()));
    assert_eq!(reply["result"]["content"], json!([{"type":"text","text":"hi"}]));
    assert_eq!(reply["result"]["isError"], false);
    assert_eq!(reply["result"]["resultType"], "complete");
    assert_eq!(reply["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "aikido-test");
    // The session was not initialized by it: legacy requests still need initialize.
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#));
    assert_eq!(reply["error"]["code"], -32600);
    // Another version in _meta: UnsupportedProtocolVersionError, naming what is served.
    for requested in ["2025-11-25", "2099-01-01"] {
        let mut meta = (*MODERN_META).clone();
        meta["io.modelcontextprotocol/protocolVersion"] = json!(requested);
        for method in ["server/discover", "tools/list", "tools/call", "nope"] {
            let message = json!({"jsonrpc":"2.0","id":3,"method":method,"params":{"name":"echo","_meta":meta}});
            let reply = parse(server.handle(&message.to_string()));
            assert_eq!(reply["error"]["code"], -32022, "{method} {requested}");
            assert_eq!(reply["error"]["data"]["requested"], requested);
            assert_eq!(reply["error"]["data"]["supported"][0], "2026-07-28");
        }
    }
    // Unknown methods still get -32601; listen needs a transport.
    for method in ["resources/list", "subscriptions/listen"] {
        let message = json!({"jsonrpc":"2.0","id":4,"method":method,"params":{"notifications":{"toolsListChanged":true},"_meta":(*MODERN_META).clone()}});
        assert_eq!(parse(server.handle(&message.to_string()))["error"]["code"], -32601, "{method}");
    }
    // The listen refused above left nothing open: the same id opens again on a transport.
    assert!(server.session().tool_listeners().is_empty());
}

#[test]
fn calls_give_results_and_tool_errors() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    ready(&server);
    let reply = parse(server.handle(
        r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"text":"hé \"q\""}}}"#,
    ));
    assert_eq!(
        reply,
        json!({"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"hé \"q\""}],"isError":false}})
    );
    let reply = parse(
        server.handle(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#),
    );
    assert_eq!(reply["result"]["isError"], true);
    assert!(reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("aikido/tools: invalid tool arguments for tool \"echo\""));
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fail"}}"#));
    assert_eq!(reply["result"], json!({"content":[{"type":"text","text":"it broke"}],"isError":true}));
    let reply = parse(server.handle(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"boom"}}"#));
    assert_eq!(reply["result"]["isError"], true);
    assert!(reply["result"]["content"][0]["text"].as_str().unwrap().contains("kaboom"));
    let reply =
        parse(server.handle(
            r#"{"jsonrpc":"2.0","id":12345678901234567890123,"method":"tools/call","params":{"name":"session"}}"#,
        ));
    assert_eq!(reply["result"]["content"][0]["text"], server.session().id());
    assert!(server
        .handle(r#"{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}"#)
        .unwrap()
        .contains("12345678901234567890123"));
}

#[test]
fn batches_follow_the_version() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b"}}}]"#;
    // Before initialize, and in 2025-06-18 or later: refused.
    assert_eq!(parse(server.handle(batch))["error"]["code"], -32600);
    ready(&server);
    assert_eq!(parse(server.handle(batch))["error"]["code"], -32600);
    // In 2025-03-26: answered in order, notifications left out.
    let old =
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}"#;
    parse(server.handle(old));
    let reply = parse(server.handle(batch));
    assert_eq!(reply.as_array().unwrap().len(), 2);
    assert_eq!(reply[0]["id"], 1);
    assert_eq!(reply[1]["result"]["content"][0]["text"], "b");
    assert_eq!(server.handle(r#"[{"jsonrpc":"2.0","method":"notifications/x"}]"#), None);
    let reply = parse(server.handle(&format!("[{old}]")));
    assert_eq!(reply[0]["error"]["code"], -32600);
}

#[test]
fn cancelled_calls_stop_and_get_no_response() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    ready(&server);
    std::thread::scope(|scope| {
        let call = scope
            .spawn(|| server.handle(r#"{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"wait"}}"#));
        while server.session().calls_in_flight() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        // A duplicate id while the first runs is refused.
        let reply = parse(server.handle(
            r#"{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#,
        ));
        assert_eq!(reply["error"]["code"], -32600);
        assert!(parse(server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#))["result"].is_object());
        assert_eq!(
            server.handle(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long"}}"#),
            None
        );
        assert_eq!(call.join().unwrap(), None);
    });
    assert_eq!(server.session().calls_in_flight(), 0);
}

/// A pipe for the stdio tests: a reader the test feeds line by line.
struct Pipe(std::sync::mpsc::Receiver<Vec<u8>>, Vec<u8>);

impl Read for Pipe {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.1.is_empty() {
            match self.0.recv() {
                Ok(bytes) => self.1 = bytes,
                Err(_) => return Ok(0),
            }
        }
        let count = buffer.len().min(self.1.len());
        buffer[..count].copy_from_slice(&self.1[..count]);
        self.1.drain(..count);
        Ok(count)
    }
}

/// Collects what the server writes; lines go out on a channel.
struct Lines(std::sync::mpsc::Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buffer);
        while let Some(at) = self.1.iter().position(|&byte| byte == b'\n') {
            let line: Vec<u8> = self.1.drain(..=at).collect();
            let _ = self.0.send(String::from_utf8(line).unwrap().trim_end().to_owned());
        }
        Ok(buffer.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn stdio_serves_while_a_call_runs_cancels_and_tells_of_changes() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    let (input, input_receiver) = std::sync::mpsc::channel::<Vec<u8>>();
    let (output_sender, output) = std::sync::mpsc::channel::<String>();
    let next = || -> Value { serde_json::from_str(&output.recv_timeout(Duration::from_secs(10)).unwrap()).unwrap() };
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| {
            server.serve_stdio(BufReader::new(Pipe(input_receiver, Vec::new())), Lines(output_sender, Vec::new()), None)
        });
        let send = |line: &str| input.send(format!("{line}\n").into_bytes()).unwrap();
        send(INIT);
        assert_eq!(next()["id"], 0);
        send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        send(r#"{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"wait"}}"#);
        send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
        assert_eq!(next()["id"], 2);
        // Oversized and malformed lines get errors; the server goes on.
        input.send(vec![b'x'; MAX_MESSAGE_BYTES + 10]).unwrap();
        send("");
        assert_eq!(next()["error"]["code"], -32600);
        send("{oops");
        assert_eq!(next()["error"]["code"], -32700);
        registry
            .register(ToolDefinition::new("late", ""), |_: &str, _: &Environment| Ok(ToolResult::new("late")))
            .unwrap();
        assert_eq!(next()["method"], "notifications/tools/list_changed");
        send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"late"}}"#);
        assert_eq!(next()["result"]["content"][0]["text"], "late");
        send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long","reason":"test"}}"#);
        send(r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
        assert_eq!(next()["id"], 4);
        drop(input);
        serving.join().unwrap().unwrap();
    });
    // The cancelled call got no response; nothing else was written.
    assert!(output.try_recv().is_err());
    assert_eq!(server.session().calls_in_flight(), 0);
}

#[test]
fn stdio_serves_2026_listen_streams() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    let (input, input_receiver) = std::sync::mpsc::channel::<Vec<u8>>();
    let (output_sender, output) = std::sync::mpsc::channel::<String>();
    let next = || -> Value { serde_json::from_str(&output.recv_timeout(Duration::from_secs(10)).unwrap()).unwrap() };
    let meta = (*MODERN_META).clone();
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| {
            server.serve_stdio(BufReader::new(Pipe(input_receiver, Vec::new())), Lines(output_sender, Vec::new()), None)
        });
        let send = |message: Value| input.send(format!("{message}\n").into_bytes()).unwrap();
        send(json!({"jsonrpc":"2.0","id":"probe","method":"server/discover","params":{"_meta":meta}}));
        assert_eq!(next()["result"]["supportedVersions"][0], "2026-07-28");
        send(
            json!({"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"promptsListChanged":true},"_meta":meta}}),
        );
        let ack = next();
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        // Only what is served is honoured.
        assert_eq!(ack["params"]["notifications"], json!({"toolsListChanged":true}));
        assert_eq!(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
        send(
            json!({"jsonrpc":"2.0","id":"l2","method":"subscriptions/listen","params":{"notifications":{},"_meta":meta}}),
        );
        assert_eq!(next()["params"]["notifications"], json!({}));
        registry
            .register(ToolDefinition::new("late", ""), |_: &str, _: &Environment| Ok(ToolResult::new("late")))
            .unwrap();
        // Tagged with the stream that asked; no untagged copy (no initialize), none for l2.
        let changed = next();
        assert_eq!(changed["method"], "notifications/tools/list_changed");
        assert_eq!(changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
        send(json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"late","_meta":meta}}));
        assert_eq!(next()["result"]["content"][0]["text"], "late");
        // Cancelling the stream closes it: no response, no more notifications on it.
        send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l1"}}));
        send(json!({"jsonrpc":"2.0","id":6,"method":"ping"}));
        assert_eq!(next()["id"], 6);
        registry.unregister("late").unwrap();
        send(json!({"jsonrpc":"2.0","id":7,"method":"ping"}));
        assert_eq!(next()["id"], 7);
        drop(input);
        serving.join().unwrap().unwrap();
    });
    // At EOF the open stream l2 is closed gracefully with its result.
    let closed = next();
    assert_eq!(closed["id"], "l2");
    assert_eq!(closed["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l2");
    assert!(output.try_recv().is_err());
}

#[test]
fn stdio_answers_what_it_read_before_eof() {
    let registry = registry();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    registry
        .register(ToolDefinition::new("count", ""), move |_: &str, _: &Environment| {
            counter.fetch_add(1, Ordering::Relaxed);
            Ok(ToolResult::new("n"))
        })
        .unwrap();
    let server = McpServer::new(&registry, "s", "1");
    let mut input = format!("{INIT}\n");
    for id in 1..=200 {
        input.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"count\"}}}}\n"
        ));
    }
    let mut output = Vec::new();
    server.serve_stdio(input.as_bytes(), &mut output, None).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(text.lines().count(), 201);
    assert_eq!(calls.load(Ordering::Relaxed), 200);
    for line in text.lines() {
        let reply: Value = serde_json::from_str(line).unwrap();
        assert!(reply.get("result").is_some(), "{line}");
    }
}

#[test]
fn stop_ends_serving_and_cancels_running_calls() {
    let registry = registry();
    let server = McpServer::new(&registry, "s", "1");
    let (input, input_receiver) = std::sync::mpsc::channel::<Vec<u8>>();
    let stop = CancelToken::new();
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| {
            server.serve_stdio(BufReader::new(Pipe(input_receiver, Vec::new())), std::io::sink(), Some(&stop))
        });
        input.send(format!("{INIT}\n").into_bytes()).unwrap();
        input
            .send(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\"}}\n".to_vec())
            .unwrap();
        while server.session().calls_in_flight() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        stop.fire();
        // The reader wakes up with the next message (an FdReader would by itself).
        input.send(b"\n".to_vec()).unwrap();
        serving.join().unwrap().unwrap();
    });
    assert_eq!(server.session().calls_in_flight(), 0);
}
