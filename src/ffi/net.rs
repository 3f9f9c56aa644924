//! The shell's network policy for C: build one, then hand it to a shell
//! (`aikido_shell_new_with_network`) or to the `bash` tool
//! (`aikido_registry_register_shell_tool_with_network`). Each takes a copy,
//! so the policy may be freed or changed afterwards.

use std::ffi::c_char;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::handle::{self, Boxed, Handle};
use super::registry::aikido_registry;
use super::shell::{self, aikido_shell, aikido_shell_limits};
use super::status::aikido_status;
use super::storage::{self, aikido_storage};
use super::{boundary, invalid, required_str};
use crate::net::NetworkPolicy;
use crate::shell::{register_shell_tool, Shell, ShellOptions};

/// What a shell's `curl` and `wget` may reach: allowed URL prefixes,
/// methods (GET and HEAD by default), address ranges (public ones only by
/// default), headers attached per prefix, and per-request limits. Made by
/// `aikido_network_policy_new`, freed with `aikido_network_policy_free`.
/// Not thread-safe while being changed.
pub struct aikido_network_policy {
    _private: [u8; 0],
}

// SAFETY: aikido_network_policy is never constructed; its pointers are made
// by aikido_network_policy_new, from a Box<NetworkPolicy>.
unsafe impl Handle for aikido_network_policy {
    type Target = NetworkPolicy;
}
// SAFETY: as above; aikido_network_policy_free frees them.
unsafe impl Boxed for aikido_network_policy {}

/// Limits of a network policy. A field of 0 keeps the value the policy
/// has (the defaults are in brackets).
#[repr(C)]
pub struct aikido_network_limits {
    /// Time one request may take, connect to last byte, in milliseconds [30000].
    pub timeout_milliseconds: u64,
    /// Bytes of one response body; past it the transfer stops (curl's exit
    /// code 63) [10485760].
    pub max_response_bytes: u64,
    /// Requests of one run of a script; each redirect hop is one [50].
    pub max_requests: u32,
    /// Redirects one command follows [10].
    pub max_redirects: u32,
}

/// A policy that allows nothing yet: add prefixes with
/// `aikido_network_policy_allow_url`. Never NULL.
#[no_mangle]
pub extern "C" fn aikido_network_policy_new() -> *mut aikido_network_policy {
    boundary::value(|| handle::into_raw(NetworkPolicy::new()))
}

/// Frees a policy. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_free(policy: *mut aikido_network_policy) {
    // SAFETY: NULL or a pointer from aikido_network_policy_new, freed once.
    boundary::value(|| unsafe { handle::free(policy) })
}

/// Runs `change` on the policy behind `policy`.
///
/// # Safety
/// `policy` is NULL or a live handle no other thread uses.
unsafe fn change(
    policy: *mut aikido_network_policy,
    change: impl FnOnce(&mut NetworkPolicy) -> Result<(), crate::Error>,
) -> Result<(), crate::Error> {
    // SAFETY: NULL or a live handle, by this function's contract.
    let policy = unsafe { handle::get_mut(policy) }.ok_or_else(|| invalid("policy is NULL"))?;
    change(policy)
}

/// Allows the URLs under `prefix` (NUL-terminated): `https://api.example.com/v1`
/// allows that scheme, host and port, and the paths under `/v1` on segment
/// boundaries, matched on the parsed, normalised URL.
/// `AIKIDO_ERR_INVALID_INPUT` (with a message) for a prefix that is not an
/// http or https URL, or has a user, a query or a fragment.
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_allow_url(
    policy: *mut aikido_network_policy,
    prefix: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_network_policy_allow_url", error_out, || {
        // SAFETY: the caller passes NULL or a live handle, and a NUL-terminated string.
        unsafe {
            change(policy, |policy| {
                let prefix = required_str(prefix, "prefix")?;
                policy.allow_url(prefix).map(drop).map_err(|error| invalid(error.to_string()))
            })
        }
    })
}

/// Allows the addresses of a range (`127.0.0.1/32`, `10.0.0.0/8`, `::1`;
/// a bare address is a range of one). Loopback, private, link-local and
/// cloud-metadata addresses are refused unless a range names them.
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_allow_address(
    policy: *mut aikido_network_policy,
    range: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_network_policy_allow_address", error_out, || {
        // SAFETY: as aikido_network_policy_allow_url.
        unsafe {
            change(policy, |policy| {
                let range = required_str(range, "range")?;
                policy.allow_address(range).map(drop).map_err(|error| invalid(error.to_string()))
            })
        }
    })
}

/// Allows a method besides GET and HEAD (`POST`, `PUT`…).
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_allow_method(
    policy: *mut aikido_network_policy,
    method: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_network_policy_allow_method", error_out, || {
        // SAFETY: as aikido_network_policy_allow_url.
        unsafe {
            change(policy, |policy| {
                let method = required_str(method, "method")?;
                policy.allow_method(method).map(drop).map_err(|error| invalid(error.to_string()))
            })
        }
    })
}

/// Attaches `name: value` to every request under `prefix` (a token, say).
/// The script never sees the value: not in its environment, not in
/// `curl -v`; a header of that name the script sets is replaced.
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_attach_header(
    policy: *mut aikido_network_policy,
    prefix: *const c_char,
    name: *const c_char,
    value: *const c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_network_policy_attach_header", error_out, || {
        // SAFETY: as aikido_network_policy_allow_url, for three strings.
        unsafe {
            change(policy, |policy| {
                let prefix = required_str(prefix, "prefix")?;
                let name = required_str(name, "name")?;
                let value = required_str(value, "value")?;
                policy.attach_header(prefix, name, value).map(drop).map_err(|error| invalid(error.to_string()))
            })
        }
    })
}

/// Sets the policy's limits; each field of 0 keeps the policy's value.
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL policy or limits.
#[no_mangle]
pub unsafe extern "C" fn aikido_network_policy_set_limits(
    policy: *mut aikido_network_policy,
    limits: *const aikido_network_limits,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_network_policy_set_limits", error_out, || {
        // SAFETY: as aikido_network_policy_allow_url; limits is NULL or readable.
        unsafe {
            change(policy, |policy| {
                // SAFETY: NULL or readable, by the C contract.
                let limits = super::reference(limits, "limits")?;
                if limits.timeout_milliseconds != 0 {
                    policy.set_timeout(Duration::from_millis(limits.timeout_milliseconds));
                }
                if limits.max_response_bytes != 0 {
                    policy.set_max_response_bytes(limits.max_response_bytes);
                }
                if limits.max_requests != 0 {
                    policy.set_max_requests(limits.max_requests);
                }
                if limits.max_redirects != 0 {
                    policy.set_max_redirects(limits.max_redirects);
                }
                Ok(())
            })
        }
    })
}

/// Shell options from C limits and a policy (copied; NULL: no network).
///
/// # Safety
/// `limits` is NULL or readable; `policy` is NULL or a live handle.
unsafe fn options_with(limits: *const aikido_shell_limits, policy: *const aikido_network_policy) -> ShellOptions {
    // SAFETY: NULL or readable, by this function's contract.
    let mut options = unsafe { shell::options(limits) };
    // SAFETY: NULL or a live handle, by this function's contract.
    options.network = unsafe { handle::get(policy) }.map(|policy| Arc::new(policy.clone()));
    options
}

/// As `aikido_shell_new`, with a network policy (copied; NULL: no network,
/// as `aikido_shell_new`). NULL when `storage` is NULL.
#[no_mangle]
pub unsafe extern "C" fn aikido_shell_new_with_network(
    storage: *const aikido_storage,
    limits: *const aikido_shell_limits,
    policy: *const aikido_network_policy,
) -> *mut aikido_shell {
    boundary::value(|| {
        // SAFETY: the caller passes NULL or a live handle.
        let Ok(storage) = (unsafe { storage::shared(storage, "storage") }) else { return std::ptr::null_mut() };
        // SAFETY: limits NULL or readable, policy NULL or live, by the C contract.
        let options = unsafe { options_with(limits, policy) };
        shell::into_handle(Mutex::new(Shell::new(storage.clone(), options.clone())), storage, options)
    })
}

/// As `aikido_registry_register_shell_tool`, with a network policy
/// (copied; NULL: no network) for every session's shell.
#[no_mangle]
pub unsafe extern "C" fn aikido_registry_register_shell_tool_with_network(
    registry: *mut aikido_registry,
    storage: *const aikido_storage,
    limits: *const aikido_shell_limits,
    policy: *const aikido_network_policy,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_registry_register_shell_tool_with_network", error_out, || {
        // SAFETY: the caller passes a live registry and a live storage handle.
        let registry = unsafe { handle::borrow(registry, "registry") }?;
        // SAFETY: as above.
        let storage = unsafe { storage::shared(storage, "storage") }?;
        // SAFETY: limits NULL or readable, policy NULL or live, by the C contract.
        register_shell_tool(registry, storage, unsafe { options_with(limits, policy) })
    })
}
