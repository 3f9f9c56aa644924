//! What a tool is made of and what passes through it: its definition, a call
//! from the model, and the handler's result or error.

use crate::environment::Environment;

/// A tool as the model sees it: a name, what it does, and the JSON Schema of
/// its parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolDefinition {
    /// The name the model calls the tool by. Must not be empty.
    pub name: String,
    /// What the tool does, written for the model. May be empty.
    pub description: String,
    /// The JSON Schema of the arguments, as JSON text. `None` (or empty text)
    /// means the tool declares no parameters.
    pub parameters: Option<String>,
}

impl ToolDefinition {
    /// A definition with a name and a description, and no parameters.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        ToolDefinition { name: name.into(), description: description.into(), parameters: None }
    }

    /// The same definition with this parameter schema.
    pub fn with_parameters(mut self, schema: impl ToString) -> Self {
        self.parameters = Some(schema.to_string());
        self
    }
}

/// One tool call from a model reply. Borrowed, so that dispatching from C or
/// from a parsed reply copies nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolCall<'a> {
    /// The model's id for the call; the library does not interpret it.
    pub id: &'a str,
    /// The name of the tool to run.
    pub name: &'a str,
    /// The model's raw JSON arguments. Checked to be UTF-8 by dispatch.
    pub arguments: &'a [u8],
}

impl<'a> ToolCall<'a> {
    /// A call of the named tool with these JSON arguments and no id.
    pub fn new(name: &'a str, arguments: &'a str) -> Self {
        ToolCall { id: "", name, arguments: arguments.as_bytes() }
    }

    /// The same call with this id.
    pub fn with_id(mut self, id: &'a str) -> Self {
        self.id = id;
        self
    }
}

/// What a handler returns on success: the text the model will read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolResult {
    /// The tool's output, shown to the model.
    pub content: String,
    /// What REPAIR validation changed in the arguments before the handler
    /// ran (docs/VALIDATION.md); dispatch fills it, handlers leave it empty.
    pub repairs: Vec<crate::validation::Repair>,
}

impl ToolResult {
    /// A result holding this text.
    pub fn new(content: impl Into<String>) -> Self {
        ToolResult { content: content.into(), repairs: Vec::new() }
    }
}

/// How a handler reports that it did not succeed.
///
/// Any `std::error::Error` converts into [`ToolError::Failed`], so a handler
/// can use `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// The tool failed; the text is shown to the model unchanged.
    Failed(String),
    /// The handler panicked or threw in a language whose panics cannot travel
    /// as Rust unwinds (C, C++, Go, Zig); the text is the panic value.
    Panicked(String),
}

impl ToolError {
    /// A failure with this text, shown to the model unchanged.
    pub fn failed(message: impl Into<String>) -> Self {
        ToolError::Failed(message.into())
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// What every handler returns.
pub type HandlerResult = Result<ToolResult, ToolError>;

/// A tool's implementation. Closures of the right shape are handlers; types
/// that own foreign resources (a C function and its userdata) implement it
/// directly, so that their `Drop` releases those resources.
pub trait Handler: Send + Sync + 'static {
    /// Runs the tool on checked arguments (`{}` for empty ones).
    fn call(&self, arguments: &str, environment: &Environment<'_>) -> HandlerResult;
}

impl<F> Handler for F
where
    F: Fn(&str, &Environment<'_>) -> HandlerResult + Send + Sync + 'static,
{
    fn call(&self, arguments: &str, environment: &Environment<'_>) -> HandlerResult {
        self(arguments, environment)
    }
}
