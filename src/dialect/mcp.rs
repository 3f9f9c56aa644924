//! MCP: the definitions as a `ListToolsResult`. Calls reach the registry
//! through the MCP server, not through `respond`.

use std::borrow::Cow;

use super::{object_parameters, push_description, push_string, Dialect, Parameters};
use crate::error::Error;
use crate::tool::ToolDefinition;

/// `{"name","description","inputSchema"}`, inside `{"tools":[…]}`.
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition) -> Result<(), Error> {
    let schema = match object_parameters(definition, Dialect::Mcp)? {
        Parameters::None => Cow::Borrowed(r#"{"type":"object","properties":{}}"#),
        Parameters::Text(text) => text,
    };
    out.push_str("{\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    out.push_str(",\"inputSchema\":");
    out.push_str(&schema);
    out.push('}');
    Ok(())
}
