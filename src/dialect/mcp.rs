//! MCP: the definitions as a `ListToolsResult`. Calls reach the registry
//! through the MCP server, not through `respond`.

use super::{object_schema, push_description, push_string, Dialect};
use crate::error::Error;
use crate::tool::ToolDefinition;

/// `{"name","description","inputSchema"}`, inside `{"tools":[…]}`.
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition) -> Result<(), Error> {
    let schema = object_schema(definition, Dialect::Mcp, false)?;
    out.push_str("{\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    out.push_str(",\"inputSchema\":");
    out.push_str(&schema);
    out.push('}');
    Ok(())
}
