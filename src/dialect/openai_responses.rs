//! OpenAI Responses: function tools, `function_call` items of `output` in,
//! one `function_call_output` item per call back (matched on `call_id`).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::{self, Shape};
use super::{object_schema, outcome_text, push_description, push_string, Call, Dialect};
use crate::error::Error;
use crate::tool::{ToolDefinition, ToolResult};

const DIALECT: Dialect = Dialect::OpenAiResponses;

/// `{"type":"function","name","description","parameters","strict":false|true}`
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition, strict: bool) -> Result<(), Error> {
    let parameters = object_schema(definition, DIALECT, strict)?;
    out.push_str("{\"type\":\"function\",\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    out.push_str(",\"parameters\":");
    out.push_str(&parameters);
    out.push_str(if strict { ",\"strict\":true}" } else { ",\"strict\":false}" });
    Ok(())
}

#[derive(Deserialize)]
struct Item<'a> {
    #[serde(borrow, default, rename = "type")]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    call_id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// The `function_call` items of a response body or of its `output` array;
/// reasoning, messages and every other item are passed over.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    let (list, path) = match reply::top(DIALECT, reply)? {
        Shape::Array(list) => (list, "output"),
        Shape::Object(top) => match top.output {
            Some(output) if top.choices.is_none() && top.candidates.is_none() => (output.get(), "output"),
            _ => return Err(reply::foreign(DIALECT, &top, "a response (with \"output\") or its \"output\" array")),
        },
    };
    let items: Vec<Item<'_>> = reply::read(DIALECT, reply, list, path)?;
    let mut calls = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = || format!("{path}[{index}]");
        let Some(kind) = item.kind else {
            return Err(reply::invalid(DIALECT, &format!("{} has no \"type\"", at())));
        };
        match kind.get() {
            "\"function_call\"" => {}
            "\"tool_use\"" | "\"function\"" => {
                return Err(reply::invalid(
                    DIALECT,
                    &format!("{} is of type {}, which Responses output items never are", at(), kind.get()),
                ))
            }
            _ => continue,
        }
        let Some(call_id) = item.call_id else {
            return Err(reply::invalid(DIALECT, &format!("{} (function_call) has no \"call_id\"", at())));
        };
        let Some(name) = item.name else {
            return Err(reply::invalid(DIALECT, &format!("{} (function_call) has no \"name\"", at())));
        };
        let arguments = match item.arguments {
            None => Cow::Borrowed(""),
            Some(raw) if raw.get().starts_with('"') => {
                reply::string_value(DIALECT, reply, raw, || format!("{}.arguments", at()))?
            }
            Some(raw) => reply::arguments_text(Some(raw)),
        };
        calls.push(Call {
            id: reply::string_value(DIALECT, reply, call_id, || format!("{}.call_id", at()))?,
            name: reply::string_value(DIALECT, reply, name, || format!("{}.name", at()))?,
            arguments,
            has_id: true,
        });
    }
    Ok(calls)
}

/// One `{"type":"function_call_output","call_id","output"}` per call.
pub(super) fn write_results(out: &mut String, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) {
    out.push('[');
    for (index, (call, outcome)) in calls.iter().zip(outcomes).enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"type\":\"function_call_output\",\"call_id\":");
        push_string(out, &call.id);
        out.push_str(",\"output\":");
        push_string(out, &outcome_text(outcome));
        out.push('}');
    }
    out.push(']');
}
