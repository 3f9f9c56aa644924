//! REPAIR mode: before the check, coerce what the schema makes unambiguous.
//!
//! Only a string where the schema's `type` wants something else is touched,
//! and only when the string's text is itself a JSON value of a wanted type:
//! `"200"` for an integer or a number, `"2.5"` for a number (not for an
//! integer), `"true"`/`"false"` for a boolean, `"{…}"`/`"[…]"` holding the
//! object or array wanted. A string inside an `anyOf`/`oneOf` alternative is
//! never repaired: which alternative was meant is not unambiguous. Repaired
//! text is checked again, so an object pulled out of a string is repaired and
//! checked in its turn (up to [`ROUNDS`] levels).

use std::borrow::Cow;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::json::Node;
use jsonschema::JsonType;

use super::tape::{Kind, TapeNode};
use super::{message, Repair, Schema, Violation};
use crate::json;

/// How many times a repaired text is checked and repaired again.
const ROUNDS: usize = 4;

/// The text a string holding `wanted` is repaired to, when it is one: an
/// object or array compact (whitespace outside strings dropped, key order
/// and number spelling kept, as the dialects hand arguments on), a scalar
/// as it is.
fn coerced(text: &str, wanted: &[JsonType]) -> Option<String> {
    let wants = |kind: JsonType| wanted.contains(&kind);
    let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
    let first = trimmed.bytes().next()?;
    match first {
        b'{' if wants(JsonType::Object) => {
            json::is_valid_json(trimmed.as_bytes()).then(|| json::compact(trimmed).into_owned())
        }
        b'[' if wants(JsonType::Array) => {
            json::is_valid_json(trimmed.as_bytes()).then(|| json::compact(trimmed).into_owned())
        }
        b't' | b'f' if wants(JsonType::Boolean) && (text == "true" || text == "false") => Some(text.to_owned()),
        b'-' | b'0'..=b'9' if text == trimmed && json::is_valid_json(text.as_bytes()) => {
            let integral = !text.contains(['.', 'e', 'E']);
            (wants(JsonType::Number) || (wants(JsonType::Integer) && integral)).then(|| text.to_owned())
        }
        _ => None,
    }
}

/// The node a JSON Pointer leads to.
fn resolve<'a>(root: TapeNode<'a>, pointer: &str) -> Option<TapeNode<'a>> {
    let mut node = root;
    if pointer.is_empty() {
        return Some(node);
    }
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = node.child(&token)?;
    }
    Some(node)
}

/// One pass: the edits that the type errors of `text` call for.
fn edits(schema: &Schema, text: &str) -> Vec<(usize, usize, Repair)> {
    schema.with_errors(text, |root, errors| {
        let mut edits = Vec::new();
        for error in &errors {
            let ValidationErrorKind::Type { kind } = error.kind() else { continue };
            let wanted: Vec<JsonType> = match kind {
                TypeKind::Single(single) => vec![*single],
                TypeKind::Multiple(set) => set.iter().collect(),
            };
            let path = error.instance_path().as_str();
            let Some(node) = resolve(root, path) else { continue };
            if node.entry().kind != Kind::String {
                continue;
            }
            let Some(string) = node.as_string() else { continue };
            if let Some(to) = coerced(&string, &wanted) {
                let entry = node.entry();
                let pointer = if path.is_empty() { message::ROOT.to_owned() } else { path.to_owned() };
                edits.push((
                    entry.start as usize,
                    entry.end as usize,
                    Repair { pointer, from: node.raw().to_owned(), to },
                ));
            }
        }
        edits
    })
}

/// Repairs checked arguments (one JSON object) for `schema`, then checks
/// them: the repaired text and every repair, or the violations left.
pub(crate) fn repair<'a>(arguments: &'a str, schema: &Schema) -> Result<(Cow<'a, str>, Vec<Repair>), String> {
    let mut text = Cow::Borrowed(arguments);
    let mut repairs = Vec::new();
    for _ in 0..ROUNDS {
        let mut found = edits(schema, &text);
        if found.is_empty() {
            break;
        }
        found.sort_by_key(|(start, _, _)| *start);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end, repair) in found {
            if start < at {
                continue; // the same string reported twice
            }
            out.push_str(&text[at..start]);
            out.push_str(&repair.to);
            at = end;
            if !repairs.contains(&repair) {
                repairs.push(repair);
            }
        }
        out.push_str(&text[at..]);
        // What a repair pulled out of a string must pass the seed's rules
        // too (the depth limit above all).
        json::check(out.as_bytes(), &json::Required::NONE)?;
        text = Cow::Owned(out);
    }
    schema.validate_checked(&text).map_err(|violations: Vec<Violation>| message::join(&violations))?;
    Ok((text, repairs))
}
