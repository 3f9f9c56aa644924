//! Arbitrary messages through `aikido_mcp_server_handle`, one per line of
//! the input, on a server whose session was initialized first (so that
//! tools/list and tools/call are reached) and on one that was not. Every
//! response must be one JSON value (a JSON-RPC response or a batch of them),
//! and a line that is not JSON must get the parse error -32700. Leaks and
//! double frees trip the sanitizers.

#![no_main]

use std::ffi::{c_char, c_void};
use std::ptr;

use aikido::ffi::handler::{aikido_reply, aikido_reply_set_content, aikido_reply_set_error};
use aikido::ffi::mcp::*;
use aikido::ffi::registry::*;
use aikido::ffi::status::*;
use libfuzzer_sys::fuzz_target;

extern "C" fn echo(
    _: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    unsafe { aikido_reply_set_content(reply, arguments, arguments_len) }
}

extern "C" fn fail(
    _: *mut c_void,
    _: *const c_char,
    _: usize,
    _: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    unsafe { aikido_reply_set_error(reply, c"no".as_ptr(), 2) };
    AIKIDO_ERR_TOOL_FAILED
}

const INITIALIZE: &[u8] =
    br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}"#;

/// Handles one message and checks the response.
fn handle(server: *mut aikido_mcp_server, message: &[u8]) {
    let mut response: *mut c_char = ptr::null_mut();
    let mut error: *mut c_char = ptr::null_mut();
    let status = unsafe { aikido_mcp_server_handle(server, message.as_ptr().cast(), message.len(), &mut response, &mut error) };
    assert_eq!(status, AIKIDO_OK, "handle failed");
    assert!(error.is_null());
    if response.is_null() {
        return;
    }
    let text = unsafe { std::ffi::CStr::from_ptr(response) }.to_str().expect("a UTF-8 response").to_owned();
    unsafe { aikido::ffi::status::aikido_string_free(response) };
    let value: serde_json::Value = serde_json::from_str(&text).expect("the response is JSON");
    let replies = match &value {
        serde_json::Value::Array(items) => items.clone(),
        _ => vec![value.clone()],
    };
    for reply in &replies {
        assert_eq!(reply["jsonrpc"], "2.0", "{text}");
        assert!(reply.get("result").is_some() != reply.get("error").is_some(), "{text}");
    }
    if serde_json::from_slice::<serde::de::IgnoredAny>(message).is_err() && std::str::from_utf8(message).is_ok() {
        // serde_json and the server agree on what JSON is; its recursion
        // limit is the server's too.
        assert_eq!(value["error"]["code"], -32700, "{text}");
    }
}

fuzz_target!(|data: &[u8]| {
    let registry = aikido_registry_new();
    unsafe {
        aikido_registry_register(registry, c"echo".as_ptr(), ptr::null(), ptr::null(), Some(echo), ptr::null_mut(), None, ptr::null_mut());
        aikido_registry_register(registry, c"fail".as_ptr(), c"Fails.".as_ptr(), cr#"{"type":"object","required":["x"]}"#.as_ptr(), Some(fail), ptr::null_mut(), None, ptr::null_mut());
    }
    for initialized in [true, false] {
        let server = unsafe { aikido_mcp_server_new(registry, c"fuzz".as_ptr(), ptr::null()) };
        assert!(!server.is_null());
        if initialized {
            handle(server, INITIALIZE);
        }
        for line in data.split(|&byte| byte == b'\n').take(64) {
            handle(server, line);
        }
        unsafe { aikido_mcp_server_free(server) };
    }
    unsafe { aikido_registry_free(registry) };
});
