//! Explicit JSON-Schema helpers, as in the seed: small builders for the
//! schemas tool definitions carry.
//!
//! Each helper returns a [`serde_json::Value`]; its `to_string()` is
//! byte-for-byte deterministic: keys sorted at every level, `required` in the
//! order given, no whitespace. An empty description is left out.
//!
//! ```
//! use aikido::schema;
//!
//! let schema = schema::object(
//!     [("path", schema::string("File to read.")), ("limit", schema::integer("Maximum lines."))],
//!     &["path"],
//! );
//! assert_eq!(
//!     schema.to_string(),
//!     r#"{"properties":{"limit":{"description":"Maximum lines.","type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}"#
//! );
//! ```

use serde_json::{Map, Value};

/// `{"description":…,"type":"string"}`.
pub fn string(description: &str) -> Value {
    typed("string", description)
}

/// `{"description":…,"type":"integer"}`.
pub fn integer(description: &str) -> Value {
    typed("integer", description)
}

/// `{"description":…,"type":"number"}`.
pub fn number(description: &str) -> Value {
    typed("number", description)
}

/// `{"description":…,"type":"boolean"}`.
pub fn boolean(description: &str) -> Value {
    typed("boolean", description)
}

/// `{"description":…,"enum":[…],"type":"string"}`, values in the order given.
pub fn enumeration<S: AsRef<str>>(description: &str, values: &[S]) -> Value {
    let mut schema = described(description);
    let values = values.iter().map(|value| Value::from(value.as_ref())).collect();
    schema.insert("enum".to_owned(), Value::Array(values));
    schema.insert("type".to_owned(), "string".into());
    Value::Object(schema)
}

/// `{"description":…,"items":…,"type":"array"}`.
pub fn array(items: Value, description: &str) -> Value {
    let mut schema = described(description);
    schema.insert("items".to_owned(), items);
    schema.insert("type".to_owned(), "array".into());
    Value::Object(schema)
}

/// `{"properties":{…},"required":[…],"type":"object"}`. No properties leave
/// `properties` out; no required names leave `required` out. A name given
/// twice keeps its last schema.
pub fn object<I, K>(properties: I, required: &[&str]) -> Value
where
    I: IntoIterator<Item = (K, Value)>,
    K: Into<String>,
{
    let properties: Map<String, Value> = properties.into_iter().map(|(name, schema)| (name.into(), schema)).collect();
    let mut schema = Map::new();
    if !properties.is_empty() {
        schema.insert("properties".to_owned(), Value::Object(properties));
    }
    if !required.is_empty() {
        schema.insert("required".to_owned(), required.iter().map(|name| Value::from(*name)).collect());
    }
    schema.insert("type".to_owned(), "object".into());
    Value::Object(schema)
}

fn described(description: &str) -> Map<String, Value> {
    let mut schema = Map::new();
    if !description.is_empty() {
        schema.insert("description".to_owned(), description.into());
    }
    schema
}

fn typed(kind: &str, description: &str) -> Value {
    let mut schema = described(description);
    schema.insert("type".to_owned(), kind.into());
    Value::Object(schema)
}
