//! The registry: which tools exist, and the way from a call to its handler.
//!
//! The table of tools is an immutable snapshot behind an [`ArcSwap`].
//! Dispatch loads the snapshot without a lock and keeps it alive for the
//! handler's run, so registration never stalls dispatch and a handler may
//! itself register, unregister or dispatch. Writers copy the table, change
//! the copy and swap it in, one writer at a time. A tool (and so its handler
//! and whatever the handler owns) is dropped when the last snapshot that
//! holds it is gone: after it was unregistered *and* its last in-flight call
//! has returned.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

use arc_swap::ArcSwap;
use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::environment::Environment;
use crate::error::{panic_message, Error, PanicOrigin};
use crate::json;
use crate::tool::{Handler, HandlerResult, ToolCall, ToolDefinition, ToolError, ToolResult};
use crate::validation::{self, Schema, ValidationMode};

/// A registered tool: its definition, the `required` list read from its
/// schema once, and its handler.
struct Tool {
    definition: ToolDefinition,
    required: Box<[Box<str>]>,
    handler: Box<dyn Handler>,
    /// The compiled schema, made when the tool is registered in a full
    /// validation mode or when the registry switches to one.
    schema: OnceLock<Schema>,
}

/// One immutable version of the tool table.
#[derive(Default)]
struct Table {
    tools: IndexMap<Box<str>, Arc<Tool>, FxBuildHasher>,
    /// The definitions as JSON, made on first request and kept until the
    /// table changes.
    definitions_json: OnceLock<Box<str>>,
    /// The definitions in each provider's format, made on request (src/dialect).
    dialects: crate::dialect::Cache,
    /// How dispatch checks arguments (docs/VALIDATION.md).
    validation: ValidationMode,
}

/// A handler that was not registered, handed back with the reason, so that
/// whoever owns what it holds can take it back.
pub struct Rejected<F> {
    /// Why registration failed.
    pub error: Error,
    /// The handler, untouched.
    pub handler: F,
}

impl<F> std::fmt::Debug for Rejected<F> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Rejected").field("error", &self.error).finish_non_exhaustive()
    }
}

/// Holds tool definitions and their handlers. Safe for concurrent use from
/// many threads: register, unregister, definitions and dispatch may run at once.
///
/// ```
/// use aikido::{schema, Environment, Registry, ToolCall, ToolDefinition, ToolError, ToolResult};
///
/// let registry = Registry::new();
/// registry
///     .register(
///         ToolDefinition::new("greet", "Greet a person by name.")
///             .with_parameters(schema::object([("name", schema::string("Who to greet."))], &["name"])),
///         |arguments: &str, _: &Environment| {
///             let parsed: serde_json::Value = serde_json::from_str(arguments)?;
///             let name = parsed["name"].as_str().ok_or_else(|| ToolError::failed("name must be a string"))?;
///             Ok(ToolResult::new(format!("Hello, {name}!")))
///         },
///     )
///     .unwrap();
///
/// let result = registry
///     .dispatch(&ToolCall::new("greet", r#"{"name":"Ada"}"#).with_id("call-1"), &Environment::new("conversation-1"))
///     .unwrap();
/// assert_eq!(result.content, "Hello, Ada!");
/// ```
pub struct Registry {
    table: ArcSwap<Table>,
    /// Serialises writers; readers never touch it.
    writer: Mutex<()>,
    /// Told after each change (src/watch.rs).
    pub(crate) watchers: crate::watch::Watchers,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let table = self.table.load();
        formatter.debug_struct("Registry").field("tools", &table.tools.keys().collect::<Vec<_>>()).finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry {
            table: ArcSwap::from_pointee(Table::default()),
            writer: Mutex::new(()),
            watchers: Default::default(),
        }
    }

    /// Adds a tool. Fails with [`Error::InvalidInput`] for an empty name or
    /// parameters that are not JSON, and [`Error::DuplicateTool`] when the
    /// name is taken.
    ///
    /// The schema's `required` list is read once, here; entries that are not
    /// strings are ignored. Parameters that are valid JSON but not an object
    /// are accepted and enforce nothing.
    pub fn register<F>(&self, definition: ToolDefinition, handler: F) -> Result<(), Error>
    where
        F: Fn(&str, &Environment<'_>) -> HandlerResult + Send + Sync + 'static,
    {
        self.try_register(definition, handler).map_err(|rejected| rejected.error)
    }

    /// Like [`Registry::register`], but a refused handler comes back with the
    /// error instead of being dropped. Foreign callers need this: until a
    /// registration succeeds, what the handler holds is still theirs.
    pub fn try_register<H: Handler>(&self, definition: ToolDefinition, handler: H) -> Result<(), Rejected<H>> {
        let required = match checked_definition(&definition) {
            Ok(required) => required,
            Err(error) => return Err(Rejected { error, handler }),
        };
        let _writer = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let current = self.table.load();
        if current.tools.contains_key(definition.name.as_str()) {
            let error = Error::DuplicateTool { name: definition.name };
            return Err(Rejected { error, handler });
        }
        let schema = OnceLock::new();
        if current.validation.is_full() {
            match compile(&definition) {
                Ok(Some(compiled)) => drop(schema.set(compiled)),
                Ok(None) => {}
                Err(error) => return Err(Rejected { error, handler }),
            }
        }
        let mut tools = current.tools.clone();
        let name: Box<str> = definition.name.as_str().into();
        tools.insert(name, Arc::new(Tool { definition, required, handler: Box::new(handler), schema }));
        self.table.store(Arc::new(Table {
            tools,
            definitions_json: OnceLock::new(),
            dialects: Default::default(),
            validation: current.validation,
        }));
        drop(_writer);
        self.watchers.notify();
        Ok(())
    }

    /// Removes a tool. Calls already running finish; the handler is dropped
    /// when the last of them returns. Fails with [`Error::UnknownTool`] when
    /// no tool has that name.
    pub fn unregister(&self, name: &str) -> Result<(), Error> {
        let removed = {
            let _writer = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let current = self.table.load();
            if !current.tools.contains_key(name) {
                return Err(unknown_tool(name, &current));
            }
            let mut tools = current.tools.clone();
            let removed = tools.shift_remove(name);
            self.table.store(Arc::new(Table {
                tools,
                definitions_json: OnceLock::new(),
                dialects: Default::default(),
                validation: current.validation,
            }));
            removed
        };
        // The handler may be dropped here, outside the writer lock, so that
        // its owner's clean-up can use this registry.
        drop(removed);
        self.watchers.notify();
        Ok(())
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.table.load().tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every definition, in registration order, as a new list.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.table.load().tools.values().map(|tool| tool.definition.clone()).collect()
    }

    /// Every definition, in registration order, as the JSON array a model
    /// receives: `[{"name":…,"description":…,"parameters":…}]`, description
    /// left out when empty, parameters when none were given. Made once per
    /// change of the table; `visit` borrows it without a copy.
    pub fn with_definitions_json<R>(&self, visit: impl FnOnce(&str) -> R) -> R {
        let table = self.table.load();
        visit(table.definitions_json.get_or_init(|| definitions_json(&table)))
    }

    /// [`Registry::with_definitions_json`] as an owned string.
    pub fn definitions_json(&self) -> String {
        self.with_definitions_json(str::to_owned)
    }

    /// The table's definitions and its dialect cache, for src/dialect. The
    /// snapshot is held while `visit` runs.
    pub(crate) fn with_dialect_table<R>(
        &self,
        visit: impl FnOnce(&mut dyn Iterator<Item = &ToolDefinition>, &crate::dialect::Cache) -> R,
    ) -> R {
        let table = self.table.load();
        visit(&mut table.tools.values().map(|tool| &tool.definition), &table.dialects)
    }

    /// Routes a call to its handler and returns the handler's result or error.
    ///
    /// In order: an unknown name fails with [`Error::UnknownTool`]; arguments
    /// that are not one JSON object holding every required field (not null)
    /// fail with [`Error::InvalidArguments`]; a fired cancellation token fails
    /// with [`Error::Cancelled`]; then the handler runs and receives the
    /// arguments verbatim (`{}` for empty ones). A handler that panics gives
    /// [`Error::ToolPanicked`]; one that fails gives [`Error::ToolFailed`]
    /// with its own text.
    pub fn dispatch(&self, call: &ToolCall<'_>, environment: &Environment<'_>) -> Result<ToolResult, Error> {
        // The guard keeps this snapshot, and so the tool, alive until the
        // handler returns; it is not a lock.
        let table = self.table.load();
        let Some(tool) = table.tools.get(call.name) else {
            return Err(unknown_tool(call.name, &table));
        };
        let checked = validation::check_arguments(call.arguments, &tool.required, table.validation, tool.schema.get())
            .map_err(|reason| Error::InvalidArguments { tool: call.name.to_owned(), reason })?;
        if environment.is_cancelled() {
            return Err(Error::Cancelled { tool: call.name.to_owned() });
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| tool.handler.call(&checked.arguments, environment)));
        let tool_name = || call.name.to_owned();
        match outcome {
            Ok(Ok(mut result)) => {
                result.repairs.extend(checked.repairs);
                Ok(result)
            }
            Ok(Err(ToolError::Failed(message))) if message.is_empty() => Err(Error::ToolFailed {
                tool: tool_name(),
                message: format!(
                    "aikido/tools: tool failed: tool \"{}\" reported an error without a message",
                    call.name
                ),
            }),
            Ok(Err(ToolError::Failed(message))) => Err(Error::ToolFailed { tool: tool_name(), message }),
            Ok(Err(ToolError::Panicked(message))) => {
                Err(Error::ToolPanicked { origin: PanicOrigin::Tool(tool_name()), message })
            }
            Err(payload) => {
                Err(Error::ToolPanicked { origin: PanicOrigin::Tool(tool_name()), message: panic_message(payload) })
            }
        }
    }
}

impl Registry {
    /// Sets how dispatch checks arguments (docs/VALIDATION.md), for this
    /// registry and every call from now on.
    ///
    /// Switching to [`ValidationMode::Full`] or [`ValidationMode::Repair`]
    /// compiles the schema of every tool registered so far; when one is not
    /// valid JSON Schema, this fails with [`Error::InvalidInput`] naming the
    /// tool and the reason, and the mode stays as it was. From then on,
    /// `register` refuses a schema that is not valid JSON Schema.
    pub fn set_validation(&self, mode: ValidationMode) -> Result<(), Error> {
        if mode.is_full() && !validation::FULL_VALIDATION {
            return Err(Error::InvalidInput(validation::unavailable()));
        }
        let _writer = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let current = self.table.load();
        if mode.is_full() {
            let mut compiled = Vec::new();
            for tool in current.tools.values().filter(|tool| tool.schema.get().is_none()) {
                if let Some(schema) = compile(&tool.definition)? {
                    compiled.push((tool, schema));
                }
            }
            for (tool, schema) in compiled {
                // A racing call may have set it first, from the same definition.
                let _ = tool.schema.set(schema);
            }
        }
        let definitions_json = current.definitions_json.clone();
        self.table.store(Arc::new(Table {
            tools: current.tools.clone(),
            definitions_json,
            dialects: Default::default(),
            validation: mode,
        }));
        Ok(())
    }

    /// How dispatch checks arguments now.
    pub fn validation(&self) -> ValidationMode {
        self.table.load().validation
    }
}

/// The compiled schema of a definition; `None` when it declares no parameters.
fn compile(definition: &ToolDefinition) -> Result<Option<Schema>, Error> {
    let Some(parameters) = definition.parameters.as_deref().filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    Schema::compile(parameters).map(Some).map_err(|reason| {
        Error::InvalidInput(format!(
            "the parameters of tool \"{}\" are not valid JSON Schema: {reason}",
            definition.name
        ))
    })
}

/// Checks a definition before it enters the table and returns its
/// `required` list, duplicates removed.
fn checked_definition(definition: &ToolDefinition) -> Result<Box<[Box<str>]>, Error> {
    if definition.name.is_empty() {
        return Err(Error::InvalidInput("a tool needs a non-empty name".to_owned()));
    }
    let Some(parameters) = definition.parameters.as_deref().filter(|text| !text.is_empty()) else {
        return Ok(Box::default());
    };
    let required = json::required_fields(parameters).map_err(|detail| {
        Error::InvalidInput(format!("the parameters of tool \"{}\" are not valid JSON: {detail}", definition.name))
    })?;
    Ok(required.into_boxed_slice())
}

/// How many tool names an unknown-tool message lists before it stops.
const LISTED_TOOLS: usize = 32;

fn unknown_tool(name: &str, table: &Table) -> Error {
    let names: Vec<String> = table.tools.keys().take(LISTED_TOOLS).map(|name| format!("\"{name}\"")).collect();
    let available = match table.tools.len() {
        0 => "no tools are registered".to_owned(),
        count if count > LISTED_TOOLS => {
            format!("the registered tools include {} and {} more", names.join(", "), count - LISTED_TOOLS)
        }
        _ => format!("the registered tools are {}", names.join(", ")),
    };
    Error::UnknownTool { name: name.to_owned(), available }
}

fn definitions_json(table: &Table) -> Box<str> {
    let mut out = String::from("[");
    for (index, tool) in table.tools.values().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let definition = &tool.definition;
        out.push_str("{\"name\":");
        json::push_string(&mut out, &definition.name);
        if !definition.description.is_empty() {
            out.push_str(",\"description\":");
            json::push_string(&mut out, &definition.description);
        }
        if let Some(parameters) = definition.parameters.as_deref().filter(|text| !text.is_empty()) {
            out.push_str(",\"parameters\":");
            // Checked at registration; compacted here so the list has no
            // whitespace whatever the caller's formatting was.
            out.push_str(&json::compact(parameters));
        }
        out.push('}');
    }
    out.push(']');
    out.into_boxed_str()
}
