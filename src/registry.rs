//! The registry: which tools exist, and the way from a call to its handler.
//!
//! The table of tools is an immutable snapshot behind an [`ArcSwap`].
//! Dispatch loads the snapshot without a lock and keeps it alive for the
//! handler's run, so registration never stalls dispatch and a handler may
//! itself register, unregister or dispatch. Writers make a new version of the
//! table and swap it in, one writer at a time. A tool (and so its handler
//! and whatever the handler owns) is dropped when the last snapshot that
//! holds it is gone: after it was unregistered *and* its last in-flight call
//! has returned.
//!
//! The tools of a version live in a persistent hash map (`imbl`'s HAMT):
//! a new version shares every node but the few on the changed key's path,
//! so registering or unregistering costs O(log n) whatever the table's size
//! (copying an `IndexMap` made it O(n), and a million registrations
//! quadratic). Registration order is each tool's sequence number; the
//! ordered list is made from it once per version, when something asks
//! (definitions, the dialects, an unknown tool's message).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

use arc_swap::ArcSwap;
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
    required: json::Required,
    handler: Box<dyn Handler>,
    /// The compiled schema, made when the tool is registered in a full
    /// validation mode or when the registry switches to one.
    schema: OnceLock<Schema>,
    /// Its place in registration order: larger for later registrations.
    sequence: u64,
}

/// A tool as a key of the table: hashed and compared by its name, so that
/// the map holds one pointer per tool and copying a node of it copies no
/// name.
#[derive(Clone)]
struct Entry(Arc<Tool>);

impl std::hash::Hash for Entry {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.definition.name.as_str().hash(state);
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.0.definition.name == other.0.definition.name
    }
}

impl Eq for Entry {}

impl std::borrow::Borrow<str> for Entry {
    fn borrow(&self) -> &str {
        &self.0.definition.name
    }
}

type Tools = imbl::GenericHashMap<Entry, (), FxBuildHasher, imbl::shared_ptr::DefaultSharedPtr>;

/// One immutable version of the tool table.
#[derive(Default)]
struct Table {
    tools: Tools,
    /// The sequence number the next registration gets.
    next_sequence: u64,
    /// Counts the versions of this registry's table: each change makes a
    /// new version with a larger number.
    generation: u64,
    /// The tools in registration order, made on first request.
    order: OnceLock<Box<[Arc<Tool>]>>,
    /// The definitions as JSON, made on first request and kept until the
    /// table changes.
    definitions_json: OnceLock<Box<str>>,
    /// What the layers above keep per version (the dialects' definitions),
    /// dropped with the version.
    extensions: Extensions,
    /// How dispatch checks arguments (docs/VALIDATION.md).
    validation: ValidationMode,
}

impl Table {
    /// The next version: these tools, every cache empty.
    fn next(&self, tools: Tools, next_sequence: u64, validation: ValidationMode) -> Table {
        Table {
            tools,
            next_sequence,
            generation: self.generation + 1,
            order: OnceLock::new(),
            definitions_json: OnceLock::new(),
            extensions: Extensions::default(),
            validation,
        }
    }

    fn get(&self, name: &str) -> Option<&Arc<Tool>> {
        self.tools.get_key_value(name).map(|(entry, ())| &entry.0)
    }

    /// The tools in registration order.
    fn ordered(&self) -> &[Arc<Tool>] {
        self.order.get_or_init(|| {
            let mut tools: Vec<Arc<Tool>> = self.tools.keys().map(|entry| Arc::clone(&entry.0)).collect();
            tools.sort_unstable_by_key(|tool| tool.sequence);
            tools.into_boxed_slice()
        })
    }
}

/// How many kinds of value the layers above may keep per table version.
const EXTENSION_SLOTS: usize = 4;

/// Values the layers above the core keep with one version of the table
/// (the dialects' definitions and timings), one per type, made on first
/// use and dropped with the version. The core never names those types: a
/// slot holds whatever type first claimed it.
#[derive(Default)]
struct Extensions {
    slots: [OnceLock<Box<dyn std::any::Any + Send + Sync>>; EXTENSION_SLOTS],
}

impl Extensions {
    /// The value of type `T`, made with `T::default()` on first use; `None`
    /// when every slot holds another type.
    fn get<T: Default + Send + Sync + 'static>(&self) -> Option<&T> {
        self.slots.iter().find_map(|slot| slot.get_or_init(|| Box::new(T::default())).downcast_ref::<T>())
    }
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
        let names: Vec<&str> = table.ordered().iter().map(|tool| tool.definition.name.as_str()).collect();
        formatter.debug_struct("Registry").field("tools", &names).finish()
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
        if current.get(&definition.name).is_some() {
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
        let sequence = current.next_sequence;
        let tool = Tool { definition, required, handler: Box::new(handler), schema, sequence };
        tools.insert(Entry(Arc::new(tool)), ());
        self.table.store(Arc::new(current.next(tools, sequence + 1, current.validation)));
        drop(current);
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
            let mut tools = current.tools.clone();
            let Some((removed, ())) = tools.remove_with_key(name) else {
                return Err(unknown_tool(name, &current));
            };
            self.table.store(Arc::new(current.next(tools, current.next_sequence, current.validation)));
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
        self.table.load().ordered().iter().map(|tool| tool.definition.clone()).collect()
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

    /// One version of the table for the layers above: its definitions in
    /// registration order and the value of type `T` kept with this version
    /// (made with `T::default()` on first use, dropped when the table
    /// changes). The snapshot is held while `visit` runs. Should every
    /// extension slot hold another type, `visit` gets a fresh `T` that is
    /// not kept.
    pub(crate) fn with_table_extension<T: Default + Send + Sync + 'static, R>(
        &self,
        visit: impl FnOnce(&mut dyn Iterator<Item = &ToolDefinition>, &T) -> R,
    ) -> R {
        let table = self.table.load();
        let mut definitions = table.ordered().iter().map(|tool| &tool.definition);
        match table.extensions.get::<T>() {
            Some(extension) => visit(&mut definitions, extension),
            None => visit(&mut definitions, &T::default()),
        }
    }

    /// Counts the versions of the table: it grows with every register,
    /// unregister and change of validation mode, so a value made from one
    /// version can tell whether the table has changed since.
    pub fn generation(&self) -> u64 {
        self.table.load().generation
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
        let Some(tool) = table.get(call.name) else {
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
            for tool in current.ordered().iter().filter(|tool| tool.schema.get().is_none()) {
                if let Some(schema) = compile(&tool.definition)? {
                    compiled.push((tool, schema));
                }
            }
            for (tool, schema) in compiled {
                // A racing call may have set it first, from the same definition.
                let _ = tool.schema.set(schema);
            }
        }
        let next = current.next(current.tools.clone(), current.next_sequence, mode);
        if let Some(json) = current.definitions_json.get() {
            let _ = next.definitions_json.set(json.clone());
        }
        if let Some(order) = current.order.get() {
            let _ = next.order.set(order.clone());
        }
        self.table.store(Arc::new(next));
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
fn checked_definition(definition: &ToolDefinition) -> Result<json::Required, Error> {
    if definition.name.is_empty() {
        return Err(Error::InvalidInput("a tool needs a non-empty name".to_owned()));
    }
    let Some(parameters) = definition.parameters.as_deref().filter(|text| !text.is_empty()) else {
        return Ok(json::Required::default());
    };
    let required = json::required_fields(parameters).map_err(|detail| {
        Error::InvalidInput(format!("the parameters of tool \"{}\" are not valid JSON: {detail}", definition.name))
    })?;
    Ok(json::Required::new(required))
}

/// How many tool names an unknown-tool message lists before it stops.
const LISTED_TOOLS: usize = 32;

fn unknown_tool(name: &str, table: &Table) -> Error {
    let names: Vec<String> =
        table.ordered().iter().take(LISTED_TOOLS).map(|tool| format!("\"{}\"", tool.definition.name)).collect();
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
    for (index, tool) in table.ordered().iter().enumerate() {
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
