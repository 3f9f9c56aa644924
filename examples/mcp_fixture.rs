//! The MCP server the Python client tests (tests/python/mcp_client.py) and
//! the benchmark (scripts/bench.sh) drive: a registry of test tools served
//! over stdio, or over Streamable HTTP with `--listen ADDR`.
//!
//! Tools: `echo` (returns `text`), `add` (a + b, the benchmark's trivial
//! work), `fail` (a tool error), `sleep` (waits `seconds`, stops when
//! cancelled), `add_tool` and `remove_tool` (change the registry, so the
//! client hears `notifications/tools/list_changed`), and 150 tools
//! `tool_000`…`tool_149` so that listing takes pages.
//!
//! Run: `cargo run --release --example mcp_fixture [-- --listen 127.0.0.1:PORT]`.

use std::io::BufReader;
use std::time::{Duration, Instant};

use aikido::mcp::{FdWriter, McpServer};
use aikido::{schema, Environment, Registry, ToolDefinition, ToolError, ToolResult};
use serde_json::Value;

fn field<'a>(arguments: &'a Value, name: &str) -> Result<&'a Value, ToolError> {
    arguments.get(name).ok_or_else(|| ToolError::failed(format!("{name} is missing")))
}

fn register_fixture_tools(registry: &'static Registry) {
    let text = schema::object([("text", schema::string("What to echo."))], &["text"]);
    registry
        .register(
            ToolDefinition::new("echo", "Echo the text.").with_parameters(text),
            |arguments: &str, _: &Environment| {
                let arguments: Value = serde_json::from_str(arguments)?;
                Ok(ToolResult::new(field(&arguments, "text")?.as_str().unwrap_or_default()))
            },
        )
        .unwrap();
    let numbers = schema::object([("a", schema::integer("")), ("b", schema::integer(""))], &["a", "b"]);
    registry
        .register(
            ToolDefinition::new("add", "Add two integers.").with_parameters(numbers),
            |arguments: &str, _: &Environment| {
                let arguments: Value = serde_json::from_str(arguments)?;
                let a = field(&arguments, "a")?.as_i64().ok_or_else(|| ToolError::failed("a must be an integer"))?;
                let b = field(&arguments, "b")?.as_i64().ok_or_else(|| ToolError::failed("b must be an integer"))?;
                Ok(ToolResult::new((a + b).to_string()))
            },
        )
        .unwrap();
    registry
        .register(ToolDefinition::new("fail", "Always fails."), |_: &str, _: &Environment| {
            Err(ToolError::failed("fixture: this tool always fails"))
        })
        .unwrap();
    let seconds = schema::object([("seconds", schema::number("How long to wait."))], &["seconds"]);
    registry
        .register(
            ToolDefinition::new("sleep", "Wait, stopping early when cancelled.").with_parameters(seconds),
            |arguments: &str, environment: &Environment| {
                let arguments: Value = serde_json::from_str(arguments)?;
                let seconds = field(&arguments, "seconds")?.as_f64().unwrap_or(0.0);
                let start = Instant::now();
                while start.elapsed() < Duration::from_secs_f64(seconds) {
                    if environment.is_cancelled() {
                        eprintln!("mcp_fixture: sleep cancelled after {:?}", start.elapsed());
                        return Ok(ToolResult::new("cancelled"));
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(ToolResult::new("slept"))
            },
        )
        .unwrap();
    let name = schema::object([("name", schema::string("The tool's name."))], &["name"]);
    registry
        .register(
            ToolDefinition::new("add_tool", "Register a tool that echoes its name.").with_parameters(name.clone()),
            move |arguments: &str, _: &Environment| {
                let arguments: Value = serde_json::from_str(arguments)?;
                let name = field(&arguments, "name")?.as_str().unwrap_or_default().to_owned();
                let reply = name.clone();
                registry
                    .register(ToolDefinition::new(name, "Added at run time."), move |_: &str, _: &Environment| {
                        Ok(ToolResult::new(reply.clone()))
                    })
                    .map_err(|problem| ToolError::failed(problem.to_string()))?;
                Ok(ToolResult::new("added"))
            },
        )
        .unwrap();
    registry
        .register(
            ToolDefinition::new("remove_tool", "Unregister a tool.").with_parameters(name),
            move |arguments: &str, _: &Environment| {
                let arguments: Value = serde_json::from_str(arguments)?;
                let name = field(&arguments, "name")?.as_str().unwrap_or_default();
                registry.unregister(name).map_err(|problem| ToolError::failed(problem.to_string()))?;
                Ok(ToolResult::new("removed"))
            },
        )
        .unwrap();
    for index in 0..150 {
        registry
            .register(
                ToolDefinition::new(format!("tool_{index:03}"), "A tool for paging."),
                move |_: &str, _: &Environment| Ok(ToolResult::new(index.to_string())),
            )
            .unwrap();
    }
}

fn main() {
    let registry: &'static Registry = Box::leak(Box::new(Registry::new()));
    register_fixture_tools(registry);
    let server = McpServer::new(registry, "aikido-mcp-fixture", "1.0");
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.iter().position(|argument| argument == "--listen") {
        Some(at) => {
            let address = arguments.get(at + 1).expect("--listen ADDR");
            serve_http(&server, address);
        }
        None => {
            let stdin = std::io::stdin();
            server.serve_stdio(BufReader::new(stdin.lock()), FdWriter::new(1), None).expect("serving stdio");
        }
    }
}

fn serve_http(server: &McpServer, address: &str) {
    let listener = std::net::TcpListener::bind(address).expect("--listen ADDR");
    // The test reads the port from this line.
    eprintln!("mcp_fixture: listening on {}", listener.local_addr().expect("a bound address"));
    aikido::mcp::http::serve(
        server,
        &listener,
        &aikido::mcp::http::HttpOptions::default(),
        &aikido::CancelToken::new(),
    );
}
