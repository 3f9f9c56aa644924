//! Provider dialects: the edge between a model's API and the registry.
//!
//! A program talks to one provider. This module writes the registry's
//! definitions in that provider's `tools` format ([`Registry::definitions_for`]),
//! reads the tool calls out of the provider's reply ([`tool_calls_parse`]),
//! and runs them and writes the results back in the provider's format
//! ([`Registry::respond`]). Five dialects, numbered forever (SPEC section 4):
//! [`Dialect`]. Every rule is written down in docs/DIALECTS.md.
//!
//! One file per provider holds its reader and its writers; `strict.rs` holds
//! OpenAI's and Anthropic's strict-mode rewrite and its undo, `gemini.rs`
//! the translation to Gemini's OpenAPI subset, `pool.rs` the threads that
//! run the calls of one reply at once.

mod anthropic;
mod gemini;
mod mcp;
mod neutral;
mod openai_chat;
mod openai_responses;
mod pool;
mod reply;
mod strict;

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::environment::Environment;
use crate::error::Error;
use crate::json::compact;
use crate::registry::Registry;
use crate::tool::{ToolCall, ToolDefinition, ToolResult};

/// Flag: strict mode, for OpenAI (Chat Completions and Responses) and
/// Anthropic. `definitions_for` rewrites every schema as strict mode demands
/// (every property required, optional ones nullable, no additional
/// properties) and marks the tool strict; `respond` drops a `null` the model
/// sent for a property the original schema did not require, so the handler
/// sees what it would have seen without strict mode.
pub const STRICT: u32 = 1;

/// Flag for `respond`: run the calls of one reply one after the other, in
/// order, on the calling thread, instead of at once.
pub const RESPOND_SEQUENTIAL: u32 = 2;

const KNOWN_FLAGS: u32 = STRICT | RESPOND_SEQUENTIAL;

/// The largest reply `tool_calls_parse` and `respond` read: 64 MiB.
pub const MAX_REPLY_LEN: usize = 64 << 20;

/// A provider's wire format. The numbers are the C constants
/// `AIKIDO_DIALECT_*` and never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Dialect {
    /// The library's own shapes: `definitions_json`, `[{"id","name","arguments"}]`
    /// in, `[{"id","name","content"|"error"}]` out.
    Neutral = 0,
    /// OpenAI Chat Completions.
    OpenAiChat = 1,
    /// OpenAI Responses.
    OpenAiResponses = 2,
    /// Anthropic Messages.
    Anthropic = 3,
    /// Google Gemini (`generateContent`).
    Gemini = 4,
    /// Model Context Protocol: definitions only (a `ListToolsResult`).
    Mcp = 5,
}

impl Dialect {
    /// Every dialect, in numeric order.
    pub const ALL: [Dialect; 6] = [
        Dialect::Neutral,
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// The dialect with this number, if there is one.
    pub fn from_code(code: u32) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|dialect| *dialect as u32 == code)
    }

    /// The dialect with this number, or the error a caller gets for another.
    pub fn from_code_checked(code: u32) -> Result<Dialect, Error> {
        Dialect::from_code(code).ok_or_else(|| {
            Error::InvalidInput(format!("unknown dialect {code} (the dialects are 0 to {})", Dialect::ALL.len() - 1))
        })
    }

    /// The provider's API, as messages name it.
    pub fn label(self) -> &'static str {
        match self {
            Dialect::Neutral => "neutral",
            Dialect::OpenAiChat => "OpenAI Chat Completions",
            Dialect::OpenAiResponses => "OpenAI Responses",
            Dialect::Anthropic => "Anthropic Messages",
            Dialect::Gemini => "Gemini",
            Dialect::Mcp => "MCP",
        }
    }

    /// Whether strict mode changes this dialect's definitions.
    fn has_strict(self) -> bool {
        matches!(self, Dialect::OpenAiChat | Dialect::OpenAiResponses | Dialect::Anthropic)
    }
}

/// One tool call read from a model reply, in the neutral form.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedCall {
    /// The provider's id for the call (`tool_call_id`, `call_id`,
    /// `tool_use_id`, Gemini's optional `id`); empty when it gave none.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON text: OpenAI's `arguments` string as sent (it
    /// may be broken JSON), Anthropic's `input` and Gemini's `args` as the
    /// compact text of the object sent (number spelling and key order kept).
    pub arguments: String,
}

/// A call borrowed from the reply's text where it can be.
#[derive(Debug, Clone)]
pub(crate) struct Call<'a> {
    pub(crate) id: Cow<'a, str>,
    pub(crate) name: Cow<'a, str>,
    pub(crate) arguments: Cow<'a, str>,
    /// Gemini: whether the reply carried an id (an empty one counts).
    pub(crate) has_id: bool,
}

impl Call<'_> {
    fn to_parsed(&self) -> ParsedCall {
        ParsedCall { id: self.id.to_string(), name: self.name.to_string(), arguments: self.arguments.to_string() }
    }
}

/// One dialect's definitions (or the refusal) for one table.
type Slot = OnceLock<Result<Box<str>, Error>>;

/// What `definitions_for` made for one table, per dialect and strictness,
/// and the schemas strict mode's undo reads. Kept in the extension slot the
/// registry offers each version of its table (`with_table_extension`), and
/// dropped with that version when the table changes: the registry itself
/// knows nothing of dialects.
#[derive(Default)]
pub(crate) struct Cache {
    definitions: [[Slot; 2]; 6],
    schemas: OnceLock<Arc<FxHashMap<Box<str>, Option<serde_json::Value>>>>,
    /// How long each tool's handler took lately, for `respond`'s choice
    /// between the pool and the calling thread ([`QUICK_NS`]).
    timings: OnceLock<Arc<Timings>>,
}

/// Per tool name: a decaying maximum of its recent call times, in ns;
/// [`UNTIMED`] until its first call through `respond`.
type Timings = FxHashMap<Box<str>, AtomicU64>;

/// A tool not timed yet.
const UNTIMED: u64 = u64::MAX;

/// Calls quicker than this (each, lately) run one after another on the
/// calling thread: waking a helper thread and waiting for it costs more
/// (about 10 µs on a loaded 2-core machine against 1 µs for four such
/// calls in a row). Blocking handlers (I/O, a sleep) take far longer, so
/// they still overlap.
const QUICK_NS: u64 = 20_000;

/// Folds one call's time into a tool's timing: the new time when it is
/// longer, else the old one less an eighth, so one quick call does not
/// make a slow tool look quick.
fn record_timing(timing: &AtomicU64, nanos: u64) {
    let _ = timing
        .fetch_update(Relaxed, Relaxed, |old| Some(if old == UNTIMED { nanos } else { nanos.max(old - old / 8) }));
}

/// Reads the tool calls of a reply in `dialect`, as the neutral list.
///
/// Accepts the provider's whole response body or just its relevant part
/// (the assistant message, the `output` array, the `content` array, the
/// candidate's `content`). A reply with no calls gives an empty list; a reply
/// that cannot be read (not JSON, another dialect's, too large or too deep)
/// gives [`Error::InvalidInput`] saying where it failed.
pub fn tool_calls_parse(dialect: Dialect, reply: &str) -> Result<Vec<ParsedCall>, Error> {
    Ok(read_calls(dialect, reply)?.iter().map(Call::to_parsed).collect())
}

/// [`tool_calls_parse`] written as the neutral JSON list
/// `[{"id":…,"name":…,"arguments":…}]` (arguments as a JSON string).
pub fn tool_calls_parse_json(dialect: Dialect, reply: &str) -> Result<String, Error> {
    let calls = read_calls(dialect, reply)?;
    let mut out = String::with_capacity(reply.len() / 2 + 2);
    out.push('[');
    for (index, call) in calls.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        push_string(&mut out, &call.id);
        out.push_str(",\"name\":");
        push_string(&mut out, &call.name);
        out.push_str(",\"arguments\":");
        push_string(&mut out, &call.arguments);
        out.push('}');
    }
    out.push(']');
    Ok(out)
}

fn read_calls(dialect: Dialect, reply: &str) -> Result<Vec<Call<'_>>, Error> {
    if reply.len() > MAX_REPLY_LEN {
        return Err(Error::InvalidInput(format!(
            "the {} reply is {} bytes, more than the {} bytes the library reads",
            dialect.label(),
            reply.len(),
            MAX_REPLY_LEN
        )));
    }
    match dialect {
        Dialect::Neutral => neutral::read(reply),
        Dialect::OpenAiChat => openai_chat::read(reply),
        Dialect::OpenAiResponses => openai_responses::read(reply),
        Dialect::Anthropic => anthropic::read(reply),
        Dialect::Gemini => gemini::read(reply),
        Dialect::Mcp => Err(Error::InvalidInput(
            "the MCP dialect has no model replies to read: an MCP client calls tools through the MCP server".to_owned(),
        )),
    }
}

fn check_flags(flags: u32) -> Result<(), Error> {
    if flags & !KNOWN_FLAGS != 0 {
        return Err(Error::InvalidInput(format!(
            "unknown flags {:#x} (the flags are AIKIDO_STRICT = 1 and AIKIDO_RESPOND_SEQUENTIAL = 2)",
            flags & !KNOWN_FLAGS
        )));
    }
    Ok(())
}

impl Registry {
    /// Every definition, in registration order, in `dialect`'s `tools`
    /// format (SPEC section 4), strict when `flags` holds [`STRICT`]. Made
    /// once per change of the table, like [`Registry::definitions_json`].
    ///
    /// A tool whose name the dialect cannot carry, or whose schema it cannot
    /// express, fails the whole call with [`Error::InvalidInput`] naming the
    /// tool and the rule; nothing partial is returned.
    pub fn definitions_for(&self, dialect: Dialect, flags: u32) -> Result<String, Error> {
        self.with_definitions_for(dialect, flags, str::to_owned)
    }

    /// [`Registry::definitions_for`], borrowed by `visit` without a copy.
    pub fn with_definitions_for<R>(
        &self,
        dialect: Dialect,
        flags: u32,
        visit: impl FnOnce(&str) -> R,
    ) -> Result<R, Error> {
        check_flags(flags)?;
        if dialect == Dialect::Neutral {
            return Ok(self.with_definitions_json(visit));
        }
        let strict = dialect.has_strict() && flags & STRICT != 0;
        self.with_table_extension(|tools, cache: &Cache| {
            let slot = &cache.definitions[dialect as usize][strict as usize];
            match slot.get_or_init(|| write_definitions(dialect, strict, tools)) {
                Ok(json) => Ok(visit(json)),
                Err(error) => Err(error.clone()),
            }
        })
    }

    /// Runs the tool calls of a model reply and returns the JSON array the
    /// program appends to its next request, in `dialect`'s format (SPEC
    /// section 4), results in call order.
    ///
    /// Every call goes through [`Registry::dispatch`] with `environment`
    /// (one turn id for all of them). The calls run at once on a bounded set
    /// of threads (the calling thread among them) unless `flags` holds
    /// [`RESPOND_SEQUENTIAL`], or every tool called answered within 20 µs
    /// lately (then they run in order on the calling thread, which is
    /// quicker than waking a thread). Each per-call failure (unknown tool, invalid
    /// arguments, a handler's error or panic, cancellation) becomes an error
    /// result with the text dispatch gives, flagged where the dialect can
    /// (`is_error`, Gemini's `"error"`). With [`STRICT`], a `null` sent for a
    /// property the original schema does not require is dropped first.
    ///
    /// Fails only when the reply cannot be read ([`Error::InvalidInput`]).
    pub fn respond(
        &self,
        dialect: Dialect,
        reply: &str,
        environment: &Environment<'_>,
        flags: u32,
    ) -> Result<String, Error> {
        check_flags(flags)?;
        let calls = read_calls(dialect, reply)?;
        let outcomes = self.run_calls(&calls, environment, flags);
        Ok(write_results(dialect, &calls, &outcomes))
    }

    fn run_calls(
        &self,
        calls: &[Call<'_>],
        environment: &Environment<'_>,
        flags: u32,
    ) -> Vec<Result<ToolResult, Error>> {
        let schemas = (flags & STRICT != 0).then(|| self.strict_schemas());
        let timings = self.timings();
        let run = |call: &Call<'_>| -> Result<ToolResult, Error> {
            let started = Instant::now();
            let undone = schemas.as_ref().and_then(|schemas| {
                let schema = schemas.get(call.name.as_ref())?.as_ref()?;
                strict::undo(&call.arguments, schema)
            });
            let arguments = undone.as_deref().unwrap_or(&call.arguments);
            let tool_call = ToolCall { id: &call.id, name: &call.name, arguments: arguments.as_bytes() };
            let outcome = self.dispatch(&tool_call, environment);
            if let Some(timing) = timings.get(call.name.as_ref()) {
                record_timing(timing, u64::try_from(started.elapsed().as_nanos()).unwrap_or(UNTIMED - 1));
            }
            outcome
        };
        // An unknown name fails at once, so it counts as quick.
        let quick = calls
            .iter()
            .all(|call| timings.get(call.name.as_ref()).is_none_or(|timing| timing.load(Relaxed) < QUICK_NS));
        let slots: Vec<OnceLock<Result<ToolResult, Error>>> = calls.iter().map(|_| OnceLock::new()).collect();
        let job = |index: usize| {
            let _ = slots[index].set(run(&calls[index]));
        };
        if flags & RESPOND_SEQUENTIAL != 0 || quick {
            (0..calls.len()).for_each(job);
        } else {
            pool::run(calls.len(), &job);
        }
        slots
            .into_iter()
            .zip(calls)
            .map(|(slot, call)| {
                slot.into_inner().unwrap_or_else(|| {
                    Err(Error::ToolPanicked {
                        origin: crate::error::PanicOrigin::Tool(call.name.to_string()),
                        message: "the call did not finish".to_owned(),
                    })
                })
            })
            .collect()
    }

    /// The table's [`Timings`], made on first use; an Arc copy keeps them
    /// while the calls run even if the table changes meanwhile.
    fn timings(&self) -> Arc<Timings> {
        self.with_table_extension(|tools, cache: &Cache| {
            Arc::clone(cache.timings.get_or_init(|| {
                Arc::new(tools.map(|definition| (definition.name.as_str().into(), AtomicU64::new(UNTIMED))).collect())
            }))
        })
    }

    /// Every tool's schema, parsed, for strict mode's undo; made once per table.
    fn strict_schemas(&self) -> Arc<FxHashMap<Box<str>, Option<serde_json::Value>>> {
        // The map is borrowed from the table's cache; an Arc copy keeps it
        // while the calls run even if the table changes meanwhile.
        self.with_table_extension(|tools, cache: &Cache| {
            let map = cache.schemas.get_or_init(|| {
                Arc::new(
                    tools
                        .map(|definition| {
                            let schema = definition
                                .parameters
                                .as_deref()
                                .and_then(|text| crate::json::parse_value(text.as_bytes()).ok());
                            (definition.name.as_str().into(), schema)
                        })
                        .collect(),
                )
            });
            Arc::clone(map)
        })
    }
}

/// The definitions of every tool in `dialect`, or the first refusal.
fn write_definitions(
    dialect: Dialect,
    strict: bool,
    tools: &mut dyn Iterator<Item = &ToolDefinition>,
) -> Result<Box<str>, Error> {
    let mut out = String::from(match dialect {
        Dialect::Gemini => "[{\"functionDeclarations\":[",
        Dialect::Mcp => "{\"tools\":[",
        _ => "[",
    });
    let mut count = 0;
    for definition in tools {
        check_name(dialect, &definition.name)?;
        if count > 0 {
            out.push(',');
        }
        count += 1;
        match dialect {
            Dialect::Neutral => unreachable!("neutral definitions are the registry's own"),
            Dialect::OpenAiChat => openai_chat::write_definition(&mut out, definition, strict)?,
            Dialect::OpenAiResponses => openai_responses::write_definition(&mut out, definition, strict)?,
            Dialect::Anthropic => anthropic::write_definition(&mut out, definition, strict)?,
            Dialect::Gemini => gemini::write_definition(&mut out, definition)?,
            Dialect::Mcp => mcp::write_definition(&mut out, definition)?,
        }
    }
    match dialect {
        Dialect::Gemini if count == 0 => out = "[]".to_owned(),
        Dialect::Gemini => out.push_str("]}]"),
        Dialect::Mcp => out.push_str("]}"),
        _ => out.push(']'),
    }
    Ok(out.into_boxed_str())
}

/// The tool-name rule of each dialect, as the provider documents it.
fn check_name(dialect: Dialect, name: &str) -> Result<(), Error> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let (ok, rule) = match dialect {
        Dialect::Neutral => (true, ""),
        Dialect::OpenAiChat | Dialect::OpenAiResponses => {
            (name.len() <= 64 && name.chars().all(plain), "its name must match ^[a-zA-Z0-9_-]{1,64}$")
        }
        Dialect::Anthropic => {
            (name.len() <= 128 && name.chars().all(plain), "its name must match ^[a-zA-Z0-9_-]{1,128}$")
        }
        Dialect::Gemini => (
            name.len() <= 64
                && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| plain(c) || c == '.' || c == ':'),
            "its name must start with a letter or '_' and hold only letters, digits, '_', '.', ':' and '-', \
             at most 64 characters (^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$)",
        ),
        Dialect::Mcp => (
            name.len() <= 128 && name.chars().all(|c| plain(c) || c == '.'),
            "its name must match ^[A-Za-z0-9_.-]{1,128}$",
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!("tool \"{name}\" cannot be written for {}: {rule}", dialect.label())))
    }
}

/// The tool's parameters as an object schema: the caller's text, compact,
/// when it can go out as written, else the parsed value. `None` when the
/// tool has none.
pub(crate) enum Parameters<'a> {
    /// No parameters were given.
    None,
    /// An object schema with `"type":"object"`, compact text.
    Text(Cow<'a, str>),
}

/// The parameters of a tool that every provider but Gemini takes as they
/// are: a JSON object whose `type`, if any, is `"object"`. Without a type,
/// `"type":"object"` is put first.
pub(crate) fn object_parameters<'a>(definition: &'a ToolDefinition, dialect: Dialect) -> Result<Parameters<'a>, Error> {
    let Some(text) = definition.parameters.as_deref().filter(|text| !text.trim().is_empty()) else {
        return Ok(Parameters::None);
    };
    let value = parse_schema(definition, dialect)?;
    let compact = compact(text);
    match value.get("type") {
        Some(serde_json::Value::String(kind)) if kind == "object" => Ok(Parameters::Text(compact)),
        None => {
            let rest = &compact[1..];
            let mut out = String::with_capacity(compact.len() + 16);
            out.push_str("{\"type\":\"object\"");
            if rest != "}" {
                out.push(',');
            }
            out.push_str(rest);
            Ok(Parameters::Text(Cow::Owned(out)))
        }
        Some(other) => Err(Error::InvalidInput(format!(
            "tool \"{}\" cannot be written for {}: its parameters must be an object schema (\"type\":\"object\"), \
             not \"type\":{other}",
            definition.name,
            dialect.label()
        ))),
    }
}

/// A tool's schema as OpenAI, Anthropic and MCP take it: the strict
/// rewrite when `strict` is asked, else the object schema, and
/// `{"type":"object","properties":{}}` for a tool that declares none.
pub(crate) fn object_schema(
    definition: &ToolDefinition,
    dialect: Dialect,
    strict: bool,
) -> Result<Cow<'_, str>, Error> {
    if strict {
        return strict::parameters(definition, dialect);
    }
    Ok(match object_parameters(definition, dialect)? {
        Parameters::None => Cow::Borrowed(r#"{"type":"object","properties":{}}"#),
        Parameters::Text(text) => text,
    })
}

/// The tool's parameters parsed, refused unless they are a JSON object.
pub(crate) fn parse_schema(definition: &ToolDefinition, dialect: Dialect) -> Result<serde_json::Value, Error> {
    let text = definition.parameters.as_deref().unwrap_or("{}");
    let text = if text.trim().is_empty() { "{}" } else { text };
    let value: serde_json::Value = crate::json::parse_value(text.as_bytes()).map_err(|error| {
        Error::InvalidInput(format!(
            "tool \"{}\" cannot be written for {}: its parameters cannot be read: {error}",
            definition.name,
            dialect.label()
        ))
    })?;
    if !value.is_object() {
        return Err(Error::InvalidInput(format!(
            "tool \"{}\" cannot be written for {}: its parameters must be a JSON Schema object, not {}",
            definition.name,
            dialect.label(),
            reply::kind_of(&value)
        )));
    }
    Ok(value)
}

/// Appends `text` as a JSON string (the one escaper, in src/json.rs).
pub(crate) use crate::json::push_string;

/// Writes a definition's `"description":…,` member when it has one.
pub(crate) fn push_description(out: &mut String, definition: &ToolDefinition, key: &str) {
    if !definition.description.is_empty() {
        out.push(',');
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        push_string(out, &definition.description);
    }
}

/// The result array for `calls` and their outcomes, in `dialect`'s shape.
fn write_results(dialect: Dialect, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) -> String {
    let size: usize = calls.len() * 64
        + outcomes
            .iter()
            .map(|outcome| match outcome {
                Ok(result) => result.content.len(),
                Err(_) => 128,
            })
            .sum::<usize>();
    let mut out = String::with_capacity(size + 64);
    match dialect {
        Dialect::Neutral => neutral::write_results(&mut out, calls, outcomes),
        Dialect::OpenAiChat => openai_chat::write_results(&mut out, calls, outcomes),
        Dialect::OpenAiResponses => openai_responses::write_results(&mut out, calls, outcomes),
        Dialect::Anthropic => anthropic::write_results(&mut out, calls, outcomes),
        Dialect::Gemini => gemini::write_results(&mut out, calls, outcomes),
        Dialect::Mcp => unreachable!("read_calls refuses MCP replies"),
    }
    out
}

/// The text a result carries: the content, or the error's message.
pub(crate) fn outcome_text(outcome: &Result<ToolResult, Error>) -> Cow<'_, str> {
    match outcome {
        Ok(result) => Cow::Borrowed(&result.content),
        Err(error) => Cow::Owned(error.to_string()),
    }
}

#[cfg(test)]
mod tests;

/// One tool as an MCP `Tool` object, `{"name","description","inputSchema"}`:
/// the item [`Registry::definitions_for`] writes for [`Dialect::Mcp`], and
/// the one the MCP server's `tools/list` shows, so the two never differ.
/// Refused (name, schema) exactly as there.
#[cfg(feature = "mcp")]
pub(crate) fn mcp_tool(definition: &ToolDefinition) -> Result<String, Error> {
    check_name(Dialect::Mcp, &definition.name)?;
    let mut out = String::new();
    mcp::write_definition(&mut out, definition)?;
    Ok(out)
}
