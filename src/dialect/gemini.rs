//! Gemini: function declarations whose `parameters` are Gemini's OpenAPI
//! subset, `functionCall` parts of the candidate's content in, one user
//! content of `functionResponse` parts back.
//!
//! The translation of a JSON Schema (docs/DIALECTS.md lists every rule):
//! - local `$ref`s (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) are
//!   inlined, their siblings winning; a cycle is refused; `$defs` and
//!   `definitions` are then left out;
//! - `allOf` is merged into one schema; `oneOf` becomes `anyOf`;
//! - `type` is written as Gemini's enum (`STRING`, `OBJECT`, …); a list of
//!   types loses `"null"` to `nullable: true`, and several types left become
//!   an `anyOf`; a `{"type":"null"}` branch of an `anyOf` becomes `nullable`;
//! - `const` becomes a one-value `enum` (strings) or, for another value, a
//!   sentence in the description; an `enum` of strings is kept (type
//!   `STRING`), an `enum` of other values becomes a sentence in the
//!   description (Gemini's enums hold strings only), `null` in an enum
//!   becomes `nullable`;
//! - `format` is kept where Gemini knows it (`enum` and `date-time` for
//!   strings, `float`/`double`, `int32`/`int64`), else left out;
//! - kept as they are (a `null` one left out): `description`, `title`, `default`, `example`,
//!   `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `minItems`,
//!   `maxItems`, `minProperties`, `maxProperties`, `propertyOrdering`,
//!   `properties`, `items`, `anyOf`; `required` keeps only declared names;
//! - every other keyword is left out (`additionalProperties`,
//!   `exclusiveMinimum`, `multipleOf`, `uniqueItems`, `not`, `if`, `$schema`, …);
//! - a tool whose parameters declare no property has no `parameters`.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::reply::{self, Shape};
use super::{outcome_text, parse_schema, push_description, push_string, Call, Dialect};
use crate::error::Error;
use crate::tool::{ToolDefinition, ToolResult};

const DIALECT: Dialect = Dialect::Gemini;

/// How deep a translated schema may nest.
const MAX_DEPTH: usize = 64;
/// How many schemas a translation may write (inlined `$ref`s multiply them).
const MAX_NODES: usize = 100_000;

/// `{"name","description","parameters"?}` inside `functionDeclarations`.
pub(super) fn write_definition(out: &mut String, definition: &ToolDefinition) -> Result<(), Error> {
    let parameters = match definition.parameters.as_deref().filter(|text| !text.trim().is_empty()) {
        None => None,
        Some(_) => {
            let schema = parse_schema(definition, DIALECT)?;
            translate_parameters(&schema).map_err(|(pointer, reason)| {
                Error::InvalidInput(format!(
                    "tool \"{}\" cannot be written for Gemini: {reason} at {}",
                    definition.name,
                    if pointer.is_empty() { "the top of its parameters" } else { &pointer }
                ))
            })?
        }
    };
    out.push_str("{\"name\":");
    push_string(out, &definition.name);
    push_description(out, definition, "description");
    if let Some(parameters) = parameters {
        out.push_str(",\"parameters\":");
        out.push_str(&serde_json::to_string(&parameters).expect("a Value always serialises"));
    }
    out.push('}');
    Ok(())
}

type Refusal = (String, String);

/// The whole parameters schema: an object, or nothing when it declares no
/// property.
pub(super) fn translate_parameters(schema: &Value) -> Result<Option<Value>, Refusal> {
    let mut translator = Translator { root: schema, stack: Vec::new(), nodes: 0 };
    let translated = translator.translate(schema, "", 0)?;
    match translated.get("type").and_then(Value::as_str) {
        Some("OBJECT") | None => {}
        Some(other) => return Err((String::new(), format!("the parameters must be an object schema, not {other}"))),
    }
    if translated.get("properties").and_then(Value::as_object).is_none_or(|properties| properties.is_empty()) {
        return Ok(None);
    }
    let mut translated = translated;
    translated.insert("type".to_owned(), "OBJECT".into());
    Ok(Some(Value::Object(translated)))
}

struct Translator<'a> {
    root: &'a Value,
    /// The `$ref`s being inlined, to refuse a cycle.
    stack: Vec<String>,
    nodes: usize,
}

impl<'a> Translator<'a> {
    fn translate(&mut self, schema: &Value, pointer: &str, depth: usize) -> Result<Map<String, Value>, Refusal> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err((
                pointer.to_owned(),
                format!("the schema grows past {MAX_NODES} schemas once its $refs are inlined"),
            ));
        }
        if depth > MAX_DEPTH {
            return Err((pointer.to_owned(), format!("the schema nests deeper than {MAX_DEPTH} levels")));
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return Ok(Map::new()),
            _ => return Err((pointer.to_owned(), "a schema must be an object or true".to_owned())),
        };
        // $ref: inline the target, then let the siblings override it.
        if let Some(reference) = map.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err((pointer.to_owned(), "\"$ref\" must be a string".to_owned()));
            };
            let Some(target_pointer) = reference.strip_prefix('#') else {
                return Err((pointer.to_owned(), format!("\"$ref\" {reference:?} is not local (Gemini has no $ref)")));
            };
            let Some(target) = self.root.pointer(target_pointer) else {
                return Err((pointer.to_owned(), format!("\"$ref\" {reference:?} points to nothing")));
            };
            if self.stack.iter().any(|seen| seen == reference) {
                return Err((
                    pointer.to_owned(),
                    format!(
                        "\"$ref\" {reference:?} refers to itself (a recursive schema cannot be inlined for Gemini)"
                    ),
                ));
            }
            self.stack.push(reference.to_owned());
            let mut inlined = self.translate(target, pointer, depth + 1);
            self.stack.pop();
            let mut siblings = map.clone();
            siblings.remove("$ref");
            if let Ok(inlined) = &mut inlined {
                let siblings = self.translate_map(&siblings, pointer, depth + 1)?;
                for (key, value) in siblings {
                    if key != "type" || !inlined.contains_key("type") {
                        inlined.insert(key, value);
                    }
                }
            }
            return inlined;
        }
        let merged;
        let map = if let Some(Value::Array(parts)) = map.get("allOf") {
            merged = merge_all_of(map, parts, self.root);
            &merged
        } else {
            map
        };
        self.translate_map(map, pointer, depth)
    }

    fn translate_map(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<Map<String, Value>, Refusal> {
        let mut out = Map::new();
        let mut nullable = false;
        let mut description_notes: Vec<String> = Vec::new();
        // type
        let mut types: Vec<&str> = match map.get("type") {
            Some(Value::String(kind)) => vec![kind.as_str()],
            Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"null") {
            nullable = true;
            types.retain(|kind| *kind != "null");
        }
        // enum and const
        let mut strings: Option<Vec<Value>> = None;
        let values: Option<Vec<Value>> = match (map.get("const"), map.get("enum")) {
            (Some(value), _) => Some(vec![value.clone()]),
            (None, Some(Value::Array(values))) => Some(values.clone()),
            _ => None,
        };
        if let Some(mut values) = values {
            if values.contains(&Value::Null) {
                nullable = true;
                values.retain(|value| !value.is_null());
            }
            if !values.is_empty() && values.iter().all(Value::is_string) {
                strings = Some(values);
                types = vec!["string"];
            } else if !values.is_empty() {
                let listed: Vec<String> = values.iter().map(|value| value.to_string()).collect();
                description_notes.push(if listed.len() == 1 {
                    format!("Must be {}.", listed[0])
                } else {
                    format!("One of: {}.", listed.join(", "))
                });
                if types.is_empty() {
                    if values.iter().all(|value| value.as_i64().is_some() || value.as_u64().is_some()) {
                        types = vec!["integer"];
                    } else if values.iter().all(Value::is_number) {
                        types = vec!["number"];
                    } else if values.iter().all(Value::is_boolean) {
                        types = vec!["boolean"];
                    }
                }
            }
        }
        if types.is_empty() {
            if map.contains_key("properties") {
                types.push("object");
            } else if map.contains_key("items") {
                types.push("array");
            }
        }
        // anyOf / oneOf
        let branches = map.get("anyOf").or_else(|| map.get("oneOf"));
        let mut any_of: Vec<Value> = Vec::new();
        if let Some(Value::Array(branches)) = branches {
            let keyword = if map.contains_key("anyOf") { "anyOf" } else { "oneOf" };
            for (index, branch) in branches.iter().enumerate() {
                let translated = self.translate(branch, &format!("{pointer}/{keyword}/{index}"), depth + 1)?;
                let null_only = translated.len() == 1
                    && (translated.get("type").and_then(Value::as_str) == Some("NULL")
                        || translated.get("nullable") == Some(&Value::Bool(true)));
                if null_only {
                    nullable = true;
                } else {
                    any_of.push(Value::Object(translated));
                }
            }
        }
        if types.len() > 1 {
            for kind in &types {
                let mut branch = Map::new();
                branch.insert("type".to_owned(), gemini_type(kind).into());
                any_of.push(Value::Object(branch));
            }
            types.clear();
        }
        if let Some(kind) = types.first() {
            out.insert("type".to_owned(), gemini_type(kind).into());
        }
        if types.is_empty() && any_of.len() == 1 {
            // One branch left: it is the schema.
            if let Some(Value::Object(branch)) = any_of.pop() {
                for (key, value) in branch {
                    out.entry(key).or_insert(value);
                }
            }
        } else if !any_of.is_empty() {
            out.insert("anyOf".to_owned(), Value::Array(any_of));
        }
        if let Some(strings) = strings {
            out.insert("enum".to_owned(), Value::Array(strings));
        }
        // Plain keywords.
        for keyword in [
            "title",
            "default",
            "example",
            "minimum",
            "maximum",
            "minLength",
            "maxLength",
            "pattern",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "propertyOrdering",
        ] {
            // A null default says no more than nullable does.
            if let Some(value) = map.get(keyword).filter(|value| !value.is_null()) {
                out.insert(keyword.to_owned(), value.clone());
            }
        }
        let description = map.get("description").and_then(Value::as_str).map(str::to_owned);
        match (description, description_notes.is_empty()) {
            (Some(text), true) => {
                out.insert("description".to_owned(), text.into());
            }
            (Some(text), false) => {
                out.insert("description".to_owned(), format!("{text} {}", description_notes.join(" ")).into());
            }
            (None, false) => {
                out.insert("description".to_owned(), description_notes.join(" ").into());
            }
            (None, true) => {}
        }
        if let Some(Value::String(format)) = map.get("format") {
            let known = match out.get("type").and_then(Value::as_str) {
                Some("STRING") => matches!(format.as_str(), "enum" | "date-time"),
                Some("NUMBER") => matches!(format.as_str(), "float" | "double"),
                Some("INTEGER") => matches!(format.as_str(), "int32" | "int64"),
                _ => false,
            };
            if known {
                out.insert("format".to_owned(), format.clone().into());
            }
        }
        // Objects.
        if let Some(Value::Object(properties)) = map.get("properties") {
            let mut translated = Map::new();
            for (name, property) in properties {
                let here = format!("{pointer}/properties/{name}");
                translated.insert(name.clone(), Value::Object(self.translate(property, &here, depth + 1)?));
            }
            if let Some(Value::Array(required)) = map.get("required") {
                let required: Vec<Value> = required
                    .iter()
                    .filter(|name| name.as_str().is_some_and(|name| translated.contains_key(name)))
                    .cloned()
                    .collect();
                if !required.is_empty() {
                    out.insert("required".to_owned(), Value::Array(required));
                }
            }
            if !translated.is_empty() {
                out.insert("properties".to_owned(), Value::Object(translated));
            }
        }
        // Arrays.
        if let Some(items @ (Value::Object(_) | Value::Bool(true))) = map.get("items") {
            let translated = self.translate(items, &format!("{pointer}/items"), depth + 1)?;
            out.insert("items".to_owned(), Value::Object(translated));
        }
        if nullable {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
        Ok(out)
    }
}

/// Gemini's name of a JSON Schema type.
fn gemini_type(kind: &str) -> &'static str {
    match kind {
        "string" => "STRING",
        "number" => "NUMBER",
        "integer" => "INTEGER",
        "boolean" => "BOOLEAN",
        "array" => "ARRAY",
        "object" => "OBJECT",
        "null" => "NULL",
        _ => "TYPE_UNSPECIFIED",
    }
}

/// `allOf` folded into its schema: properties and required lists joined,
/// other keywords taken from the first part that has them.
fn merge_all_of(map: &Map<String, Value>, parts: &[Value], root: &Value) -> Map<String, Value> {
    let mut merged = map.clone();
    merged.remove("allOf");
    for part in parts {
        let mut part = part;
        for _ in 0..16 {
            match part.get("$ref").and_then(Value::as_str).and_then(|reference| reference.strip_prefix('#')) {
                Some(pointer) => match root.pointer(pointer) {
                    Some(target) => part = target,
                    None => break,
                },
                None => break,
            }
        }
        let Value::Object(part) = part else { continue };
        for (key, value) in part {
            match (key.as_str(), merged.get_mut(key), value) {
                ("properties", Some(Value::Object(into)), Value::Object(from)) => {
                    for (name, schema) in from {
                        into.entry(name.clone()).or_insert_with(|| schema.clone());
                    }
                }
                ("required", Some(Value::Array(into)), Value::Array(from)) => {
                    for name in from {
                        if !into.contains(name) {
                            into.push(name.clone());
                        }
                    }
                }
                ("$ref", _, _) => {}
                (_, None, _) => {
                    merged.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
    }
    merged
}

#[derive(Deserialize)]
struct Candidate<'a> {
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(borrow, default, rename = "functionCall", alias = "function_call")]
    function_call: Option<FunctionCall<'a>>,
}

#[derive(Deserialize)]
struct FunctionCall<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    args: Option<&'a RawValue>,
}

/// The `functionCall` parts of a response body, of a candidate's content, or
/// of its `parts` array; text, thoughts and thought signatures are passed over.
pub(super) fn read(reply: &str) -> Result<Vec<Call<'_>>, Error> {
    const EXPECTED: &str =
        "a response (with \"candidates\"), a candidate's content (with \"parts\") or its \"parts\" array";
    let (list, path) = match reply::top(DIALECT, reply)? {
        Shape::Array(list) => (list, "parts"),
        Shape::Object(top) => {
            let content = if let Some(candidates) = top.candidates {
                let candidates: Vec<Candidate<'_>> = reply::read(DIALECT, reply, candidates.get(), "candidates")?;
                let Some(first) = candidates.first() else {
                    return Err(reply::invalid(DIALECT, "\"candidates\" is empty"));
                };
                // A candidate without content (stopped for safety, say) holds no call.
                let Some(content) = first.content else { return Ok(Vec::new()) };
                let content: reply::Top<'_> = reply::read(DIALECT, reply, content.get(), "candidates[0].content")?;
                (content, "candidates[0].content.parts")
            } else if top.parts.is_some() && reply::looks_like(&top).is_some_and(|(other, _)| other == DIALECT) {
                (top, "parts")
            } else {
                return Err(reply::foreign(DIALECT, &top, EXPECTED));
            };
            match content.0.parts {
                None => return Ok(Vec::new()),
                Some(parts) => (parts.get(), content.1),
            }
        }
    };
    let parts: Vec<Part<'_>> = reply::read(DIALECT, reply, list, path)?;
    let mut calls = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let Some(call) = &part.function_call else { continue };
        let at = || format!("{path}[{index}].functionCall");
        let Some(name) = call.name else {
            return Err(reply::invalid(DIALECT, &format!("{} has no \"name\"", at())));
        };
        let id = match call.id {
            Some(id) => reply::string_value(DIALECT, reply, id, || format!("{}.id", at()))?,
            None => Cow::Borrowed(""),
        };
        calls.push(Call {
            id,
            name: reply::string_value(DIALECT, reply, name, || format!("{}.name", at()))?,
            arguments: reply::arguments_text(call.args),
            has_id: call.id.is_some(),
        });
    }
    Ok(calls)
}

/// `[{"role":"user","parts":[{"functionResponse":{"id"?,"name","response":{"output"|"error"}}}…]}]`,
/// or `[]` for a reply without calls. Parts keep the calls' order, so a
/// call without an id is matched by position and name.
pub(super) fn write_results(out: &mut String, calls: &[Call<'_>], outcomes: &[Result<ToolResult, Error>]) {
    if calls.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push_str("[{\"role\":\"user\",\"parts\":[");
    for (index, (call, outcome)) in calls.iter().zip(outcomes).enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"functionResponse\":{");
        if call.has_id {
            out.push_str("\"id\":");
            push_string(out, &call.id);
            out.push(',');
        }
        out.push_str("\"name\":");
        push_string(out, &call.name);
        out.push_str(if outcome.is_ok() { ",\"response\":{\"output\":" } else { ",\"response\":{\"error\":" });
        push_string(out, &outcome_text(outcome));
        out.push_str("}}}");
    }
    out.push_str("]}]");
}
