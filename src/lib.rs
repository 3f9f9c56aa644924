//! libaikido: a registry of the tools an LLM may call.
//!
//! A program registers tools (name, description, JSON-Schema parameters,
//! handler), sends their [definitions](Registry::definitions_json) to the
//! model, and [dispatches](Registry::dispatch) the model's tool calls to the
//! handlers. Dispatch checks the arguments first and turns every failure, a
//! handler's panic included, into a message the model can act on.
//!
//! The crate has four parts (`docs/ARCHITECTURE.md` says what each may
//! use):
//!
//! - the core: [`Registry`], [`ToolDefinition`], [`ToolCall`], [`Environment`]
//!   with its [`CancelToken`], the [`Error`] every failure is, and the
//!   [`schema`] helpers. It knows nothing of C, files or the shell.
//! - `storage` (feature `storage`, on by default): the virtual file storage
//!   (memory, host folder, overlay, dry run, mounts, read-only, policy) and
//!   the file tools (`read_file`, `write_file`, `list_directory`,
//!   `edit_file`, `delete_path`) that act on it.
//! - `shell` (feature `shell`, on by default): a bash interpreter that runs
//!   in-process over a storage, and the `bash` tool.
//! - [`ffi`]: the C ABI every other language links against
//!   (`include/aikido.h`, generated from it by `make header`). It checks
//!   pointers, converts and catches unwinds; the rules live in the parts
//!   above. `docs/C-API.md` is its contract.
//!
//! Feature `exact-numbers` (on by default) keeps every JSON number exact in
//! schema text; `default-features = false` gives the registry alone.
//!
//! # The seed's examples
//!
//! Object builds a schema whose text is deterministic:
//!
//! ```
//! use aikido::schema;
//!
//! let schema = schema::object(
//!     [("path", schema::string("File to read.")), ("limit", schema::integer("Maximum lines."))],
//!     &["path"],
//! );
//! println!("{schema}");
//! assert_eq!(
//!     schema.to_string(),
//!     r#"{"properties":{"limit":{"description":"Maximum lines.","type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}"#
//! );
//! ```
//!
//! A registry greets Ada:
//!
//! ```
//! use aikido::{schema, Environment, Registry, ToolCall, ToolDefinition, ToolError, ToolResult};
//!
//! let registry = Registry::new();
//! registry
//!     .register(
//!         ToolDefinition::new("greet", "Greet a person by name.")
//!             .with_parameters(schema::object([("name", schema::string("Who to greet."))], &["name"])),
//!         |arguments: &str, _: &Environment| {
//!             let parsed: serde_json::Value = serde_json::from_str(arguments)?;
//!             let name = parsed["name"].as_str().ok_or_else(|| ToolError::failed("greet arguments: name must be a string"))?;
//!             Ok(ToolResult::new(format!("Hello, {name}!")))
//!         },
//!     )
//!     .unwrap();
//!
//! let call = ToolCall::new("greet", r#"{"name":"Ada"}"#).with_id("call-1");
//! let result = registry.dispatch(&call, &Environment::new("conversation-1")).unwrap();
//! println!("{}", result.content);
//! assert_eq!(result.content, "Hello, Ada!");
//! ```
//!
//! Dispatch refuses a call that lacks a required argument before the handler
//! runs, and turns a handler panic into an error; both messages are written
//! for the model:
//!
//! ```
//! use aikido::{schema, Environment, Error, Registry, ToolCall, ToolDefinition};
//!
//! let registry = Registry::new();
//! registry
//!     .register(
//!         ToolDefinition::new("divide", "")
//!             .with_parameters(schema::object([("by", schema::integer("Divisor."))], &["by"])),
//!         |_: &str, _: &Environment| panic!("division by zero"),
//!     )
//!     .unwrap();
//!
//! let environment = Environment::default();
//! let mut output = Vec::new();
//! let error = registry.dispatch(&ToolCall::new("divide", "{}"), &environment).unwrap_err();
//! output.push(matches!(error, Error::InvalidArguments { .. }));
//! let error = registry.dispatch(&ToolCall::new("divide", r#"{"by":0}"#), &environment).unwrap_err();
//! output.push(matches!(error, Error::ToolPanicked { .. }));
//! assert!(error.to_string().contains("division by zero"));
//! let error = registry.dispatch(&ToolCall::new("multiply", ""), &environment).unwrap_err();
//! output.push(matches!(error, Error::UnknownTool { .. }));
//! println!("{output:?}");
//! assert_eq!(output, [true, true, true]);
//! ```

#![deny(missing_docs)]

// Test helpers shared with the integration tests (tests/common) name the
// crate `aikido`, as those tests do.
#[cfg(test)]
extern crate self as aikido;

pub mod dialect;
mod environment;
mod error;
pub mod ffi;
mod json;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "network")]
pub mod net;
#[cfg(feature = "shell")]
pub mod persist;
mod registry;
pub mod schema;
#[cfg(feature = "shell")]
pub mod shell;
#[cfg(feature = "storage")]
pub mod storage;
#[cfg(feature = "shell")]
mod thread_stack;
mod tool;
pub mod validation;
mod watch;

pub use dialect::{tool_calls_parse, Dialect, ParsedCall};
pub use environment::{CancelToken, Environment};
pub use error::{Error, PanicOrigin, Status};
pub use json::{is_valid_json, parse_value, MAX_DEPTH};
pub use registry::{Registry, Rejected};
pub use tool::{Handler, HandlerResult, ToolCall, ToolDefinition, ToolError, ToolResult};
pub use uuid::Uuid;
pub use validation::{Repair, ValidationMode};
pub use watch::WatchId;
