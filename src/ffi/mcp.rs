//! The MCP server for C: serve a registry's tools to MCP clients, one
//! message at a time (`aikido_mcp_server_handle`, behind any transport) or
//! over two file descriptors (`aikido_mcp_server_serve_stdio`).

use std::ffi::{c_char, c_int};
use std::io::BufReader;

use super::cancel::aikido_cancel;
use super::handle::{self, Boxed, Handle};
use super::registry::aikido_registry;
use super::status::aikido_status;
use super::{boundary, byte_slice, invalid, optional_str, pair, slice, write_out};
use crate::mcp::{FdReader, McpServer, MAX_MESSAGE_BYTES};

/// An MCP server over one registry, with one MCP session (its calls run
/// with one session id, so the `bash` tool keeps one shell for it). Opaque
/// and thread-safe: `aikido_mcp_server_handle` may run on many threads at
/// once. Made by `aikido_mcp_server_new`, freed with `aikido_mcp_server_free`.
pub struct aikido_mcp_server {
    _private: [u8; 0],
}

// SAFETY: aikido_mcp_server is never constructed; its pointers are made by
// aikido_mcp_server_new, from a Box<McpServer> (whose registry the C
// contract keeps alive while the server lives).
unsafe impl Handle for aikido_mcp_server {
    type Target = McpServer<'static>;
}
// SAFETY: as above; aikido_mcp_server_free frees them.
unsafe impl Boxed for aikido_mcp_server {}

/// A new MCP server for `registry`, introducing itself as `name` (NULL:
/// "aikido") and `version` (NULL: the library's version). The registry is
/// borrowed: it must outlive the server, and its tools may change while the
/// server runs (clients of `aikido_mcp_server_serve_stdio` are told with
/// `notifications/tools/list_changed`). NULL when `registry` is NULL or a
/// string is not UTF-8. Free it with `aikido_mcp_server_free`.
///
/// The server speaks MCP 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25
/// (see docs/MCP.md): `initialize`, `ping`, `tools/list` (100 tools a page),
/// `tools/call`, `notifications/cancelled`; and 2026-07-28's stateless
/// requests: `server/discover`, requests naming their version in `_meta`
/// (another version there gets -32022), `subscriptions/listen` (over
/// `aikido_mcp_server_serve_stdio` only). Any other method gets -32601.
#[no_mangle]
pub unsafe extern "C" fn aikido_mcp_server_new(
    registry: *const aikido_registry,
    name: *const c_char,
    version: *const c_char,
) -> *mut aikido_mcp_server {
    boundary::value(|| {
        // SAFETY: the C contract: NULL or a live registry that outlives the server.
        let Some(registry) = (unsafe { handle::get(registry) }) else {
            return std::ptr::null_mut();
        };
        // SAFETY: NULL or NUL-terminated strings, by the C contract.
        let (Ok(name), Ok(version)) =
            (unsafe { optional_str(name, "name") }, unsafe { optional_str(version, "version") })
        else {
            return std::ptr::null_mut();
        };
        let name = if name.is_empty() { "aikido" } else { name };
        let version = if version.is_empty() { env!("CARGO_PKG_VERSION") } else { version };
        handle::into_raw(McpServer::new(registry, name, version))
    })
}

/// Frees a server. No call on it may be running. NULL does nothing.
#[no_mangle]
pub unsafe extern "C" fn aikido_mcp_server_free(server: *mut aikido_mcp_server) {
    // SAFETY: made by aikido_mcp_server_new, freed once, by the C contract.
    boundary::value(|| unsafe { handle::free(server) })
}

/// Handles one JSON-RPC message (`message_len` bytes, not necessarily
/// NUL-terminated; a batch for protocol versions 2024-11-05 and 2025-03-26)
/// and writes the response to `response_out`, or NULL when there is none
/// (a notification, or a call cancelled by `notifications/cancelled`).
/// Every protocol failure (invalid JSON, an unknown method, wrong params) is
/// a JSON-RPC error response with `AIKIDO_OK`; a tool's failure is a
/// `CallToolResult` with `isError: true`. A `tools/call` runs its handler
/// on the calling thread; another thread may meanwhile call this function
/// with `notifications/cancelled` to stop it. Fails with
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL server, a NULL message with a
/// length other than 0, or a length over 16 MiB (the cap every transport
/// keeps), refused before the message is read.
#[no_mangle]
pub unsafe extern "C" fn aikido_mcp_server_handle(
    server: *mut aikido_mcp_server,
    message: *const c_char,
    message_len: usize,
    response_out: *mut *mut c_char,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_mcp_server_handle", error_out, || {
        // SAFETY: the C contract: response_out is NULL or writable.
        unsafe { super::clear_out(response_out) };
        // SAFETY: the C contract on server and message.
        let server = unsafe { handle::borrow(server, "server") }?;
        let names = pair("message", "message_len");
        slice::check(message, message_len, names)?;
        if message_len > MAX_MESSAGE_BYTES {
            return Err(invalid(format!(
                "message_len is {message_len}, more than a message may hold (at most {MAX_MESSAGE_BYTES} bytes)"
            )));
        }
        // SAFETY: message is NULL or readable for message_len bytes, by the C contract.
        let message = unsafe { byte_slice(message, message_len, names) }?;
        if let Some(response) = server.handle_in(server.session(), message) {
            // SAFETY: as above.
            unsafe { write_out(response_out, response) };
        }
        Ok(())
    })
}

/// Serves MCP over newline-delimited JSON-RPC: reads messages from `in_fd`
/// and writes responses and notifications to `out_fd` (only JSON-RPC, one
/// message a line) until EOF on `in_fd` or until `stop` (may be NULL)
/// fires; then returns `AIKIDO_OK`. Calls run on worker threads (8 at
/// once), so requests are served while a long call runs; at EOF the calls
/// already read are answered first; when `stop` fires, or `out_fd` fails,
/// running calls are cancelled. A line over 16 MiB gets an error and is
/// skipped. The descriptors are not closed. Fails with
/// `AIKIDO_ERR_INVALID_INPUT` for a NULL server, a negative descriptor, or
/// when reading `in_fd` fails (the message says why).
#[no_mangle]
pub unsafe extern "C" fn aikido_mcp_server_serve_stdio(
    server: *mut aikido_mcp_server,
    in_fd: c_int,
    out_fd: c_int,
    stop: *const aikido_cancel,
    error_out: *mut *mut c_char,
) -> aikido_status {
    boundary::status("aikido_mcp_server_serve_stdio", error_out, || {
        // SAFETY: the C contract on server and stop.
        let server = unsafe { handle::borrow(server, "server") }?;
        // SAFETY: stop is NULL or a live handle, by the C contract.
        let stop = unsafe { handle::get(stop) }.cloned();
        if in_fd < 0 || out_fd < 0 {
            return Err(invalid(format!("file descriptors must not be negative (in_fd {in_fd}, out_fd {out_fd})")));
        }
        let reader = BufReader::with_capacity(64 * 1024, FdReader::new(in_fd, stop.clone()));
        server
            .serve_stdio(reader, crate::mcp::FdWriter::new(out_fd), stop.as_ref())
            .map_err(|problem| invalid(format!("reading file descriptor {in_fd} failed: {problem}")))
    })
}
