//! The registry for C: make, register, list, dispatch, free.

use std::ffi::{c_char, c_void, CString};

use super::cancel::aikido_cancel;
use super::handle::{self, Boxed, Handle};
use super::handler::{aikido_handler, aikido_userdata_free, CHandler};
use super::status::aikido_status;
use super::{boundary, byte_slice, invalid, optional_str, pair, reference, required_str, write_out};
use crate::environment::Environment;
use crate::error::Error;
use crate::registry::Registry;
use crate::tool::{ToolCall, ToolDefinition};

/// A registry of tools. Opaque; made by `aikido_registry_new`. Every function
/// on it may be called from many threads at once, except
/// `aikido_registry_free`.
pub struct aikido_registry {
    _private: [u8; 0],
}

// SAFETY: aikido_registry is never constructed; its pointers are made by
// aikido_registry_new, from a Box<Registry>.
unsafe impl Handle for aikido_registry {
    type Target = Registry;
}
// SAFETY: as above; aikido_registry_free frees them.
unsafe impl Boxed for aikido_registry {}

/// Per-call context passed to `aikido_registry_dispatch` and on to the
/// handler.
#[repr(C)]
pub struct aikido_environment {
    /// The agent session the call belongs to: NUL-terminated UTF-8. NULL
    /// means "".
    pub session_id: *const c_char,
    /// The model reply that made the call, as UUID bytes; calls of the same
    /// reply share it. All zero is the nil UUID.
    pub turn_id: [u8; 16],
    /// Fired when the caller no longer wants the result. NULL: never.
    pub cancel: *const aikido_cancel,
}

/// One tool call from a model reply.
#[repr(C)]
pub struct aikido_tool_call {
    /// The model's id for the call; not interpreted. May be NULL.
    pub id: *const c_char,
    /// The name of the tool to run: NUL-terminated UTF-8.
    pub name: *const c_char,
    /// The model's raw JSON arguments, `arguments_len` bytes, not necessarily
    /// NUL-terminated. May be NULL when `arguments_len` is 0 (empty arguments
    /// count as `{}`).
    pub arguments: *const c_char,
    /// How many bytes `arguments` holds.
    pub arguments_len: usize,
}

/// A new, empty registry. Free it with `aikido_registry_free`.
#[no_mangle]
pub extern "C" fn aikido_registry_new() -> *mut aikido_registry {
    boundary::value(|| handle::into_raw(Registry::new()))
}

/// Frees a registry and every tool in it, running each tool's
/// `userdata_free`. Must not race with any other call on the same registry,
/// and no handler of it may be running. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_free(registry: *mut aikido_registry) {
    // SAFETY: made by aikido_registry_new, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(registry) })
}

/// Registers a tool. `name` must be non-empty UTF-8; `description` may be
/// NULL; `parameters_json` is the JSON Schema of the arguments, or NULL (or
/// "") for none. Its `required` list is read once, here, and enforced by
/// every dispatch; valid JSON that is not an object enforces nothing.
///
/// `handler` runs the tool with `userdata`; it may run on many threads at
/// once. On `AIKIDO_OK` the registry owns `userdata`: `userdata_free` (if not
/// NULL) runs exactly once, on some thread, when the tool is unregistered and
/// its last in-flight call has returned, or when the registry is freed. On
/// any failure the caller still owns `userdata`.
///
/// Returns `AIKIDO_ERR_DUPLICATE_TOOL` when the name is taken, and
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL registry, name or handler, an empty
/// name, text that is not UTF-8, or parameters that are not valid JSON.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // The shape docs/C-API.md fixes.
pub unsafe extern "C" fn aikido_registry_register(
    registry: *mut aikido_registry,
    name: *const c_char,
    description: *const c_char,
    parameters_json: *const c_char,
    handler: aikido_handler,
    userdata: *mut c_void,
    userdata_free: aikido_userdata_free,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_register", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers, per the contract above.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: name is NULL or a NUL-terminated string, by the C contract.
        let name = unsafe { required_str(name, "name") }?;
        // SAFETY: description is NULL or a NUL-terminated string, by the C contract.
        let description = unsafe { optional_str(description, "description") }?;
        // SAFETY: parameters_json is NULL or a NUL-terminated string, by the C contract.
        let parameters = unsafe { optional_str(parameters_json, "parameters_json") }?;
        let handler =
            CHandler::new(name, handler, userdata, userdata_free).ok_or_else(|| invalid("handler is NULL"))?;
        let definition = ToolDefinition {
            name: name.to_owned(),
            description: description.to_owned(),
            parameters: (!parameters.is_empty()).then(|| parameters.to_owned()),
        };
        registry.try_register(definition, handler).map_err(|rejected| {
            rejected.handler.release();
            rejected.error
        })
    })
}

/// Removes a tool. Calls of it already running finish first; then its
/// `userdata_free` runs. Returns `AIKIDO_ERR_UNKNOWN_TOOL` when no tool has
/// that name, `AIKIDO_ERR_INVALID_INPUT` for NULL or non-UTF-8 input.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_unregister(
    registry: *mut aikido_registry,
    name: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_unregister", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: name is NULL or a NUL-terminated string, by the C contract.
        registry.unregister(unsafe { required_str(name, "name") }?)
    })
}

/// Writes every definition, in registration order, to `json_out` as a JSON
/// array of `{"name":…,"description":…,"parameters":…}` (description left out
/// when empty, parameters when none were given), ready to send to a model.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_definitions(
    registry: *const aikido_registry,
    json_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_definitions", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers.
        unsafe { super::clear_out(json_out) };
        // SAFETY: registry is NULL or a live handle, by the C contract.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        if !json_out.is_null() {
            let json = registry.with_definitions_json(copy_json_to_c_string);
            // SAFETY: json_out is not NULL and writable.
            unsafe { *json_out = json };
        }
        Ok(())
    })
}

/// A caller-owned copy of JSON the library wrote, allocated once. Such JSON
/// escapes every control character, so unlike other text it needs no scan
/// for NUL bytes (which would cost more than the copy: 33 KB for 100 tools).
fn copy_json_to_c_string(json: &str) -> *mut c_char {
    debug_assert!(!json.as_bytes().contains(&0));
    let mut bytes = Vec::with_capacity(json.len() + 1);
    bytes.extend_from_slice(json.as_bytes());
    // SAFETY: the JSON holds no NUL, as said above.
    unsafe { CString::from_vec_unchecked(bytes) }.into_raw()
}

/// How many tools are registered; 0 for NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_len(registry: *const aikido_registry) -> usize {
    // SAFETY: the caller passes NULL or a live registry.
    boundary::value(|| unsafe { handle::borrow(registry, "registry") }.map_or(0, Registry::len))
}

/// Dispatches one tool call to its handler.
///
/// In order: an unknown name gives `AIKIDO_ERR_UNKNOWN_TOOL`; arguments that
/// are not one JSON object, or lack a required field (or hold it as null),
/// give `AIKIDO_ERR_INVALID_ARGUMENTS`; a fired cancellation token gives
/// `AIKIDO_ERR_CANCELLED`; then the handler runs. Its content goes to
/// `content_out` on `AIKIDO_OK` ("" when it set none); otherwise `error_out`
/// receives a message written for the model. `environment` may be NULL (no
/// session, nil turn, never cancelled).
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_dispatch(
    registry: *const aikido_registry,
    call: *const aikido_tool_call,
    environment: *const aikido_environment,
    content_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_dispatch", error_out, || {
        // SAFETY: content_out is NULL or writable, by the C contract.
        unsafe { super::clear_out(content_out) };
        // SAFETY: registry is NULL or live, by the C contract.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: call and environment are NULL or valid for this call, as
        // aikido_tool_call and aikido_environment document.
        let (call, environment) = unsafe { call_parts(call, environment) }?;
        let result = registry.dispatch(&call, &environment)?;
        // SAFETY: content_out is NULL or writable.
        unsafe { write_out(content_out, result.content) };
        Ok(())
    })
}

/// The call and environment a dispatch reads, converted (the same steps as
/// in `aikido_registry_dispatch`, for `aikido_registry_dispatch_ex`).
///
/// # Safety
/// `call` and `environment` are NULL or valid, as documented on
/// `aikido_tool_call` and `aikido_environment`, for `'a`.
pub(crate) unsafe fn call_parts<'a>(
    call: *const aikido_tool_call,
    environment: *const aikido_environment,
) -> Result<(ToolCall<'a>, Environment<'a>), Error> {
    // SAFETY: call is NULL or a valid aikido_tool_call, by this function's contract.
    let call = unsafe { reference(call, "call") }?;
    // SAFETY: its strings are NULL or valid, as aikido_tool_call documents, for 'a.
    let call = unsafe {
        ToolCall {
            id: optional_str(call.id, "call->id")?,
            name: required_str(call.name, "call->name")?,
            arguments: byte_slice(call.arguments, call.arguments_len, pair("call->arguments", "call->arguments_len"))?,
        }
    };
    // SAFETY: environment is NULL or a valid aikido_environment, by this function's contract.
    let environment = unsafe { environment_parts(environment) }?;
    Ok((call, environment))
}

/// The environment a call runs in, converted; NULL is the default (no
/// session, nil turn, never cancelled).
///
/// # Safety
/// `environment` is NULL or valid, as documented on `aikido_environment`,
/// for `'a`.
pub(crate) unsafe fn environment_parts<'a>(environment: *const aikido_environment) -> Result<Environment<'a>, Error> {
    // SAFETY: NULL or a valid aikido_environment, by this function's contract.
    Ok(match unsafe { environment.as_ref() } {
        None => Environment::default(),
        // SAFETY: its session id and token are NULL or valid, as
        // aikido_environment documents, for 'a.
        Some(environment) => unsafe {
            Environment {
                session_id: optional_str(environment.session_id, "environment->session_id")?,
                turn_id: uuid::Uuid::from_bytes(environment.turn_id),
                cancel: handle::get(environment.cancel),
            }
        },
    })
}
