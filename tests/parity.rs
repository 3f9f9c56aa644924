//! The shared dispatch cases (tests/cases/dispatch.tsv) through the native
//! Rust API. The C, C++, Go and Zig runners read the same file.

use aikido::{CancelToken, Environment, Registry, ToolCall, ToolDefinition, ToolError, ToolResult, ValidationMode};

/// One line of the case table.
struct Case {
    name: String,
    schema: Option<String>,
    handler: String,
    call: String,
    arguments: Vec<u8>,
    status: String,
    fragment: Vec<u8>,
    cancelled: bool,
    /// The registry validates in this mode (flags `full`, `repair`).
    validation: ValidationMode,
}

/// Decodes the table's escapes: \t \n \r \\ and \xHH (one raw byte).
fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'\\' && index + 1 < bytes.len() {
            match bytes[index + 1] {
                b't' => out.push(b'\t'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    let hex = std::str::from_utf8(&bytes[index + 2..index + 4]).unwrap();
                    out.push(u8::from_str_radix(hex, 16).unwrap());
                    index += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            index += 2;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    out
}

fn arguments(column: &str) -> Vec<u8> {
    match column.strip_prefix("@deep:") {
        Some(depth) => {
            let depth: usize = depth.parse().unwrap();
            let mut out = b"{\"a\":".to_vec();
            out.extend(std::iter::repeat_n(b'[', depth));
            out.extend(std::iter::repeat_n(b']', depth));
            out.push(b'}');
            out
        }
        None => unescape(column),
    }
}

fn cases() -> Vec<Case> {
    let table = include_str!("cases/dispatch.tsv");
    table
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            assert_eq!(columns.len(), 8, "a case line has eight columns: {line}");
            Case {
                name: columns[0].to_owned(),
                schema: (columns[1] != "-").then(|| columns[1].to_owned()),
                handler: columns[2].to_owned(),
                call: columns[3].to_owned(),
                arguments: arguments(columns[4]),
                status: columns[5].to_owned(),
                fragment: unescape(columns[6]),
                cancelled: columns[7].split(',').any(|flag| flag == "cancelled"),
                validation: if columns[7].split(',').any(|flag| flag == "repair") {
                    ValidationMode::Repair
                } else if columns[7].split(',').any(|flag| flag == "full") {
                    ValidationMode::Full
                } else {
                    ValidationMode::Required
                },
            }
        })
        .collect()
}

fn status_name(error: &aikido::Error) -> &'static str {
    use aikido::Status::*;
    match error.status() {
        Ok => "AIKIDO_OK",
        DuplicateTool => "AIKIDO_ERR_DUPLICATE_TOOL",
        UnknownTool => "AIKIDO_ERR_UNKNOWN_TOOL",
        InvalidArguments => "AIKIDO_ERR_INVALID_ARGUMENTS",
        ToolPanicked => "AIKIDO_ERR_TOOL_PANICKED",
        ToolFailed => "AIKIDO_ERR_TOOL_FAILED",
        InvalidInput => "AIKIDO_ERR_INVALID_INPUT",
        Cancelled => "AIKIDO_ERR_CANCELLED",
        Storage => "AIKIDO_ERR_STORAGE",
    }
}

#[test]
fn every_case_of_the_shared_table_holds() {
    let cases = cases();
    assert!(cases.len() >= 40, "the table has lost cases: {}", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let registry = Registry::new();
        registry.set_validation(case.validation).unwrap();
        let handler = case.handler.clone();
        let definition =
            ToolDefinition { name: "probe".into(), description: String::new(), parameters: case.schema.clone() };
        registry
            .register(definition, move |arguments: &str, _: &Environment| {
                if handler == "echo" {
                    Ok(ToolResult::new(arguments))
                } else if let Some(text) = handler.strip_prefix("content:") {
                    Ok(ToolResult::new(text))
                } else if let Some(text) = handler.strip_prefix("fail:") {
                    Err(ToolError::failed(text))
                } else if let Some(text) = handler.strip_prefix("panic:") {
                    panic!("{text}")
                } else {
                    panic!("unknown handler column {handler}")
                }
            })
            .unwrap_or_else(|error| panic!("case {}: register: {error}", case.name));
        let token = CancelToken::new();
        if case.cancelled {
            token.fire();
        }
        let environment = Environment { cancel: Some(&token), ..Environment::default() };
        let call = ToolCall { id: "call-1", name: &case.call, arguments: &case.arguments };
        let (status, text) = match registry.dispatch(&call, &environment) {
            Ok(result) => ("AIKIDO_OK", result.content),
            Err(error) => (status_name(&error), error.to_string()),
        };
        let fragment = String::from_utf8_lossy(&case.fragment);
        if status != case.status || !text.contains(&*fragment) {
            failures
                .push(format!("{}: got {status} {text:?}; want {} containing {fragment:?}", case.name, case.status));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
