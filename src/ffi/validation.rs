//! Full argument validation for C: choose the mode, and dispatch with the
//! repairs REPAIR mode made (docs/VALIDATION.md).

use std::ffi::c_char;

use super::registry::{aikido_environment, aikido_registry, aikido_tool_call, call_parts};
use super::status::aikido_status;
use super::{boundary, handle, invalid, write_out};
use crate::validation::{repairs_json, ValidationMode};

/// The seed's check: one JSON object holding every required field, not
/// null. The default.
pub const AIKIDO_VALIDATE_REQUIRED: u32 = 0;
/// The whole schema (JSON Schema 2020-12, and the draft-07 keywords tool
/// schemas still use); every violation reported at its JSON Pointer.
pub const AIKIDO_VALIDATE_FULL: u32 = 1;
/// FULL, after coercing what the schema makes unambiguous (a string holding
/// the object or array wanted, a numeric string for a number, "true" or
/// "false" for a boolean). Implies FULL: 2 alone is REPAIR with FULL, and
/// `FULL | REPAIR` (3) means the same.
pub const AIKIDO_VALIDATE_REPAIR: u32 = 2;

/// Sets how every dispatch (and `respond`) on this registry checks arguments:
/// `AIKIDO_VALIDATE_REQUIRED`, `AIKIDO_VALIDATE_FULL` or
/// `AIKIDO_VALIDATE_REPAIR` (alone or with FULL). Switching to FULL or REPAIR
/// compiles the schema of every tool registered so far; if one is not valid
/// JSON Schema, returns `AIKIDO_ERR_INVALID_INPUT` naming the tool and the
/// reason, and the mode stays as it was. In FULL and REPAIR mode,
/// `aikido_registry_register` refuses such a schema the same way. Any other
/// mode value is `AIKIDO_ERR_INVALID_INPUT`.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_set_validation(
    registry: *mut aikido_registry,
    mode: u32,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_set_validation", error_out, || {
        // SAFETY: the caller passes NULL or a live registry.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        let mode = match mode {
            AIKIDO_VALIDATE_REQUIRED => ValidationMode::Required,
            AIKIDO_VALIDATE_FULL => ValidationMode::Full,
            2 | 3 => ValidationMode::Repair,
            other => {
                return Err(invalid(format!(
                    "{other} is not a validation mode (AIKIDO_VALIDATE_REQUIRED 0, AIKIDO_VALIDATE_FULL 1, \
                     AIKIDO_VALIDATE_REPAIR 2)"
                )))
            }
        };
        registry.set_validation(mode)
    })
}

/// `aikido_registry_dispatch`, and on `AIKIDO_OK` also the repairs REPAIR
/// mode made to the arguments before the handler ran, as a JSON array
/// written to `repairs_out`: `[{"pointer":"/limit","from":"200","to":200}]`
/// (`from` is the string the model sent, `to` the value the handler got;
/// `[]` when nothing was repaired). `repairs_out` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_dispatch_ex(
    registry: *const aikido_registry,
    call: *const aikido_tool_call,
    environment: *const aikido_environment,
    content_out: *mut *mut c_char,
    repairs_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_dispatch_ex", error_out, || {
        // SAFETY: the caller passes NULL or valid pointers, as documented on
        // aikido_tool_call and aikido_environment.
        unsafe { super::clear_out(content_out) };
        // SAFETY: repairs_out is NULL or writable, by the C contract.
        unsafe { super::clear_out(repairs_out) };
        // SAFETY: registry is NULL or a live handle, by the C contract.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: call and environment are NULL or valid for this call, as aikido_tool_call and aikido_environment document.
        let (call, environment) = unsafe { call_parts(call, environment) }?;
        let result = registry.dispatch(&call, &environment)?;
        // SAFETY: both outputs are NULL or writable.
        unsafe { write_out(content_out, result.content) };
        if !repairs_out.is_null() {
            // SAFETY: repairs_out is NULL or writable, by the C contract.
            unsafe { write_out(repairs_out, repairs_json(&result.repairs)) };
        }
        Ok(())
    })
}
