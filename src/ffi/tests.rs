//! Unit tests of the C ABI from Rust: pointer handling, ownership, the panic
//! boundary. They run under Miri too (tests/reliability).

use std::ffi::{c_char, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::handler::aikido_reply;
use super::registry::*;
use super::status::*;
use super::*;
use crate::{Environment, Registry, ToolDefinition};

/// Takes a library-owned string: its text, and frees it.
fn take(text: *mut c_char) -> String {
    assert!(!text.is_null());
    let owned = unsafe { CStr::from_ptr(text) }.to_str().unwrap().to_owned();
    unsafe { status::aikido_string_free(text) };
    owned
}

unsafe extern "C" fn echo(
    _userdata: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    handler::aikido_reply_set_content(reply, arguments, arguments_len)
}

unsafe extern "C" fn count_free(userdata: *mut c_void) {
    (*userdata.cast::<AtomicUsize>()).fetch_add(1, Ordering::SeqCst);
}

fn dispatch(registry: *const aikido_registry, name: &CStr, arguments: &str) -> (aikido_status, String) {
    let call = aikido_tool_call {
        id: ptr::null(),
        name: name.as_ptr(),
        arguments: arguments.as_ptr().cast(),
        arguments_len: arguments.len(),
    };
    let (mut content, mut error) = (ptr::null_mut(), ptr::null_mut());
    let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), &mut content, &mut error) };
    let text = if status == AIKIDO_OK { take(content) } else { take(error) };
    (status, text)
}

#[test]
fn a_rust_handler_that_panics_through_the_c_api_gives_tool_panicked() {
    let registry = aikido_registry_new();
    // A registry made through C is a Registry underneath: give it a native
    // Rust handler that panics, and call it through the C ABI.
    let native = unsafe { &*registry.cast::<Registry>() };
    native
        .register(ToolDefinition::new("divide", ""), |_: &str, _: &Environment| panic!("division by zero"))
        .unwrap();
    let (status, message) = dispatch(registry, c"divide", "{}");
    assert_eq!(status, AIKIDO_ERR_TOOL_PANICKED);
    assert_eq!(message, "aikido/tools: tool panicked: tool \"divide\": division by zero");
    unsafe { aikido_registry_free(registry) };
}

#[test]
fn the_boundary_turns_a_panic_into_a_status_and_a_message_that_says_where() {
    let mut error = ptr::null_mut();
    let status = boundary::status("aikido_example", &mut error, || panic!("inner trouble"));
    assert_eq!(status, AIKIDO_ERR_TOOL_PANICKED);
    assert_eq!(take(error), "aikido/tools: tool panicked: libaikido itself panicked in aikido_example: inner trouble");
    let null: *mut c_char = boundary::value(|| panic!("no status here"));
    assert!(null.is_null());
    assert_eq!(boundary::value(|| -> usize { panic!("zero") }), 0);
}

#[test]
fn userdata_is_freed_once_on_unregister_and_never_for_a_failed_registration() {
    let frees = AtomicUsize::new(0);
    let userdata = (&frees as *const AtomicUsize).cast_mut().cast::<c_void>();
    let registry = aikido_registry_new();
    let register = |name: &CStr, error: &mut *mut c_char| unsafe {
        aikido_registry_register(registry, name.as_ptr(), ptr::null(), ptr::null(), Some(echo), userdata, Some(count_free), error)
    };
    let mut error = ptr::null_mut();
    assert_eq!(register(c"echo", &mut error), AIKIDO_OK);
    assert!(error.is_null());
    assert_eq!(register(c"echo", &mut error), AIKIDO_ERR_DUPLICATE_TOOL);
    assert!(take(error).contains("\"echo\""));
    assert_eq!(register(c"", &mut error), AIKIDO_ERR_INVALID_INPUT);
    take(error);
    assert_eq!(frees.load(Ordering::SeqCst), 0, "a failed registration must not free the caller's userdata");

    assert_eq!(dispatch(registry, c"echo", r#"{"a":1}"#), (AIKIDO_OK, r#"{"a":1}"#.to_owned()));
    assert_eq!(unsafe { aikido_registry_unregister(registry, c"echo".as_ptr(), ptr::null_mut()) }, AIKIDO_OK);
    assert_eq!(frees.load(Ordering::SeqCst), 1);
    assert_eq!(unsafe { aikido_registry_unregister(registry, c"echo".as_ptr(), ptr::null_mut()) }, AIKIDO_ERR_UNKNOWN_TOOL);

    assert_eq!(register(c"again", &mut error), AIKIDO_OK);
    unsafe { aikido_registry_free(registry) };
    assert_eq!(frees.load(Ordering::SeqCst), 2, "freeing the registry frees each tool's userdata once");
}

#[test]
fn outputs_are_cleared_on_entry_and_null_pointers_are_refused() {
    let mut content = 1 as *mut c_char; // garbage the caller left there
    let mut error = ptr::null_mut();
    let status = unsafe { aikido_registry_dispatch(ptr::null(), ptr::null(), ptr::null(), &mut content, &mut error) };
    assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
    assert!(content.is_null());
    assert_eq!(take(error), "aikido/tools: invalid input: registry is NULL");
    assert_eq!(unsafe { aikido_registry_len(ptr::null()) }, 0);
    unsafe { aikido_registry_free(ptr::null_mut()) };
    unsafe { status::aikido_string_free(ptr::null_mut()) };
}
