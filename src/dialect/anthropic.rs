//! Anthropic Messages: tools with `input_schema`, `tool_use` blocks of
//! `content` in, one user message of `tool_result` blocks back.

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply;
use super::{object_schema, outcome_text, push_description, push_string, Call, Dialect};
use crate::error::Error;
use crate::tool::{ToolDefinition, ToolResult};

const DIALECT: Dialect = Dialect::Anthropic;

/// `{"name","description","input_schema"[,"strict":true]}`
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition, strict: bool) -> Result<(), Error> {
    let schema = object_schema(definition, DIALECT, strict)?;
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

/// A message's `content`, read in the same pass as the message: its
/// blocks, or a plain string (which holds no tool use).
enum Content<'a> {
    Blocks(Vec<Block<'a>>),
    Text,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ContentVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for ContentVisitor<'a> {
            type Value = Content<'a>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a content array or a string")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Content::Text)
            }
        }
        deserializer.deserialize_any(ContentVisitor(std::marker::PhantomData))
    }
}

/// A message: its content, and the members that tell another provider's
/// reply, in one pass over the text.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    content: Option<Content<'a>>,
    #[serde(borrow, default)]
    choices: Option<&'a RawValue>,
    #[serde(borrow, default)]
    output: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tool_calls: Option<&'a RawValue>,
    #[serde(borrow, default)]
    candidates: Option<&'a RawValue>,
    #[serde(borrow, default)]
    parts: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "type")]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    object: Option<&'a RawValue>,
    #[serde(borrow, default)]
    role: Option<&'a RawValue>,
}

/// The `tool_use` blocks of a message or of its `content` array; text,
/// thinking and every other block are passed over.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    let blocks: Vec<Block<'_>> = match reply.trim_start().as_bytes().first() {
        Some(b'[') => reply::read(DIALECT, reply, reply, "content")?,
        Some(b'{') => {
            let message: Message<'_> = reply::read(DIALECT, reply, reply, "the reply")?;
            let top = reply::Top {
                choices: message.choices,
                output: message.output,
                tool_calls: message.tool_calls,
                candidates: message.candidates,
                parts: message.parts,
                kind: message.kind,
                object: message.object,
                role: message.role,
                content: None,
            };
            const EXPECTED: &str = "a message (with a \"content\" array) or its \"content\" array";
            match message.content {
                _ if reply::looks_like(&top).is_some() => return Err(reply::foreign(DIALECT, &top, EXPECTED)),
                None => return Err(reply::foreign(DIALECT, &top, EXPECTED)),
                Some(Content::Text) => return Ok(Vec::new()),
                Some(Content::Blocks(blocks)) => blocks,
            }
        }
        // Not an object or array: top() says what it is and where.
        _ => {
            reply::top(DIALECT, reply)?;
            return Err(reply::invalid(DIALECT, "the reply is not a JSON object or array"));
        }
    };
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
            id: reply::string_value(DIALECT, reply, id, || format!("content[{index}].id"))?,
            name: reply::string_value(DIALECT, reply, name, || format!("content[{index}].name"))?,
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
