//! Millions of dispatches mixing good calls, bad arguments, unknown tools,
//! failing and panicking handlers; the resident set must stay flat.
//!
//! Most calls go through the C ABI (where a leaked message string would
//! show); real Rust panics need a Rust handler, so a tenth go to a native
//! registry. `AIKIDO_SOAK_DISPATCHES` sets the count (1,000,000 by default;
//! tests/reliability runs 10,000,000 in release mode).

mod common;

use std::ffi::{c_char, c_void, CStr};
use std::ptr;

use aikido::ffi::handler::{aikido_reply, aikido_reply_set_error};
use aikido::ffi::registry::*;
use aikido::ffi::status::*;
use aikido::{Environment, Error, Registry, ToolCall, ToolDefinition, ToolResult};
use common::echo;

/// One dispatch through the C ABI: its status (every string freed).
fn dispatch(registry: *const aikido_registry, name: &CStr, arguments: &[u8]) -> aikido_status {
    common::dispatch(registry, name, arguments).0
}

/// How far the resident set may move once warm.
const FLAT_KIB: i64 = 1024;

unsafe extern "C" fn fail(
    _: *mut c_void,
    _: *const c_char,
    _: usize,
    _: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the reply is valid for the call (aikido_handler); the text is readable
    // for its length.
    unsafe {
        let text = "the disk is full";
        aikido_reply_set_error(reply, text.as_ptr().cast(), text.len());
        AIKIDO_ERR_TOOL_FAILED
    }
}

unsafe extern "C" fn report_panic(
    _: *mut c_void,
    _: *const c_char,
    _: usize,
    _: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the reply is valid for the call (aikido_handler); the text is readable
    // for its length.
    unsafe {
        let text = "index out of range";
        aikido_reply_set_error(reply, text.as_ptr().cast(), text.len());
        AIKIDO_ERR_TOOL_PANICKED
    }
}

fn register(registry: *mut aikido_registry, name: &CStr, handler: aikido::ffi::handler::aikido_handler) {
    let schema = cr#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}"#;
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe {
        aikido_registry_register(
            registry,
            name.as_ptr(),
            c"".as_ptr(),
            schema.as_ptr(),
            handler,
            ptr::null_mut(),
            None,
            ptr::null_mut(),
        )
    };
    assert_eq!(status, AIKIDO_OK);
}

fn resident_kib() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux has /proc/self/status");
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).expect("VmRSS is listed");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("VmRSS is in kB")
}

#[test]
fn millions_of_mixed_dispatches_keep_the_resident_set_flat() {
    let total: usize = std::env::var("AIKIDO_SOAK_DISPATCHES").map_or(1_000_000, |text| text.parse().expect("a count"));
    // Real panics print through the default hook; ten percent of calls panic.
    std::panic::set_hook(Box::new(|_| {}));

    let c_registry = aikido_registry_new();
    register(c_registry, c"read", Some(echo));
    register(c_registry, c"write", Some(fail));
    register(c_registry, c"crash", Some(report_panic));
    let native = Registry::new();
    native
        .register(
            ToolDefinition::new("divide", ""),
            |_: &str, _: &Environment| -> Result<ToolResult, aikido::ToolError> { panic!("division by zero") },
        )
        .unwrap();

    let good = br#"{"path":"notes.txt"}"#;
    let run = |from: usize, to: usize| {
        for index in from..to {
            match index % 10 {
                0..=2 => assert_eq!(dispatch(c_registry, c"read", good), AIKIDO_OK),
                3 => assert_eq!(dispatch(c_registry, c"read", br#"{"path":"a"} thanks"#), AIKIDO_ERR_INVALID_ARGUMENTS),
                4 => assert_eq!(dispatch(c_registry, c"read", br#"{"limit":3}"#), AIKIDO_ERR_INVALID_ARGUMENTS),
                5 => assert_eq!(dispatch(c_registry, c"reed", good), AIKIDO_ERR_UNKNOWN_TOOL),
                6 => assert_eq!(dispatch(c_registry, c"write", good), AIKIDO_ERR_TOOL_FAILED),
                7 => assert_eq!(dispatch(c_registry, c"crash", good), AIKIDO_ERR_TOOL_PANICKED),
                8 => assert_eq!(dispatch(c_registry, c"read", b"\xff{}"), AIKIDO_ERR_INVALID_ARGUMENTS),
                _ => {
                    let error = native.dispatch(&ToolCall::new("divide", "{}"), &Environment::default()).unwrap_err();
                    assert!(matches!(error, Error::ToolPanicked { .. }), "{error:?}");
                }
            }
        }
    };

    // Allocator pools and lazily made tables settle in the first tenth.
    let warm_up = total / 10;
    run(0, warm_up);
    let before = resident_kib();
    let started = std::time::Instant::now();
    run(warm_up, total);
    let elapsed = started.elapsed();
    let after = resident_kib();
    // SAFETY: c_registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(c_registry) };

    println!(
        "soak: {total} dispatches; VmRSS {before} KiB after the first {warm_up}, {after} KiB at the end ({:+} KiB); \
         {:.0} dispatches/s",
        after - before,
        (total - warm_up) as f64 / elapsed.as_secs_f64()
    );
    assert!((after - before).abs() <= FLAT_KIB, "the resident set moved by {} KiB", after - before);
}
