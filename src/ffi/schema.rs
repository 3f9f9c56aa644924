//! The schema helpers for C: each returns JSON text the caller frees with
//! `aikido_string_free`, keys sorted at every level, no whitespace.

use std::ffi::c_char;

use serde_json::Value;

use super::{boundary, copy_to_c_string, invalid, optional_str, pair, str_array, write_out};
use crate::error::Error;
use crate::ffi::status::aikido_status;
use crate::schema;

/// A built schema as a caller-owned string; NULL when an input was invalid.
fn schema_text(built: Result<Value, Error>) -> *mut c_char {
    built.map_or(std::ptr::null_mut(), |schema| copy_to_c_string(&schema.to_string()))
}

fn parse_json(text: &str, what: &str) -> Result<Value, Error> {
    crate::json::parse_value(text.as_bytes()).map_err(|error| invalid(format!("{what} is not valid JSON: {error}")))
}

/// `{"description":…,"type":"string"}`. A NULL or empty description is left
/// out. Returns NULL when the description is not UTF-8.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_string(description: *const c_char) -> *mut c_char {
    // SAFETY: the caller passes NULL or a NUL-terminated string.
    boundary::value(|| schema_text(unsafe { optional_str(description, "description") }.map(schema::string)))
}

/// `{"description":…,"type":"integer"}`; as `aikido_schema_string`.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_integer(description: *const c_char) -> *mut c_char {
    // SAFETY: as above.
    boundary::value(|| schema_text(unsafe { optional_str(description, "description") }.map(schema::integer)))
}

/// `{"description":…,"type":"number"}`; as `aikido_schema_string`.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_number(description: *const c_char) -> *mut c_char {
    // SAFETY: as above.
    boundary::value(|| schema_text(unsafe { optional_str(description, "description") }.map(schema::number)))
}

/// `{"description":…,"type":"boolean"}`; as `aikido_schema_string`.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_boolean(description: *const c_char) -> *mut c_char {
    // SAFETY: as above.
    boundary::value(|| schema_text(unsafe { optional_str(description, "description") }.map(schema::boolean)))
}

/// `{"description":…,"enum":[…],"type":"string"}` with the `values_len`
/// strings at `values`, in order. Returns NULL when `values` is NULL with a
/// non-zero length, or any string is NULL or not UTF-8.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_enum(
    description: *const c_char,
    values: *const *const c_char,
    values_len: usize,
) -> *mut c_char {
    boundary::value(|| {
        // SAFETY: the caller passes valid strings and an array of values_len strings.
        schema_text(unsafe { optional_str(description, "description") }.and_then(|description| {
            // SAFETY: values is NULL or values_len readable string pointers, by the C contract.
            let values = unsafe { str_array(values, values_len, pair("values", "values_len")) }?;
            Ok(schema::enumeration(description, &values))
        }))
    })
}

/// `{"description":…,"items":…,"type":"array"}`, where `items_json` is the
/// JSON schema of one item. Returns NULL when `items_json` is NULL or not
/// valid JSON, or the description is not UTF-8.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_array(items_json: *const c_char, description: *const c_char) -> *mut c_char {
    boundary::value(|| {
        // SAFETY: the caller passes valid strings.
        schema_text(unsafe { super::required_str(items_json, "items_json") }.and_then(|items| {
            // SAFETY: description is NULL or a NUL-terminated string, by the C contract.
            let description = unsafe { optional_str(description, "description") }?;
            Ok(schema::array(parse_json(items, "items_json")?, description))
        }))
    })
}

/// `{"properties":{…},"required":[…],"type":"object"}`: property `names[i]`
/// has the schema `schemas_json[i]`, for `len` properties; `required` lists
/// `required_len` names, kept in that order. No properties (`len` 0) leave
/// `properties` out; no required names leave `required` out; a name given
/// twice keeps its last schema. Writes the schema to `json_out`; returns
/// `AIKIDO_ERR_INVALID_INPUT` with a message in `error_out` when an array is
/// NULL with a non-zero length, a string is NULL or not UTF-8, or a schema is
/// not valid JSON.
#[no_mangle]
pub unsafe extern "C" fn aikido_schema_object(
    names: *const *const c_char,
    schemas_json: *const *const c_char,
    len: usize,
    required: *const *const c_char,
    required_len: usize,
    json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_schema_object", error_out, || {
        // SAFETY: the C contract: NULL or a writable pointer.
        unsafe { super::clear_out(json_out) };
        // SAFETY: the caller passes arrays of len and required_len strings.
        let names = unsafe { str_array(names, len, pair("names", "len")) }?;
        // SAFETY: schemas_json is NULL or len readable string pointers, by the C contract.
        let schemas = unsafe { str_array(schemas_json, len, pair("schemas_json", "len")) }?;
        // SAFETY: required is NULL or required_len readable string pointers, by the C contract.
        let required = unsafe { str_array(required, required_len, pair("required", "required_len")) }?;
        let properties = names
            .into_iter()
            .zip(schemas)
            .enumerate()
            .map(|(index, (name, text))| Ok((name, parse_json(text, &format!("schemas_json[{index}]"))?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let schema = schema::object(properties, &required);
        // SAFETY: as above.
        unsafe { write_out(json_out, schema.to_string()) };
        Ok(())
    })
}
