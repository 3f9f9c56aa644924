//! Dispatch's argument check against serde_json's verdict on the same bytes.
//!
//! Each input is the raw `arguments` of one call, dispatched to tools whose
//! schemas require different fields. The oracle is serde_json, with the
//! library's documented rules written out where they differ from it:
//! - empty or whitespace-only arguments count as `{}`;
//! - nesting deeper than `aikido::MAX_DEPTH` is refused (serde_json's skipping
//!   path has no limit);
//! - numbers of any magnitude are valid: the oracle reads values as
//!   `RawValue`, which checks their syntax without converting them;
//! - lone surrogate escapes (`"\ud800"`) are valid JSON; in a key they decode
//!   to U+FFFD. serde_json reads such a key as WTF-8 bytes, and the oracle maps
//!   each encoded surrogate to U+FFFD. Reading keys as bytes skips serde_json's check for raw control
//!   characters, so the oracle first checks the whole text as a `RawValue`,
//!   whose path keeps that check and accepts lone surrogates;
//! - the last of duplicate keys wins.
//!
//! serde_json and the scanner agree without help on the rest: UTF-8 is checked
//! first, raw control characters (U+0000 to U+001F) in strings are refused,
//! DEL is allowed.

#![no_main]

use std::sync::OnceLock;

use aikido::{Environment, Error, Registry, ToolCall, ToolDefinition, ToolResult, MAX_DEPTH};
use libfuzzer_sys::fuzz_target;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// A tool's name, the fields it requires, and its schema.
type Tool = (&'static str, Vec<String>, Option<String>);

fn tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(tool_list)
}

fn tool_list() -> Vec<Tool> {
    let many: Vec<String> = (0..70).map(|index| format!("f{index}")).collect();
    let many_schema = serde_json::json!({ "type": "object", "required": many }).to_string();
    vec![
        ("free", vec![], None),
        ("path", vec!["path".into()], Some(r#"{"type":"object","required":["path"]}"#.into())),
        ("two", vec!["path".into(), "limit".into()], Some(r#"{"required":["path","limit","path"]}"#.into())),
        // Escaped names in the schema, an empty name, and the name a lone
        // surrogate key decodes to.
        (
            "odd",
            vec!["".into(), "\u{FFFD}".into(), "é".into(), "a\"b".into()],
            Some(r#"{"required":["","\ufffd","\u00e9","a\"b",7,null]}"#.into()),
        ),
        // More than 64 required fields take the scanner's other bookkeeping.
        ("many", many, Some(many_schema)),
    ]
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let registry = Registry::new();
        for (name, _, schema) in tools() {
            let definition = ToolDefinition { name: (*name).into(), description: String::new(), parameters: schema.clone() };
            registry
                .register(definition, |arguments: &str, _: &Environment| Ok(ToolResult::new(arguments)))
                .expect("the fuzz tools register");
        }
        registry
    })
}

/// The top-level fields of a JSON object as (decoded key, value is null), in
/// document order; any other document is an error.
struct Fields(Vec<(String, bool)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            let value: &RawValue = map.next_value()?;
            fields.push((key.0, value.get() == "null"));
        }
        Ok(Fields(fields))
    }
}

/// A key read as bytes, so that serde_json accepts lone surrogates (as WTF-8).
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_bytes(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_bytes<E>(self, bytes: &[u8]) -> Result<Key, E> {
        Ok(Key(surrogates_replaced(bytes)))
    }
}

/// WTF-8 to UTF-8, each surrogate (ED A0..BF xx) becoming U+FFFD.
fn surrogates_replaced(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == 0xED && bytes.get(index + 1).is_some_and(|next| *next >= 0xA0) {
            out.extend_from_slice("\u{FFFD}".as_bytes());
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).expect("serde_json decodes keys to WTF-8")
}

/// How deep arrays and objects nest in valid JSON text.
fn depth(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for byte in text.bytes() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    deepest
}

/// serde_json's verdict with the library's rules applied: the object's
/// fields, or `None` for arguments that must be refused.
fn expected_fields(raw: &[u8]) -> Option<Vec<(String, bool)>> {
    if is_blank(raw) {
        return Some(Vec::new());
    }
    if !expected_valid_json(raw) {
        return None;
    }
    let text = std::str::from_utf8(raw).ok()?;
    // Valid JSON, so Fields refuses only what is not an object.
    serde_json::from_str::<Fields>(text).ok().map(|fields| fields.0)
}

fn is_blank(raw: &[u8]) -> bool {
    raw.iter().all(|byte| matches!(byte, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Whether serde_json (with the depth limit) finds one JSON value of any type.
fn expected_valid_json(raw: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(raw) else { return false };
    serde_json::from_str::<&RawValue>(text).is_ok() && depth(text) <= MAX_DEPTH
}

fuzz_target!(|raw: &[u8]| {
    assert_eq!(aikido::is_valid_json(raw), expected_valid_json(raw), "is_valid_json disagrees on {raw:?}");

    let fields = expected_fields(raw);
    for (name, required, _) in tools() {
        let name = *name;
        let call = ToolCall { id: "", name, arguments: raw };
        let outcome = registry().dispatch(&call, &Environment::default());
        let Some(fields) = &fields else {
            match outcome {
                Err(Error::InvalidArguments { ref tool, .. }) if tool == name => continue,
                _ => panic!("tool {name}: serde_json refuses {raw:?}, dispatch gave {outcome:?}"),
            }
        };
        // The last of duplicate keys wins.
        let last = |field: &str| fields.iter().rev().find(|(key, _)| key == field).map(|(_, is_null)| *is_null);
        let at_fault: Vec<&String> = required.iter().filter(|field| last(field) != Some(false)).collect();
        match (&outcome, at_fault.first()) {
            (Ok(result), None) => {
                let verbatim = if is_blank(raw) { b"{}".as_slice() } else { raw };
                assert_eq!(result.content.as_bytes(), verbatim, "tool {name}: the handler must see the arguments verbatim");
            }
            (Err(error @ Error::InvalidArguments { .. }), Some(field)) => {
                let message = error.to_string();
                assert!(message.contains(&format!("\"{field}\"")), "tool {name}: {message:?} does not name {field:?}");
            }
            _ => panic!("tool {name}: on {raw:?} expected fields at fault {at_fault:?}, dispatch gave {outcome:?}"),
        }
    }
});
