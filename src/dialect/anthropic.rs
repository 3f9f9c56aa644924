//! Anthropic Messages: tools with `input_schema`, `tool_use` blocks of
//! `content` in, one user message of `tool_result` blocks back.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::{self, Shape};
use super::{object_parameters, outcome_text, push_description, push_string, strict, Call, Dialect, Parameters};
use crate::error::Error;
use crate::tool::{ToolDefinition, ToolResult};

const DIALECT: Dialect = Dialect::Anthropic;

/// `{"name","description","input_schema"[,"strict":true]}`
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition, strict: bool) -> Result<(), Error> {
    let schema = if strict {
        strict::parameters(definition, DIALECT)?
    } else {
        match object_parameters(definition, DIALECT)? {
            Parameters::None => Cow::Borrowed(r#"{"type":"object","properties":{}}"#),
            Parameters::Text(text) => text,
        }
    };
    out.push_str("{\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    out.push_str(",\"input_schema\":");
    out.push_str(&schema);
    if strict {
        out.push_str(",\"strict\":true");
    }
    out.push('}');
    Ok(())
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(borrow, default, rename = "type")]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
}

/// The `tool_use` blocks of a message or of its `content` array; text,
/// thinking and every other block are passed over.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    let list = match reply::top(DIALECT, reply)? {
        Shape::Array(list) => list,
        Shape::Object(top) => {
            if reply::looks_like(&top).is_some_and(|(other, _)| other != DIALECT) || top.content.is_none() {
                return Err(reply::foreign(
                    DIALECT,
                    &top,
                    "a message (with a \"content\" array) or its \"content\" array",
                ));
            }
            match top.content {
                // A message whose content is a plain string holds no tool use.
                Some(content) if content.get().starts_with('"') => return Ok(Vec::new()),
                Some(content) => content.get(),
                None => unreachable!("checked above"),
            }
        }
    };
    let blocks: Vec<Block<'_>> = reply::read(DIALECT, reply, list, "content")?;
    let mut calls = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        let Some(kind) = block.kind else {
            return Err(reply::invalid(DIALECT, &format!("content[{index}] has no \"type\"")));
        };
        match kind.get() {
            "\"tool_use\"" => {}
            "\"function\"" | "\"function_call\"" => {
                return Err(reply::invalid(
                    DIALECT,
                    &format!("content[{index}] is of type {}, an OpenAI item, not an Anthropic block", kind.get()),
                ))
            }
            _ => continue,
        }
        let (Some(id), Some(name)) = (block.id, block.name) else {
            return Err(reply::invalid(
                DIALECT,
                &format!("content[{index}] (tool_use) needs an \"id\" and a \"name\""),
            ));
        };
        calls.push(Call {
            id: reply::string_value(DIALECT, reply, id, &format!("content[{index}].id"))?,
            name: reply::string_value(DIALECT, reply, name, &format!("content[{index}].name"))?,
            arguments: reply::arguments_text(block.input),
            has_id: true,
        });
    }
    Ok(calls)
}

/// `[{"role":"user","content":[{"type":"tool_result","tool_use_id","content"[,"is_error":true]}…]}]`,
/// or `[]` for a reply without calls.
pub(super) fn write_results(out: &mut String, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) {
    if calls.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push_str("[{\"role\":\"user\",\"content\":[");
    for (index, (call, outcome)) in calls.iter().zip(outcomes).enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"type\":\"tool_result\",\"tool_use_id\":");
        push_string(out, &call.id);
        out.push_str(",\"content\":");
        push_string(out, &outcome_text(outcome));
        if outcome.is_err() {
            out.push_str(",\"is_error\":true");
        }
        out.push('}');
    }
    out.push_str("]}]");
}
