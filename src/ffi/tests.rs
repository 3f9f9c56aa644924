//! Unit tests of the C ABI from Rust: pointer handling, ownership, the panic
//! boundary. They run under Miri too (tests/reliability).

use std::ffi::{c_char, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::handler::aikido_reply;
use super::registry::*;
use super::status::*;
use super::*;
use crate::{Environment, ToolDefinition};

#[path = "../../tests/common/mod.rs"]
mod common;
use common::{dispatch, echo, take, tool_call};

unsafe extern "C" fn count_free(userdata: *mut c_void) {
    // SAFETY: registered with a live AtomicUsize as its userdata.
    unsafe {
        (*userdata.cast::<AtomicUsize>()).fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_rust_handler_that_panics_through_the_c_api_gives_tool_panicked() {
    let registry = aikido_registry_new();
    // A registry made through C is a Registry underneath: give it a native
    // Rust handler that panics, and call it through the C ABI.
    // SAFETY: made by aikido_registry_new just above, freed at the end.
    let native = unsafe { handle::get(registry) }.unwrap();
    native.register(ToolDefinition::new("divide", ""), |_: &str, _: &Environment| panic!("division by zero")).unwrap();
    let (status, message) = dispatch(registry, c"divide", "{}");
    assert_eq!(status, AIKIDO_ERR_TOOL_PANICKED);
    assert_eq!(message, "aikido/tools: tool panicked: tool \"divide\": division by zero");
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
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
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let register = |name: &CStr, error: &mut *mut c_char| unsafe {
        aikido_registry_register(
            registry,
            name.as_ptr(),
            ptr::null(),
            ptr::null(),
            Some(echo),
            userdata,
            Some(count_free),
            error,
        )
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
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert_eq!(unsafe { aikido_registry_unregister(registry, c"echo".as_ptr(), ptr::null_mut()) }, AIKIDO_OK);
    assert_eq!(frees.load(Ordering::SeqCst), 1);
    assert_eq!(
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        unsafe { aikido_registry_unregister(registry, c"echo".as_ptr(), ptr::null_mut()) },
        AIKIDO_ERR_UNKNOWN_TOOL
    );

    assert_eq!(register(c"again", &mut error), AIKIDO_OK);
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
    assert_eq!(frees.load(Ordering::SeqCst), 2, "freeing the registry frees each tool's userdata once");
}

#[test]
fn outputs_are_cleared_on_entry_and_null_pointers_are_refused() {
    let mut content = ptr::NonNull::<c_char>::dangling().as_ptr(); // garbage the caller left there
    let mut error = ptr::null_mut();
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe { aikido_registry_dispatch(ptr::null(), ptr::null(), ptr::null(), &mut content, &mut error) };
    assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
    assert!(content.is_null());
    assert_eq!(take(error), "aikido/tools: invalid input: registry is NULL");
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert_eq!(unsafe { aikido_registry_len(ptr::null()) }, 0);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe { aikido_registry_free(ptr::null_mut()) };
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe { status::aikido_string_free(ptr::null_mut()) };
}

// ---- Pointer handling and ownership, for Miri (tests/reliability/run.sh). ----

/// A tool's userdata that counts its frees and can reach its registry.
struct Probe {
    frees: AtomicUsize,
    registry: *mut aikido_registry,
    /// What the handler saw of its own userdata_free while it ran.
    frees_seen_mid_call: AtomicUsize,
}

impl Probe {
    fn new(registry: *mut aikido_registry) -> Probe {
        Probe { frees: AtomicUsize::new(0), registry, frees_seen_mid_call: AtomicUsize::new(usize::MAX) }
    }

    fn userdata(&self) -> *mut c_void {
        (self as *const Probe).cast_mut().cast()
    }
}

unsafe extern "C" fn count_probe_free(userdata: *mut c_void) {
    // SAFETY: registered with a live Probe (it outlives the registry) as its userdata.
    unsafe {
        (*userdata.cast::<Probe>()).frees.fetch_add(1, Ordering::SeqCst);
    }
}

fn register_c(
    registry: *mut aikido_registry,
    name: &CStr,
    parameters: Option<&CStr>,
    handler: handler::aikido_handler,
    probe: &Probe,
) -> aikido_status {
    let parameters = parameters.map_or(ptr::null(), CStr::as_ptr);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe {
        aikido_registry_register(
            registry,
            name.as_ptr(),
            ptr::null(),
            parameters,
            handler,
            probe.userdata(),
            Some(count_probe_free),
            ptr::null_mut(),
        )
    }
}

/// Unregisters its own tool mid-call: its userdata must outlive the call.
unsafe extern "C" fn unregister_self(
    userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: its userdata is a live Probe whose registry is live; the reply is valid
    // for the call (aikido_handler).
    unsafe {
        let probe = &*userdata.cast::<Probe>();
        assert_eq!(aikido_registry_unregister(probe.registry, c"self".as_ptr(), ptr::null_mut()), AIKIDO_OK);
        assert_eq!(aikido_registry_len(probe.registry), 0);
        probe.frees_seen_mid_call.store(probe.frees.load(Ordering::SeqCst), Ordering::SeqCst);
        let text = "still here";
        handler::aikido_reply_set_content(reply, text.as_ptr().cast(), text.len())
    }
}

#[test]
fn a_tool_unregistered_during_its_own_call_is_freed_once_after_the_call_returns() {
    let registry = aikido_registry_new();
    let probe = Probe::new(registry);
    assert_eq!(register_c(registry, c"self", None, Some(unregister_self), &probe), AIKIDO_OK);
    assert_eq!(dispatch(registry, c"self", "{}"), (AIKIDO_OK, "still here".to_owned()));
    assert_eq!(probe.frees_seen_mid_call.load(Ordering::SeqCst), 0, "freed while its call was running");
    assert_eq!(probe.frees.load(Ordering::SeqCst), 1);
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
    assert_eq!(probe.frees.load(Ordering::SeqCst), 1, "freeing the registry must not free it again");
}

/// Sets its content from a buffer it then overwrites, then tries texts the
/// reply must refuse.
unsafe extern "C" fn copy_then_misuse(
    _userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the reply is valid for the call; each text is readable for its length
    // or NULL (aikido_handler).
    unsafe {
        let mut buffer = *b"copied";
        assert_eq!(handler::aikido_reply_set_content(reply, buffer.as_ptr().cast(), buffer.len()), AIKIDO_OK);
        buffer.fill(b'x');
        // A NUL inside, not UTF-8, NULL with a length.
        let refused: [(*const c_char, usize); 3] = [(c"a".as_ptr(), 2), (b"\xff".as_ptr().cast(), 1), (ptr::null(), 5)];
        for (text, len) in refused {
            assert_eq!(handler::aikido_reply_set_content(reply, text, len), AIKIDO_ERR_INVALID_INPUT);
        }
        assert_eq!(
            handler::aikido_reply_set_error(ptr::null_mut(), buffer.as_ptr().cast(), 1),
            AIKIDO_ERR_INVALID_INPUT
        );
        AIKIDO_OK
    }
}

#[test]
fn reply_text_is_copied_and_a_refused_text_leaves_the_reply_as_it_was() {
    let registry = aikido_registry_new();
    let probe = Probe::new(registry);
    assert_eq!(register_c(registry, c"copy", None, Some(copy_then_misuse), &probe), AIKIDO_OK);
    assert_eq!(dispatch(registry, c"copy", ""), (AIKIDO_OK, "copied".to_owned()));
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
    assert_eq!(probe.frees.load(Ordering::SeqCst), 1);
}

/// Checks that the arguments arrive NUL-terminated at their length, and
/// echoes them.
unsafe extern "C" fn check_terminated(
    _userdata: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the library passes arguments_len bytes and a NUL after them, and a
    // reply valid for the call (aikido_handler).
    unsafe {
        assert_eq!(*arguments.add(arguments_len), 0);
        handler::aikido_reply_set_content(reply, arguments, arguments_len)
    }
}

#[test]
fn arguments_are_read_only_within_their_length_and_reach_the_handler_nul_terminated() {
    let registry = aikido_registry_new();
    let probe = Probe::new(registry);
    assert_eq!(register_c(registry, c"echo", None, Some(check_terminated), &probe), AIKIDO_OK);
    // Exactly-sized heap buffers with no NUL after them: a read past the end
    // is an error under Miri. One small (copied on the stack), one large
    // (copied to the heap).
    let large = format!("{{\"text\":\"{}\"}}", "y".repeat(2048));
    for arguments in [r#"{"a":[1,2,{"b":null}]}"#.to_owned(), large] {
        let exact: Box<[u8]> = arguments.as_bytes().into();
        let call = aikido_tool_call {
            id: c"call-1".as_ptr(),
            name: c"echo".as_ptr(),
            arguments: exact.as_ptr().cast(),
            arguments_len: exact.len(),
        };
        let mut content = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), &mut content, ptr::null_mut()) };
        assert_eq!(status, AIKIDO_OK);
        assert_eq!(take(content), arguments);
    }
    // A length shorter than the text: only that prefix is read, and it is
    // not an object.
    let (status, message) = {
        let text = r#"{"a":1}"#;
        let call = aikido_tool_call {
            id: ptr::null(),
            name: c"echo".as_ptr(),
            arguments: text.as_ptr().cast(),
            arguments_len: 4,
        };
        let mut error = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), ptr::null_mut(), &mut error) };
        (status, take(error))
    };
    assert_eq!(status, AIKIDO_ERR_INVALID_ARGUMENTS);
    assert!(message.starts_with("aikido/tools: invalid tool arguments for tool \"echo\""), "{message}");
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
}

unsafe extern "C" fn silent(
    _userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    _reply: *mut aikido_reply,
) -> aikido_status {
    AIKIDO_OK
}

unsafe extern "C" fn invalid_status(
    _userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    _reply: *mut aikido_reply,
) -> aikido_status {
    42
}

#[test]
fn a_handler_that_sets_nothing_gives_an_empty_string_and_a_bad_status_is_named() {
    let registry = aikido_registry_new();
    let probe = Probe::new(registry);
    assert_eq!(register_c(registry, c"silent", None, Some(silent), &probe), AIKIDO_OK);
    assert_eq!(register_c(registry, c"odd", None, Some(invalid_status), &probe), AIKIDO_OK);
    assert_eq!(dispatch(registry, c"silent", "{}"), (AIKIDO_OK, String::new()));
    let (status, message) = dispatch(registry, c"odd", "{}");
    assert_eq!(status, AIKIDO_ERR_TOOL_FAILED);
    assert!(message.contains("\"odd\" returned status 42"), "{message}");
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
    assert_eq!(probe.frees.load(Ordering::SeqCst), 2, "each registration frees its userdata once");
}

#[test]
fn a_fired_token_skips_the_handler_and_outputs_not_wanted_may_be_null() {
    let registry = aikido_registry_new();
    let probe = Probe::new(registry);
    let schema = cr#"{"type":"object","required":["path"]}"#;
    assert_eq!(register_c(registry, c"echo", Some(schema), Some(check_terminated), &probe), AIKIDO_OK);
    let cancel = cancel::aikido_cancel_new();
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe { cancel::aikido_cancel_fire(cancel) };
    let environment = aikido_environment { session_id: c"session".as_ptr(), turn_id: [1; 16], cancel };
    let arguments = r#"{"path":"a"}"#;
    let call = tool_call(c"echo", arguments.as_ref());
    let (mut content, mut error) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe { aikido_registry_dispatch(registry, &call, &environment, &mut content, &mut error) };
    assert_eq!(status, AIKIDO_ERR_CANCELLED);
    assert!(content.is_null());
    assert!(take(error).contains("\"echo\""));
    // Neither output wanted: nothing is written, nothing leaks.
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe { aikido_registry_dispatch(registry, &call, ptr::null(), ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(status, AIKIDO_OK);
    let mut definitions = ptr::null_mut();
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert_eq!(unsafe { aikido_registry_definitions(registry, &mut definitions, ptr::null_mut()) }, AIKIDO_OK);
    assert_eq!(take(definitions), r#"[{"name":"echo","parameters":{"type":"object","required":["path"]}}]"#);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe {
        cancel::aikido_cancel_free(cancel);
        aikido_registry_free(registry);
    }
}

#[test]
fn schema_helpers_hand_over_owned_strings_and_refuse_bad_pointers() {
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let described = unsafe { schema::aikido_schema_string(c"Path.".as_ptr()) };
    assert_eq!(take(described), r#"{"description":"Path.","type":"string"}"#);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert!(unsafe { schema::aikido_schema_integer(c"\xff".as_ptr()) }.is_null());
    let values = [c"a".as_ptr(), ptr::null()];
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert!(unsafe { schema::aikido_schema_enum(ptr::null(), values.as_ptr(), 2) }.is_null());
    assert_eq!(
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        take(unsafe { schema::aikido_schema_enum(ptr::null(), values.as_ptr(), 1) }),
        r#"{"enum":["a"],"type":"string"}"#
    );
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert!(unsafe { schema::aikido_schema_array(ptr::null(), ptr::null()) }.is_null());
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let items = unsafe { schema::aikido_schema_number(ptr::null()) };
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let array = unsafe { schema::aikido_schema_array(items, c"".as_ptr()) };
    take(items);
    assert_eq!(take(array), r#"{"items":{"type":"number"},"type":"array"}"#);
    let (names, schemas) = ([c"b".as_ptr(), c"a".as_ptr()], [c"{}".as_ptr(), c"[]".as_ptr()]);
    // Garbage the caller left in json_out.
    let (mut json, mut error) = (ptr::NonNull::<c_char>::dangling().as_ptr(), ptr::null_mut());
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe {
        schema::aikido_schema_object(names.as_ptr(), schemas.as_ptr(), 2, names.as_ptr(), 2, &mut json, &mut error)
    };
    assert_eq!(status, AIKIDO_OK);
    assert!(error.is_null());
    assert_eq!(take(json), r#"{"properties":{"a":[],"b":{}},"required":["b","a"],"type":"object"}"#);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe {
        schema::aikido_schema_object(ptr::null(), schemas.as_ptr(), 2, ptr::null(), 0, &mut json, &mut error)
    };
    assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
    assert!(json.is_null());
    assert_eq!(take(error), "aikido/tools: invalid input: names is NULL but its length is 2");
}

#[test]
fn uuids_are_written_to_exactly_the_bytes_given() {
    // Exactly-sized buffers: a write past them is an error under Miri.
    let mut id = Box::new([0u8; 16]);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe { uuid::aikido_uuid_new_v4(id.as_mut_ptr()) };
    assert_eq!(id[6] >> 4, 4, "a version 4 UUID");
    let mut text = Box::new([0 as c_char; 37]);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe { uuid::aikido_uuid_format(id.as_ptr(), text.as_mut_ptr()) };
    let mut parsed = Box::new([0u8; 16]);
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    assert_eq!(unsafe { uuid::aikido_uuid_parse(text.as_ptr(), parsed.as_mut_ptr()) }, AIKIDO_OK);
    assert_eq!(parsed, id);
    assert_eq!(
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        unsafe { uuid::aikido_uuid_parse(c"not a uuid".as_ptr(), parsed.as_mut_ptr()) },
        AIKIDO_ERR_INVALID_INPUT
    );
    assert_eq!(parsed, id, "a failed parse leaves the bytes as they were");
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    unsafe {
        uuid::aikido_uuid_new_v4(ptr::null_mut());
        uuid::aikido_uuid_format(ptr::null(), text.as_mut_ptr());
    }
}

unsafe extern "C" fn bad_error_text(
    _userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the reply is valid for the call (aikido_handler); the text is 10
    // readable bytes.
    unsafe {
        // A binding passing on the status of a refused set_error, as C++ and Go
        // trampolines naturally do.
        handler::aikido_reply_set_error(reply, c"bad \xff text".as_ptr(), 10)
    }
}

#[test]
fn a_refused_reply_text_is_reported_as_such_not_as_an_invalid_status() {
    let registry = aikido_registry_new();
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe {
        aikido_registry_register(
            registry,
            c"bad".as_ptr(),
            ptr::null(),
            ptr::null(),
            Some(bad_error_text),
            ptr::null_mut(),
            None,
            ptr::null_mut(),
        )
    };
    assert_eq!(status, AIKIDO_OK);
    let (status, message) = dispatch(registry, c"bad", "{}");
    assert_eq!(status, AIKIDO_ERR_TOOL_FAILED);
    assert_eq!(
        message,
        "aikido/tools: tool failed: tool \"bad\" replied with text that was refused: text is not valid UTF-8"
    );
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry) };
}
