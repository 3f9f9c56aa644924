//! The provider dialects for C (SPEC section 4): definitions in a
//! provider's `tools` format, the tool calls of a model reply, and one call
//! that runs them and writes the messages to append. Conversions only: the
//! rules live in src/dialect.

use std::ffi::c_char;

use super::collections::{self, aikido_tool_calls};
use super::registry::{aikido_environment, aikido_registry, environment_parts};
use super::status::aikido_status;
use super::{boundary, handle, pair, text_slice, write_out};
use crate::dialect::{self, Dialect};

/// The library's own shapes: the definitions `aikido_registry_definitions`
/// writes, calls `[{"id","name","arguments"}]`, results
/// `[{"id","name","content"}]` or `{"id","name","error"}`.
pub const AIKIDO_DIALECT_NEUTRAL: u32 = 0;
/// OpenAI Chat Completions.
pub const AIKIDO_DIALECT_OPENAI_CHAT: u32 = 1;
/// OpenAI Responses.
pub const AIKIDO_DIALECT_OPENAI_RESPONSES: u32 = 2;
/// Anthropic Messages.
pub const AIKIDO_DIALECT_ANTHROPIC: u32 = 3;
/// Google Gemini.
pub const AIKIDO_DIALECT_GEMINI: u32 = 4;
/// MCP: definitions only (a `ListToolsResult`).
pub const AIKIDO_DIALECT_MCP: u32 = 5;

/// Flag: OpenAI/Anthropic strict mode, both directions. Definitions are
/// rewritten as strict mode demands; `aikido_registry_respond` drops a
/// `null` sent for a property the original schema did not require.
pub const AIKIDO_STRICT: u32 = 1;
/// Flag for `aikido_registry_respond`: run the calls one after the other, in
/// order, on the calling thread.
pub const AIKIDO_RESPOND_SEQUENTIAL: u32 = 2;

/// A caller-owned copy of JSON the library wrote, allocated once. Such JSON
/// escapes every control character (names, descriptions and results are
/// written as JSON strings; schemas were checked to be JSON at
/// registration), so unlike other text it needs no scan for NUL bytes.
fn copy_json(json: &str) -> *mut c_char {
    debug_assert!(!json.as_bytes().contains(&0));
    let mut bytes = Vec::with_capacity(json.len() + 1);
    bytes.extend_from_slice(json.as_bytes());
    // SAFETY: the JSON holds no NUL, as said above.
    unsafe { std::ffi::CString::from_vec_unchecked(bytes) }.into_raw()
}

/// Writes every definition, in registration order, in `dialect`'s format
/// (an `AIKIDO_DIALECT_*` value) to `json_out`; `flags` may hold
/// `AIKIDO_STRICT`. Made once per change of the registry, like
/// `aikido_registry_definitions`.
///
/// Returns `AIKIDO_ERR_INVALID_INPUT` for an unknown dialect or flag, and
/// when a tool's name or schema cannot be written in the dialect (the
/// message names the tool and the rule); nothing is written then.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_definitions_for(
    registry: *const aikido_registry,
    dialect: u32,
    flags: u32,
    json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_definitions_for", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers.
        unsafe { super::clear_out(json_out) };
        // SAFETY: registry is NULL or a live handle, by the C contract.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        let dialect = Dialect::from_code_checked(dialect)?;
        let json = registry.with_definitions_for(dialect, flags, copy_json)?;
        if json_out.is_null() {
            // SAFETY: made by copy_to_c_string just above.
            drop(unsafe { std::ffi::CString::from_raw(json) });
        } else {
            // SAFETY: json_out is not NULL and writable.
            unsafe { *json_out = json };
        }
        Ok(())
    })
}

/// Reads the tool calls of a model reply (`reply_len` bytes of UTF-8: the
/// provider's whole response body or its relevant part, SPEC section 4) and
/// writes them to `calls_json_out` as the neutral list
/// `[{"id","name","arguments"}]` (arguments as a JSON string). A reply
/// without calls gives `[]`. Returns `AIKIDO_ERR_INVALID_INPUT`, saying
/// where, for a reply that cannot be read.
///
/// Deprecated: use `aikido_tool_calls_read`, which gives the same calls as
/// `aikido_tool_call` structs (this JSON form stays, unchanged, for one
/// minor version).
#[no_mangle]
pub unsafe extern "C" fn aikido_tool_calls_parse(
    dialect: u32,
    reply: *const c_char,
    reply_len: usize,
    calls_json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_tool_calls_parse", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers.
        unsafe { super::clear_out(calls_json_out) };
        let dialect = Dialect::from_code_checked(dialect)?;
        // SAFETY: reply is NULL or readable for reply_len bytes, by the C contract.
        let reply = unsafe { text_slice(reply, reply_len, pair("reply", "reply_len")) }?;
        let json = dialect::tool_calls_parse_json(dialect, reply)?;
        // SAFETY: calls_json_out is NULL or writable.
        unsafe { write_out(calls_json_out, json) };
        Ok(())
    })
}

/// Reads the tool calls of a model reply (`reply_len` bytes of UTF-8, as
/// `aikido_tool_calls_parse` takes) and writes to `*calls_out` (required)
/// an array of them in reply order, to read with `aikido_tool_calls_len` and
/// `aikido_tool_calls_get` (each an `aikido_tool_call` ready for
/// `aikido_registry_dispatch`) and free with `aikido_tool_calls_free`. A
/// reply without calls gives an empty array. Returns
/// `AIKIDO_ERR_INVALID_INPUT`, saying where, for a reply that cannot be
/// read; `*calls_out` is NULL then.
#[no_mangle]
pub unsafe extern "C" fn aikido_tool_calls_read(
    dialect: u32,
    reply: *const c_char,
    reply_len: usize,
    calls_out: *mut *mut aikido_tool_calls,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_tool_calls_read", error_out, || {
        // SAFETY: calls_out is NULL or writable and reply NULL or readable
        // for reply_len bytes, by the C contract.
        unsafe {
            collections::hand_out(calls_out, || {
                let dialect = Dialect::from_code_checked(dialect)?;
                let reply = text_slice(reply, reply_len, pair("reply", "reply_len"))?;
                Ok(collections::tool_calls(dialect::tool_calls_parse(dialect, reply)?))
            })
        }
    })
}

/// Runs the tool calls of a model reply and writes to `messages_out` the
/// JSON array to append to the next request, in `dialect`'s format, results
/// in call order (SPEC section 4).
///
/// The calls go through `aikido_registry_dispatch`'s checks with
/// `environment` (one turn id for all; NULL: no session, nil turn, never
/// cancelled), at once on a bounded set of threads unless `flags` holds
/// `AIKIDO_RESPOND_SEQUENTIAL`. Every per-call failure becomes an error
/// result with dispatch's text, flagged where the dialect can. With
/// `AIKIDO_STRICT`, nulls strict mode made the model send are dropped first.
/// Returns `AIKIDO_ERR_INVALID_INPUT` only when the reply cannot be read (or
/// the dialect or a flag is unknown).
#[no_mangle]
#[allow(clippy::too_many_arguments)] // The shape SPEC fixes.
pub unsafe extern "C" fn aikido_registry_respond(
    registry: *const aikido_registry,
    dialect: u32,
    reply: *const c_char,
    reply_len: usize,
    environment: *const aikido_environment,
    flags: u32,
    messages_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_respond", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers.
        unsafe { super::clear_out(messages_out) };
        // SAFETY: registry is NULL or a live handle, by the C contract.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        let dialect = Dialect::from_code_checked(dialect)?;
        // SAFETY: reply is NULL or readable for reply_len bytes, by the C contract.
        let reply = unsafe { text_slice(reply, reply_len, pair("reply", "reply_len")) }?;
        // SAFETY: environment is NULL or valid for this call, as aikido_environment documents.
        let environment = unsafe { environment_parts(environment) }?;
        let json = registry.respond(dialect, reply, &environment, flags)?;
        if !messages_out.is_null() {
            // SAFETY: messages_out is not NULL and writable.
            unsafe { *messages_out = copy_json(&json) };
        }
        Ok(())
    })
}
