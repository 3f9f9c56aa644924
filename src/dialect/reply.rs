//! What every reader of a model reply shares: reading a piece of the reply
//! into a typed shape with an error that says where, telling which
//! provider a foreign reply came from, and decoding a JSON string.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::Dialect;
use crate::error::Error;

/// The top-level members that tell one provider's reply from another's.
/// Every value is kept raw, so reading this costs one scan of the reply.
#[derive(Deserialize, Default)]
pub(crate) struct Top<'a> {
    #[serde(borrow, default)]
    pub(crate) choices: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) output: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) content: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) tool_calls: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) candidates: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) parts: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "type")]
    pub(crate) kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) object: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) role: Option<&'a RawValue>,
}

/// Either the reply's top-level object, or the array it is.
pub(crate) enum Shape<'a> {
    Object(Top<'a>),
    Array(&'a str),
}

/// Reads the top of a reply: an object's telling members, or an array.
pub(crate) fn top<'a>(dialect: Dialect, reply: &'a str) -> Result<Shape<'a>, Error> {
    match reply.trim_start().as_bytes().first() {
        Some(b'[') => {
            // Checked to be JSON here so that the error names the whole reply.
            let raw: &RawValue = read(dialect, reply, reply, "the reply")?;
            Ok(Shape::Array(raw.get()))
        }
        Some(b'{') => Ok(Shape::Object(read(dialect, reply, reply, "the reply")?)),
        None => Err(invalid(dialect, "the reply is empty")),
        Some(_) => {
            // Let serde_json say what is wrong and where.
            let raw: &RawValue = read(dialect, reply, reply, "the reply is not a JSON object or array")?;
            Err(invalid(dialect, &format!("the reply is {}, not a JSON object or array", kind_of_raw(raw.get()))))
        }
    }
}

/// Reads `piece`, part of `reply`, as `T`; an error names `what` and the
/// byte of the reply where reading failed.
pub(crate) fn read<'a, T: Deserialize<'a>>(
    dialect: Dialect,
    reply: &str,
    piece: &'a str,
    what: &str,
) -> Result<T, Error> {
    serde_json::from_str(piece).map_err(|error| {
        let start = (piece.as_ptr() as usize).saturating_sub(reply.as_ptr() as usize);
        let detail = locate(piece, &error.to_string(), error.line(), error.column(), start);
        invalid(dialect, &format!("{what}: {detail}"))
    })
}

/// serde_json's message with its line and column (relative to `piece`)
/// replaced by the byte offset in the whole reply.
fn locate(piece: &str, message: &str, line: usize, column: usize, start: usize) -> String {
    let text = message.rsplit_once(" at line ").map_or(message, |(text, _)| text);
    if line == 0 {
        return text.to_owned();
    }
    let mut offset = 0;
    for (index, row) in piece.split_inclusive('\n').enumerate() {
        if index + 1 == line {
            offset += column.saturating_sub(1).min(row.len());
            break;
        }
        offset += row.len();
    }
    format!("{text} (at byte {} of the reply)", start + offset)
}

/// The error for a reply that cannot be read.
pub(crate) fn invalid(dialect: Dialect, detail: &str) -> Error {
    Error::InvalidInput(format!("cannot read the {} reply: {detail}", dialect.label()))
}

/// The provider whose reply this object looks like, by its telling members.
pub(crate) fn looks_like(top: &Top<'_>) -> Option<(Dialect, &'static str)> {
    let kind = top.kind.map(RawValue::get);
    let object = top.object.map(RawValue::get);
    if top.choices.is_some() || object == Some("\"chat.completion\"") {
        Some((Dialect::OpenAiChat, "it has \"choices\""))
    } else if top.tool_calls.is_some() {
        Some((Dialect::OpenAiChat, "it has \"tool_calls\""))
    } else if top.output.is_some() || object == Some("\"response\"") {
        Some((Dialect::OpenAiResponses, "it has \"output\""))
    } else if kind == Some("\"message\"") && top.content.is_some_and(|content| content.get().starts_with('[')) {
        Some((Dialect::Anthropic, "it is a \"type\":\"message\" with a \"content\" array"))
    } else if top.candidates.is_some() {
        Some((Dialect::Gemini, "it has \"candidates\""))
    } else if top.parts.is_some() {
        Some((Dialect::Gemini, "it has \"parts\""))
    } else {
        None
    }
}

/// The error for a reply of another provider, or of no known shape.
pub(crate) fn foreign(dialect: Dialect, top: &Top<'_>, expected: &str) -> Error {
    match looks_like(top) {
        Some((other, why)) if other != dialect => invalid(
            dialect,
            &format!("it looks like {} {} reply ({why}); expected {expected}", article(other.label()), other.label()),
        ),
        _ => invalid(dialect, &format!("expected {expected}")),
    }
}

/// A JSON string's value; a borrowed slice when it holds no escape.
pub(crate) fn string_value<'a>(
    dialect: Dialect,
    reply: &str,
    raw: &'a RawValue,
    what: impl Fn() -> String,
) -> Result<Cow<'a, str>, Error> {
    let text = raw.get();
    if text.len() >= 2 && text.starts_with('"') && !text[1..text.len() - 1].contains(['\\', '"']) {
        return Ok(Cow::Borrowed(&text[1..text.len() - 1]));
    }
    if !text.starts_with('"') {
        return Err(invalid(dialect, &format!("{} is not a string but {}", what(), kind_of_raw(text))));
    }
    let value: String = read(dialect, reply, text, &what())?;
    Ok(Cow::Owned(value))
}

/// A JSON value's kind, for messages.
pub(crate) fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A raw JSON value's kind, from its first byte.
pub(crate) fn kind_of_raw(text: &str) -> &'static str {
    match text.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The compact text of an `input`/`args` object as the handler receives it.
pub(crate) fn arguments_text(raw: Option<&RawValue>) -> Cow<'_, str> {
    match raw {
        None => Cow::Borrowed("{}"),
        Some(raw) => crate::json::compact(raw.get()),
    }
}

/// "a" or "an", for a label.
fn article(label: &str) -> &'static str {
    if label.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
