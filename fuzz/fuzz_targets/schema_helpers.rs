//! The schema helpers, through the Rust API and the C functions: the output
//! is valid JSON without whitespace, keys sorted at every level, `required` in
//! the order given, the same bytes every time and from both APIs.

#![no_main]

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use aikido::ffi::schema::*;
use aikido::ffi::status::{aikido_string_free, AIKIDO_ERR_INVALID_INPUT, AIKIDO_OK};
use aikido::schema;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// A schema to build; `Raw` is schema text from the fuzzer, valid or not.
#[derive(Arbitrary, Debug)]
enum Node {
    String(String),
    Integer(String),
    Number(String),
    Boolean(String),
    Enum { description: String, values: Vec<String> },
    Array { items: Box<Node>, description: String },
    Object { properties: Vec<(String, Node)>, required: Vec<String> },
    Raw(String),
}

/// Nodes nested deeper than this are skipped: the shapes that matter are
/// shallow, and the checks below recurse.
const MAX_NODE_DEPTH: usize = 32;

fn node_depth(node: &Node) -> usize {
    match node {
        Node::Array { items, .. } => 1 + node_depth(items),
        Node::Object { properties, .. } => 1 + properties.iter().map(|(_, node)| node_depth(node)).max().unwrap_or(0),
        _ => 1,
    }
}

/// The schema through the Rust API; `None` where the C API must refuse it
/// (schema text that serde_json does not read).
fn build_rust(node: &Node) -> Option<Value> {
    Some(match node {
        Node::String(description) => schema::string(description),
        Node::Integer(description) => schema::integer(description),
        Node::Number(description) => schema::number(description),
        Node::Boolean(description) => schema::boolean(description),
        Node::Enum { description, values } => schema::enumeration(description, values),
        Node::Array { items, description } => schema::array(build_rust(items)?, description),
        Node::Object { properties, required } => {
            let properties: Option<Vec<(&str, Value)>> =
                properties.iter().map(|(name, node)| Some((name.as_str(), build_rust(node)?))).collect();
            let required: Vec<&str> = required.iter().map(String::as_str).collect();
            schema::object(properties?, &required)
        }
        Node::Raw(text) => aikido::parse_value(text.as_bytes()).ok()?,
    })
}

/// Takes a string the library returned.
fn take(text: *mut c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    let owned = unsafe { CStr::from_ptr(text) }.to_str().expect("the library writes UTF-8").to_owned();
    unsafe { aikido_string_free(text) };
    Some(owned)
}

fn c_string(text: &str) -> Option<CString> {
    CString::new(text).ok()
}

/// The schema through the C functions; `None` when they refused it. Text
/// holding a NUL cannot cross the C ABI: the caller skips such inputs.
fn build_c(node: &Node) -> Option<String> {
    match node {
        Node::String(description) => take(unsafe { aikido_schema_string(c_string(description)?.as_ptr()) }),
        Node::Integer(description) => take(unsafe { aikido_schema_integer(c_string(description)?.as_ptr()) }),
        Node::Number(description) => take(unsafe { aikido_schema_number(c_string(description)?.as_ptr()) }),
        Node::Boolean(description) => take(unsafe { aikido_schema_boolean(c_string(description)?.as_ptr()) }),
        Node::Enum { description, values } => {
            let values: Vec<CString> = values.iter().map(|value| c_string(value)).collect::<Option<_>>()?;
            let pointers: Vec<*const c_char> = values.iter().map(|value| value.as_ptr()).collect();
            let description = c_string(description)?;
            take(unsafe { aikido_schema_enum(description.as_ptr(), pointers.as_ptr(), pointers.len()) })
        }
        Node::Array { items, description } => {
            let items = c_string(&build_c(items)?)?;
            take(unsafe { aikido_schema_array(items.as_ptr(), c_string(description)?.as_ptr()) })
        }
        Node::Object { properties, required } => {
            let names: Vec<CString> = properties.iter().map(|(name, _)| c_string(name)).collect::<Option<_>>()?;
            let schemas: Vec<CString> =
                properties.iter().map(|(_, node)| c_string(&build_c(node)?)).collect::<Option<_>>()?;
            let required: Vec<CString> = required.iter().map(|name| c_string(name)).collect::<Option<_>>()?;
            let pointers = |strings: &[CString]| strings.iter().map(|text| text.as_ptr()).collect::<Vec<_>>();
            let (names, schemas, required) = (pointers(&names), pointers(&schemas), pointers(&required));
            let (mut json, mut error) = (ptr::null_mut(), ptr::null_mut());
            let status = unsafe {
                aikido_schema_object(
                    names.as_ptr(),
                    schemas.as_ptr(),
                    names.len(),
                    required.as_ptr(),
                    required.len(),
                    &mut json,
                    &mut error,
                )
            };
            match status {
                AIKIDO_OK => {
                    assert!(error.is_null());
                    take(json)
                }
                AIKIDO_ERR_INVALID_INPUT => {
                    assert!(json.is_null());
                    assert!(take(error).expect("a refusal has a message").starts_with("aikido/tools: invalid input"));
                    None
                }
                other => panic!("aikido_schema_object returned {other}"),
            }
        }
        // Given as it is, valid or not: the enclosing helper must refuse
        // what serde_json cannot read.
        Node::Raw(text) => c_string(text).map(|_| text.clone()),
    }
}

/// Deserializes any JSON, failing where an object's keys are not in strictly
/// increasing order.
struct SortedKeys;

impl<'de> Deserialize<'de> for SortedKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SortedKeysVisitor)
    }
}

struct SortedKeysVisitor;

impl<'de> Visitor<'de> for SortedKeysVisitor {
    type Value = SortedKeys;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("JSON")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SortedKeys, A::Error> {
        let mut previous: Option<String> = None;
        while let Some(key) = map.next_key::<String>()? {
            if previous.as_ref().is_some_and(|previous| *previous >= key) {
                return Err(serde::de::Error::custom(format!("key {key:?} follows {previous:?}")));
            }
            map.next_value::<SortedKeys>()?;
            previous = Some(key);
        }
        Ok(SortedKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SortedKeys, A::Error> {
        while seq.next_element::<SortedKeys>()?.is_some() {}
        Ok(SortedKeys)
    }

    fn visit_bool<E>(self, _: bool) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
    fn visit_unit<E>(self) -> Result<SortedKeys, E> {
        Ok(SortedKeys)
    }
}

fn parse_unbounded<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Whether `text` has whitespace outside its strings.
fn has_whitespace(text: &str) -> bool {
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (false, _, b'"') => in_string = true,
            (false, _, b' ' | b'\t' | b'\r' | b'\n') => return true,
            _ => {}
        }
    }
    false
}

fn check_output(node: &Node, text: &str) {
    assert!(aikido::is_valid_json(text.as_bytes()), "not valid JSON: {text}");
    assert!(!has_whitespace(text), "whitespace outside strings: {text}");
    if let Err(error) = parse_unbounded::<SortedKeys>(text) {
        panic!("keys not sorted in {text}: {error}");
    }
    // Read as written (serde_json's own `Value` reader rewrites objects keyed
    // `$serde_json::private::RawValue`); past its 128 levels only the checks
    // above apply.
    let value: Value = match aikido::parse_value(text.as_bytes()) {
        Ok(value) => value,
        Err(error) if error.to_string().contains("recursion limit") => return,
        Err(error) => panic!("the output parses: {error}: {text}"),
    };
    let description = match node {
        Node::String(description) | Node::Integer(description) | Node::Number(description) | Node::Boolean(description) => {
            Some(description)
        }
        Node::Enum { description, values } => {
            assert_eq!(value["enum"], serde_json::json!(values), "enum values in order: {text}");
            Some(description)
        }
        Node::Array { description, .. } => Some(description),
        Node::Object { properties, required } => {
            assert_eq!(value.get("properties").is_some(), !properties.is_empty(), "{text}");
            match value.get("required") {
                Some(listed) => assert_eq!(*listed, serde_json::json!(required), "required in order: {text}"),
                None => assert!(required.is_empty(), "required left out: {text}"),
            }
            None
        }
        Node::Raw(_) => None,
    };
    if let Some(description) = description {
        let written = value.get("description").and_then(Value::as_str);
        assert_eq!(written, Some(description.as_str()).filter(|text| !text.is_empty()), "{text}");
    }
}

fuzz_target!(|node: Node| {
    if node_depth(&node) > MAX_NODE_DEPTH {
        return;
    }
    let rust = build_rust(&node).map(|value| value.to_string());
    let again = build_rust(&node).map(|value| value.to_string());
    assert_eq!(rust, again, "the Rust helpers are not deterministic");
    if let Some(text) = &rust {
        check_output(&node, text);
    }
    if !matches!(node, Node::Raw(_)) {
        if let Some(c) = build_c(&node) {
            assert_eq!(Some(&c), rust.as_ref(), "the C helpers disagree with the Rust ones");
        } else if !holds_nul(&node) {
            assert!(rust.is_none(), "the C helpers refused what the Rust ones built: {rust:?}");
        }
    }
});

/// Whether any text in the node holds a NUL byte, which C strings cannot.
fn holds_nul(node: &Node) -> bool {
    let nul = |text: &String| text.contains('\0');
    match node {
        Node::String(description) | Node::Integer(description) | Node::Number(description) | Node::Boolean(description) => {
            nul(description)
        }
        Node::Enum { description, values } => nul(description) || values.iter().any(nul),
        Node::Array { items, description } => nul(description) || holds_nul(items),
        Node::Object { properties, required } => {
            required.iter().any(nul) || properties.iter().any(|(name, node)| nul(name) || holds_nul(node))
        }
        Node::Raw(text) => nul(text),
    }
}
