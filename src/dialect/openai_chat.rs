//! OpenAI Chat Completions: `tools` entries, `message.tool_calls` in, one
//! `role: "tool"` message per call back.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::{self, Shape};
use super::{object_schema, outcome_text, push_description, push_string, Call, Dialect};
use crate::error::Error;
use crate::tool::{ToolDefinition, ToolResult};

const DIALECT: Dialect = Dialect::OpenAiChat;

/// `{"type":"function","function":{"name","description","parameters"[,"strict":true]}}`
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition, strict: bool) -> Result<(), Error> {
    let parameters = object_schema(definition, DIALECT, strict)?;
    out.push_str("{\"type\":\"function\",\"function\":{\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    out.push_str(",\"parameters\":");
    out.push_str(&parameters);
    if strict {
        out.push_str(",\"strict\":true");
    }
    out.push_str("}}");
    Ok(())
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow, default)]
    message: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ToolCallItem<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    function: Option<Function<'a>>,
    #[serde(borrow, default, rename = "type")]
    kind: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Function<'a> {
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// The calls of a response body, an assistant message, or a `tool_calls` array.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    const EXPECTED: &str = "a chat completion (with \"choices\"), an assistant message or its \"tool_calls\" array";
    let (list, path) = match reply::top(DIALECT, reply)? {
        Shape::Array(list) => (list, "tool_calls".to_owned()),
        Shape::Object(top) => {
            let (message, path) = if let Some(choices) = top.choices {
                let choices: Vec<Choice<'_>> = reply::read(DIALECT, reply, choices.get(), "choices")?;
                let Some(first) = choices.first() else {
                    return Err(reply::invalid(DIALECT, "\"choices\" is empty"));
                };
                let Some(message) = first.message else {
                    return Err(reply::invalid(DIALECT, "choices[0] has no \"message\""));
                };
                let message: reply::Top<'_> = reply::read(DIALECT, reply, message.get(), "choices[0].message")?;
                (message, "choices[0].message.tool_calls")
            } else if top.kind.is_none()
                && top.output.is_none()
                && top.candidates.is_none()
                && top.parts.is_none()
                && (top.role.is_some() || top.tool_calls.is_some())
            {
                (top, "tool_calls")
            } else {
                return Err(reply::foreign(DIALECT, &top, EXPECTED));
            };
            match message.tool_calls {
                None => return Ok(Vec::new()),
                Some(list) => (list.get(), path.to_owned()),
            }
        }
    };
    let items: Vec<ToolCallItem<'_>> = reply::read(DIALECT, reply, list, &path)?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let at = || format!("{path}[{index}]");
            let Some(function) = &item.function else {
                let kind = item.kind.map_or("none", RawValue::get);
                return Err(reply::invalid(
                    DIALECT,
                    &format!("{} has no \"function\" (type {kind}); only function tool calls are read", at()),
                ));
            };
            let id = match item.id {
                Some(id) => reply::string_value(DIALECT, reply, id, || format!("{}.id", at()))?,
                None => Cow::Borrowed(""),
            };
            let Some(name) = function.name else {
                return Err(reply::invalid(DIALECT, &format!("{}.function has no \"name\"", at())));
            };
            let name = reply::string_value(DIALECT, reply, name, || format!("{}.function.name", at()))?;
            let arguments = match function.arguments {
                None => Cow::Borrowed(""),
                // The documented form: the arguments' JSON text as a string,
                // passed on as it is, broken or not (dispatch judges it).
                Some(raw) if raw.get().starts_with('"') => {
                    reply::string_value(DIALECT, reply, raw, || format!("{}.function.arguments", at()))?
                }
                // Some servers send the object itself.
                Some(raw) => reply::arguments_text(Some(raw)),
            };
            Ok(Call { id, name, arguments, has_id: item.id.is_some() })
        })
        .collect()
}

/// One `{"role":"tool","tool_call_id","content"}` per call.
pub(super) fn write_results(out: &mut String, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) {
    out.push('[');
    for (index, (call, outcome)) in calls.iter().zip(outcomes).enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"role\":\"tool\",\"tool_call_id\":");
        push_string(out, &call.id);
        out.push_str(",\"content\":");
        push_string(out, &outcome_text(outcome));
        out.push('}');
    }
    out.push(']');
}
