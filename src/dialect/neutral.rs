//! The library's own shapes: `[{"id","name","arguments"}]` in,
//! `[{"id","name","content"}]` (or `"error"`) out.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::{self, Shape};
use super::{push_string, Call, Dialect};
use crate::error::Error;
use crate::tool::ToolResult;

const DIALECT: Dialect = Dialect::Neutral;

#[derive(Deserialize)]
struct Item<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// A list of `{"id"?,"name","arguments"?}`; arguments a JSON string (its
/// text is the arguments) or the object itself.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    let list = match reply::top(DIALECT, reply)? {
        Shape::Array(list) => list,
        Shape::Object(top) => return Err(reply::foreign(DIALECT, &top, "an array of {\"id\",\"name\",\"arguments\"}")),
    };
    let items: Vec<Item<'_>> = reply::read(DIALECT, reply, list, "the call list")?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let Some(name) = item.name else {
                return Err(reply::invalid(DIALECT, &format!("call [{index}] has no \"name\"")));
            };
            let id = match item.id {
                Some(id) => reply::string_value(DIALECT, reply, id, || format!("call [{index}].id"))?,
                None => Cow::Borrowed(""),
            };
            let arguments = match item.arguments {
                None => Cow::Borrowed(""),
                Some(raw) if raw.get().starts_with('"') => {
                    reply::string_value(DIALECT, reply, raw, || format!("call [{index}].arguments"))?
                }
                Some(raw) => reply::arguments_text(Some(raw)),
            };
            Ok(Call {
                id,
                name: reply::string_value(DIALECT, reply, name, || format!("call [{index}].name"))?,
                arguments,
                has_id: item.id.is_some(),
            })
        })
        .collect()
}

/// `{"id","name","content"}` per call, or `{"id","name","error"}`.
pub(super) fn write_results(out: &mut String, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) {
    out.push('[');
    for (index, (call, outcome)) in calls.iter().zip(outcomes).enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        push_string(out, &call.id);
        out.push_str(",\"name\":");
        push_string(out, &call.name);
        match outcome {
            Ok(result) => {
                out.push_str(",\"content\":");
                push_string(out, &result.content);
            }
            Err(error) => {
                out.push_str(",\"error\":");
                push_string(out, &error.to_string());
            }
        }
        out.push('}');
    }
    out.push(']');
}
