//! Strict mode (OpenAI's structured outputs, Anthropic's strict tools): the
//! rewrite of a schema into the subset strict mode accepts, and its undo on
//! the arguments that come back.
//!
//! The rewrite, at every object schema (the top one, and every one under
//! `properties`, `items`, `prefixItems`, `anyOf`, `$defs` and `definitions`):
//! `additionalProperties: false`, every property listed in `required`
//! (the original required ones first, in their order), and each property
//! that was optional made nullable (`"null"` added to its `type` and to its
//! `enum`; a schema with `$ref`, `const` or no `type` becomes
//! `{"anyOf":[schema,{"type":"null"}]}`; an `anyOf` gains `{"type":"null"}`).
//!
//! What strict mode cannot express is refused, naming the tool, the place
//! (a JSON Pointer into its schema) and the reason: `allOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, `patternProperties`, `propertyNames`,
//! `dependentRequired`, `dependentSchemas`, `unevaluatedProperties`,
//! `unevaluatedItems`, `additionalProperties` other than `false` (a map of
//! free keys), and a nested object with no `properties` (a free-form object).
//!
//! The undo: before dispatch, a `null` the model sent for a property that
//! the original schema declares but does not require is removed, at every
//! level the original schema describes (nested objects, array items, local
//! `$ref`s, the first object branch of an `anyOf`). Everything else of the
//! arguments' text is kept byte for byte.

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{parse_schema, Dialect};
use crate::error::Error;
use crate::tool::ToolDefinition;

const REFUSED: [&str; 12] = [
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
];

/// How deep the rewrite and the undo go before they give up.
const MAX_DEPTH: usize = 128;

/// The tool's parameters rewritten for strict mode, as compact JSON.
pub(super) fn parameters(definition: &ToolDefinition, dialect: Dialect) -> Result<Cow<'static, str>, Error> {
    let mut schema = parse_schema(definition, dialect)?;
    let refuse = |pointer: &str, reason: &str| {
        Error::InvalidInput(format!(
            "tool \"{}\" cannot be written for {} in strict mode: {reason} at {}",
            definition.name,
            dialect.label(),
            if pointer.is_empty() { "the top of its parameters" } else { pointer }
        ))
    };
    match schema.get("type") {
        None => {
            schema.as_object_mut().expect("checked to be an object").insert("type".to_owned(), "object".into());
        }
        Some(Value::String(kind)) if kind == "object" => {}
        Some(other) => return Err(refuse("", &format!("the parameters must be \"type\":\"object\", not {other}"))),
    }
    if !schema.get("properties").is_some_and(Value::is_object) {
        schema.as_object_mut().expect("an object").insert("properties".to_owned(), Value::Object(Map::new()));
    }
    rewrite(&mut schema, "", true, 0).map_err(|(pointer, reason)| refuse(&pointer, &reason))?;
    Ok(Cow::Owned(serde_json::to_string(&schema).expect("a Value always serialises")))
}

fn rewrite(schema: &mut Value, pointer: &str, top: bool, depth: usize) -> Result<(), (String, String)> {
    if depth > MAX_DEPTH {
        return Err((pointer.to_owned(), format!("the schema nests deeper than {MAX_DEPTH} levels")));
    }
    let Value::Object(map) = schema else {
        return match schema {
            Value::Bool(true) => Ok(()),
            _ => Err((pointer.to_owned(), "a schema must be an object".to_owned())),
        };
    };
    for keyword in REFUSED {
        if map.contains_key(keyword) {
            return Err((pointer.to_owned(), format!("strict mode has no \"{keyword}\"")));
        }
    }
    let is_object = map.contains_key("properties")
        || match map.get("type") {
            Some(Value::String(kind)) => kind == "object",
            Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "object"),
            _ => false,
        };
    if is_object {
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err((
                    pointer.to_owned(),
                    "\"additionalProperties\" other than false (an object of free keys) has no strict form".to_owned(),
                ))
            }
        }
        if !top && !map.get("properties").is_some_and(Value::is_object) {
            return Err((
                pointer.to_owned(),
                "an object without \"properties\" (free-form) has no strict form".to_owned(),
            ));
        }
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
        let required: Vec<String> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(|name| name.as_str().map(str::to_owned)).collect(),
            _ => Vec::new(),
        };
        let Some(Value::Object(properties)) = map.get_mut("properties") else { unreachable!("checked above") };
        let mut all: Vec<String> = required.iter().filter(|name| properties.contains_key(*name)).cloned().collect();
        for (name, property) in properties.iter_mut() {
            let here = format!("{pointer}/properties/{}", escape_pointer(name));
            rewrite(property, &here, false, depth + 1)?;
            if !required.contains(name) {
                make_nullable(property);
                all.push(name.clone());
            }
        }
        map.insert("required".to_owned(), Value::Array(all.into_iter().map(Value::String).collect()));
    }
    for keyword in ["items", "additionalItems"] {
        match map.get_mut(keyword) {
            Some(Value::Array(items)) => {
                for (index, item) in items.iter_mut().enumerate() {
                    rewrite(item, &format!("{pointer}/{keyword}/{index}"), false, depth + 1)?;
                }
            }
            Some(item @ Value::Object(_)) => rewrite(item, &format!("{pointer}/{keyword}"), false, depth + 1)?,
            _ => {}
        }
    }
    for keyword in ["anyOf", "prefixItems"] {
        if let Some(Value::Array(items)) = map.get_mut(keyword) {
            for (index, item) in items.iter_mut().enumerate() {
                rewrite(item, &format!("{pointer}/{keyword}/{index}"), false, depth + 1)?;
            }
        }
    }
    for keyword in ["$defs", "definitions"] {
        if let Some(Value::Object(definitions)) = map.get_mut(keyword) {
            for (name, definition) in definitions.iter_mut() {
                rewrite(definition, &format!("{pointer}/{keyword}/{}", escape_pointer(name)), false, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// Lets a schema also accept `null`.
fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    let null = Value::String("null".to_owned());
    let wrap = map.contains_key("$ref") || map.contains_key("const");
    match map.get_mut("type") {
        Some(Value::String(kind)) if !wrap => {
            if kind != "null" {
                let kind = std::mem::take(kind);
                map.insert("type".to_owned(), Value::Array(vec![Value::String(kind), null]));
            }
        }
        Some(Value::Array(kinds)) if !wrap => {
            if !kinds.contains(&null) {
                kinds.push(null);
            }
        }
        _ => {
            if let (false, Some(Value::Array(branches))) = (wrap, map.get_mut("anyOf")) {
                let null_branch = serde_json::json!({"type": "null"});
                if !branches.contains(&null_branch) {
                    branches.push(null_branch);
                }
                return;
            }
            let inner = std::mem::take(map);
            map.insert(
                "anyOf".to_owned(),
                Value::Array(vec![Value::Object(inner), serde_json::json!({"type": "null"})]),
            );
            return;
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
}

fn escape_pointer(name: &str) -> Cow<'_, str> {
    if name.contains(['~', '/']) {
        Cow::Owned(name.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The arguments with every `null` for a declared, not required property
/// removed; `None` when there is none (or the text is not an object: then
/// dispatch says what is wrong).
pub(super) fn undo(arguments: &str, schema: &Value) -> Option<String> {
    // Cheap test first: no null, nothing to undo.
    if !arguments.contains("null") {
        return None;
    }
    undo_value(arguments.trim(), schema, schema, 0)
}

fn undo_value(raw: &str, schema: &Value, root: &Value, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH || !raw.contains("null") {
        return None;
    }
    let schema = resolve(schema, root, depth)?;
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        let branch = branches.iter().filter_map(|branch| resolve(branch, root, depth)).find(|branch| {
            if raw.starts_with('{') {
                branch.get("properties").is_some()
            } else {
                branch.get("items").is_some()
            }
        })?;
        return undo_value(raw, branch, root, depth + 1);
    }
    if raw.starts_with('{') {
        let properties = schema.get("properties")?.as_object()?;
        let required: Vec<&str> = match schema.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let Members(members) = serde_json::from_str(raw).ok()?;
        let mut changed = false;
        let mut out = String::with_capacity(raw.len());
        out.push('{');
        for (key, value) in &members {
            let value = value.get();
            let property = properties.get(key.as_str());
            if value == "null" && property.is_some() && !required.contains(&key.as_str()) {
                changed = true;
                continue;
            }
            let replaced = property.and_then(|property| undo_value(value, property, root, depth + 1));
            changed |= replaced.is_some();
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(key).expect("a string always serialises"));
            out.push(':');
            out.push_str(replaced.as_deref().unwrap_or(value));
        }
        out.push('}');
        return changed.then_some(out);
    }
    if raw.starts_with('[') {
        let items = schema.get("items").filter(|items| items.is_object())?;
        let Elements(elements) = serde_json::from_str(raw).ok()?;
        let mut changed = false;
        let parts: Vec<Cow<'_, str>> = elements
            .iter()
            .map(|element| match undo_value(element.get(), items, root, depth + 1) {
                Some(text) => {
                    changed = true;
                    Cow::Owned(text)
                }
                None => Cow::Borrowed(element.get()),
            })
            .collect();
        return changed.then(|| format!("[{}]", parts.join(",")));
    }
    None
}

/// A schema with its local `$ref` followed (a few steps at most).
fn resolve<'a>(mut schema: &'a Value, root: &'a Value, depth: usize) -> Option<&'a Value> {
    for _ in 0..16 {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        let pointer = reference.strip_prefix('#')?;
        schema = root.pointer(pointer)?;
    }
    let _ = depth;
    None
}

/// An object's members in order, values raw.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(entry);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}

/// An array's elements, raw.
struct Elements<'a>(Vec<&'a RawValue>);

impl<'de> Deserialize<'de> for Elements<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ElementsVisitor;
        impl<'de> Visitor<'de> for ElementsVisitor {
            type Value = Elements<'de>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a JSON array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut elements = Vec::new();
                while let Some(element) = seq.next_element::<&'de RawValue>()? {
                    elements.push(element);
                }
                Ok(Elements(elements))
            }
        }
        deserializer.deserialize_seq(ElementsVisitor)
    }
}
