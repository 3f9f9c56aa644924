//! Random sequences of register, unregister, dispatch, definitions and len
//! through the C ABI, checked against a model of the registry. The handlers
//! are `extern "C"` functions that succeed, fail (with or without a message,
//! or after the reply refused their text), report a panic, return a status a
//! handler may not return, or re-enter the registry. Each userdata is a heap box its `userdata_free` drops: a double
//! free trips AddressSanitizer, a missing one LeakSanitizer, and the count of
//! frees is checked against the registrations once the registry is freed.

#![no_main]

use std::ffi::{c_char, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use aikido::ffi::cancel::*;
use aikido::ffi::handler::{aikido_reply, aikido_reply_set_content, aikido_reply_set_error};
use aikido::ffi::registry::*;
use aikido::ffi::status::*;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

const NAMES: [&CStr; 4] = [c"alpha", c"beta", c"gamma", c"delta"];
const REQUIRED_SCHEMA: &CStr = cr#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}"#;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Behaviour {
    Succeed,
    Fail,
    FailWithoutMessage,
    ReportPanic,
    /// Returns a status a handler may not return.
    InvalidStatus(u8),
    /// Fails after the reply refused its text.
    RefusedText,
    /// Calls back into the registry that runs it.
    Reenter,
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Parameters {
    None,
    RequirePath,
    NotJson,
}

#[derive(Arbitrary, Debug)]
enum Arguments {
    Empty,
    WithPath,
    WithoutPath,
    NullPath,
    Raw(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Op {
    Register { tool: u8, behaviour: Behaviour, parameters: Parameters, null_handler: bool, with_free: bool },
    RegisterEmptyName,
    Unregister { tool: u8 },
    Dispatch { tool: u8, arguments: Arguments, cancelled: bool },
    Definitions,
    Len,
}

struct Userdata {
    behaviour: Behaviour,
    registry: *mut aikido_registry,
}

/// `userdata_free` calls in this input, and how many there must be.
static FREES: AtomicUsize = AtomicUsize::new(0);
static EXPECTED_FREES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn free_userdata(userdata: *mut c_void) {
    drop(Box::from_raw(userdata.cast::<Userdata>()));
    FREES.fetch_add(1, Ordering::SeqCst);
}

fn invalid_status(code: u8) -> aikido_status {
    // Above the handler statuses, or negative: never 0, 4 or 5.
    if code.is_multiple_of(2) {
        8 + aikido_status::from(code)
    } else {
        -1 - aikido_status::from(code)
    }
}

fn set_error(reply: *mut aikido_reply, text: &str) {
    assert_eq!(unsafe { aikido_reply_set_error(reply, text.as_ptr().cast(), text.len()) }, AIKIDO_OK);
}

unsafe extern "C" fn handler(
    userdata: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    let userdata = &*userdata.cast::<Userdata>();
    assert_eq!(*arguments.add(arguments_len), 0, "arguments are NUL-terminated");
    match userdata.behaviour {
        Behaviour::Succeed => aikido_reply_set_content(reply, arguments, arguments_len),
        Behaviour::Fail => {
            set_error(reply, "it was asked to fail");
            AIKIDO_ERR_TOOL_FAILED
        }
        Behaviour::FailWithoutMessage => AIKIDO_ERR_TOOL_FAILED,
        Behaviour::ReportPanic => {
            set_error(reply, "boom");
            AIKIDO_ERR_TOOL_PANICKED
        }
        Behaviour::InvalidStatus(code) => invalid_status(code),
        Behaviour::RefusedText => {
            // Text the reply refuses: a NUL inside, not UTF-8.
            assert_eq!(aikido_reply_set_error(reply, b"a\0b".as_ptr().cast(), 3), AIKIDO_ERR_INVALID_INPUT);
            assert_eq!(aikido_reply_set_content(reply, b"\xff".as_ptr().cast(), 1), AIKIDO_ERR_INVALID_INPUT);
            AIKIDO_ERR_TOOL_FAILED
        }
        Behaviour::Reenter => {
            reenter(userdata.registry);
            let text = "reentered";
            aikido_reply_set_content(reply, text.as_ptr().cast(), text.len())
        }
    }
}

/// What a re-entrant handler does: everything but changing the tools the
/// model knows of.
unsafe fn reenter(registry: *mut aikido_registry) {
    let before = aikido_registry_len(registry);
    let inner = Box::into_raw(Box::new(Userdata { behaviour: Behaviour::Succeed, registry }));
    let status = aikido_registry_register(
        registry,
        c"inner".as_ptr(),
        ptr::null(),
        ptr::null(),
        Some(handler),
        inner.cast(),
        Some(free_userdata),
        ptr::null_mut(),
    );
    assert_eq!(status, AIKIDO_OK);
    EXPECTED_FREES.fetch_add(1, Ordering::SeqCst);
    assert_eq!(aikido_registry_len(registry), before + 1);
    assert_eq!(dispatch(registry, c"inner", b"{\"x\":1}", false), (AIKIDO_OK, "{\"x\":1}".to_owned()));
    let (status, _) = dispatch(registry, c"nobody", b"", false);
    assert_eq!(status, AIKIDO_ERR_UNKNOWN_TOOL);
    assert_eq!(aikido_registry_unregister(registry, c"inner".as_ptr(), ptr::null_mut()), AIKIDO_OK);
    assert_eq!(aikido_registry_len(registry), before);
}

/// Dispatches through the C ABI; the content on success, else the error.
fn dispatch(registry: *mut aikido_registry, name: &CStr, arguments: &[u8], cancelled: bool) -> (aikido_status, String) {
    let cancel = aikido_cancel_new();
    if cancelled {
        unsafe { aikido_cancel_fire(cancel) };
    }
    let environment = aikido_environment { session_id: c"fuzz".as_ptr(), turn_id: [7; 16], cancel };
    let call = aikido_tool_call {
        id: c"call-1".as_ptr(),
        name: name.as_ptr(),
        arguments: arguments.as_ptr().cast(),
        arguments_len: arguments.len(),
    };
    let (mut content, mut error) = (ptr::null_mut(), ptr::null_mut());
    let status = unsafe { aikido_registry_dispatch(registry, &call, &environment, &mut content, &mut error) };
    unsafe { aikido_cancel_free(cancel) };
    let (wanted, unwanted) = if status == AIKIDO_OK { (content, error) } else { (error, content) };
    assert!(unwanted.is_null(), "status {status} wrote the other output");
    (status, take(wanted))
}

fn take(text: *mut c_char) -> String {
    assert!(!text.is_null());
    let owned = unsafe { CStr::from_ptr(text) }.to_str().expect("the library writes UTF-8").to_owned();
    unsafe { aikido_string_free(text) };
    owned
}

/// A registered tool as the model sees it.
struct Model {
    name: &'static CStr,
    behaviour: Behaviour,
    requires_path: bool,
}

/// The status and text a handler's outcome must give.
fn handler_outcome(name: &str, behaviour: Behaviour, arguments: &[u8]) -> (aikido_status, String) {
    match behaviour {
        Behaviour::Succeed if arguments.iter().all(|byte| matches!(byte, b' ' | b'\t' | b'\r' | b'\n')) => {
            (AIKIDO_OK, "{}".to_owned())
        }
        Behaviour::Succeed => (AIKIDO_OK, String::from_utf8(arguments.to_vec()).expect("checked arguments are UTF-8")),
        Behaviour::Fail => (AIKIDO_ERR_TOOL_FAILED, "it was asked to fail".to_owned()),
        Behaviour::FailWithoutMessage => (
            AIKIDO_ERR_TOOL_FAILED,
            format!("aikido/tools: tool failed: tool \"{name}\" reported an error without a message"),
        ),
        Behaviour::ReportPanic => (AIKIDO_ERR_TOOL_PANICKED, format!("aikido/tools: tool panicked: tool \"{name}\": boom")),
        Behaviour::InvalidStatus(code) => (
            AIKIDO_ERR_TOOL_FAILED,
            format!(
                "aikido/tools: tool failed: tool \"{name}\" returned status {}, which a handler may not return \
                 (only AIKIDO_OK, AIKIDO_ERR_TOOL_FAILED or AIKIDO_ERR_TOOL_PANICKED)",
                invalid_status(code)
            ),
        ),
        Behaviour::RefusedText => (
            AIKIDO_ERR_TOOL_FAILED,
            format!("aikido/tools: tool failed: tool \"{name}\" replied with text that was refused: text is not valid UTF-8"),
        ),
        Behaviour::Reenter => (AIKIDO_OK, "reentered".to_owned()),
    }
}

fn run(registry: *mut aikido_registry, ops: &[Op], model: &mut Vec<Model>, owned: &mut Vec<*mut Userdata>) {
    for op in ops {
        match op {
            Op::Register { tool, behaviour, parameters, null_handler, with_free } => {
                let name = NAMES[usize::from(*tool) % NAMES.len()];
                let schema = match parameters {
                    Parameters::None => ptr::null(),
                    Parameters::RequirePath => REQUIRED_SCHEMA.as_ptr(),
                    Parameters::NotJson => c"{\"required\":[".as_ptr(),
                };
                let userdata = Box::into_raw(Box::new(Userdata { behaviour: *behaviour, registry }));
                let free = with_free.then_some(free_userdata as unsafe extern "C" fn(*mut c_void));
                let mut error = ptr::null_mut();
                let status = unsafe {
                    aikido_registry_register(
                        registry,
                        name.as_ptr(),
                        c"A tool under fuzzing.".as_ptr(),
                        schema,
                        (!null_handler).then_some(handler),
                        userdata.cast(),
                        free,
                        &mut error,
                    )
                };
                let taken = model.iter().any(|tool| tool.name == name);
                let expected = if *null_handler || *parameters == Parameters::NotJson {
                    AIKIDO_ERR_INVALID_INPUT
                } else if taken {
                    AIKIDO_ERR_DUPLICATE_TOOL
                } else {
                    AIKIDO_OK
                };
                assert_eq!(status, expected, "register {name:?}");
                if status == AIKIDO_OK {
                    assert!(error.is_null());
                    model.push(Model { name, behaviour: *behaviour, requires_path: *parameters == Parameters::RequirePath });
                    if *with_free {
                        EXPECTED_FREES.fetch_add(1, Ordering::SeqCst);
                    } else {
                        owned.push(userdata);
                    }
                } else {
                    assert!(take(error).starts_with("aikido/tools: "));
                    // A refused registration leaves the userdata with us.
                    drop(unsafe { Box::from_raw(userdata) });
                }
            }
            Op::RegisterEmptyName => {
                let status = unsafe {
                    aikido_registry_register(
                        registry,
                        c"".as_ptr(),
                        ptr::null(),
                        ptr::null(),
                        Some(handler),
                        ptr::null_mut(),
                        Some(free_userdata),
                        ptr::null_mut(),
                    )
                };
                assert_eq!(status, AIKIDO_ERR_INVALID_INPUT);
            }
            Op::Unregister { tool } => {
                let name = NAMES[usize::from(*tool) % NAMES.len()];
                let mut error = ptr::null_mut();
                let status = unsafe { aikido_registry_unregister(registry, name.as_ptr(), &mut error) };
                match model.iter().position(|tool| tool.name == name) {
                    Some(index) => {
                        assert_eq!(status, AIKIDO_OK);
                        model.remove(index);
                    }
                    None => {
                        assert_eq!(status, AIKIDO_ERR_UNKNOWN_TOOL);
                        assert!(take(error).starts_with("aikido/tools: unknown tool"));
                    }
                }
            }
            Op::Dispatch { tool, arguments, cancelled } => {
                let name = NAMES[usize::from(*tool) % NAMES.len()];
                let bytes: &[u8] = match arguments {
                    Arguments::Empty => b"",
                    Arguments::WithPath => br#"{"path":"notes.txt"}"#,
                    Arguments::WithoutPath => br#"{"limit":3}"#,
                    Arguments::NullPath => br#"{"path":null}"#,
                    Arguments::Raw(bytes) => bytes,
                };
                let (status, text) = dispatch(registry, name, bytes, *cancelled);
                let Some(tool) = model.iter().find(|tool| tool.name == name) else {
                    assert_eq!(status, AIKIDO_ERR_UNKNOWN_TOOL);
                    assert!(text.starts_with("aikido/tools: unknown tool"));
                    continue;
                };
                let refused = match arguments {
                    Arguments::Empty | Arguments::WithoutPath | Arguments::NullPath => Some(tool.requires_path),
                    Arguments::WithPath => Some(false),
                    // Whether raw bytes pass is dispatch_arguments' question.
                    Arguments::Raw(_) => None,
                };
                if status == AIKIDO_ERR_INVALID_ARGUMENTS {
                    assert_ne!(refused, Some(false), "{name:?} refused good arguments: {text}");
                    assert!(text.starts_with("aikido/tools: invalid tool arguments for tool"));
                    continue;
                }
                assert_ne!(refused, Some(true), "{name:?} accepted bad arguments");
                if *cancelled {
                    assert_eq!(status, AIKIDO_ERR_CANCELLED);
                    continue;
                }
                let name = name.to_str().expect("the names are UTF-8");
                assert_eq!((status, text), handler_outcome(name, tool.behaviour, bytes), "dispatch {name:?}");
            }
            Op::Definitions => {
                let (mut json, mut error) = (ptr::null_mut(), ptr::null_mut());
                assert_eq!(unsafe { aikido_registry_definitions(registry, &mut json, &mut error) }, AIKIDO_OK);
                assert!(error.is_null());
                let definitions: Vec<serde_json::Value> =
                    serde_json::from_str(&take(json)).expect("definitions are a JSON array");
                let names: Vec<&str> = definitions.iter().map(|definition| definition["name"].as_str().unwrap()).collect();
                let expected: Vec<&str> = model.iter().map(|tool| tool.name.to_str().unwrap()).collect();
                assert_eq!(names, expected, "definitions in registration order");
            }
            Op::Len => assert_eq!(unsafe { aikido_registry_len(registry) }, model.len()),
        }
    }
}

fuzz_target!(|ops: Vec<Op>| {
    FREES.store(0, Ordering::SeqCst);
    EXPECTED_FREES.store(0, Ordering::SeqCst);
    let registry = aikido_registry_new();
    let (mut model, mut owned) = (Vec::new(), Vec::new());
    run(registry, &ops, &mut model, &mut owned);
    unsafe { aikido_registry_free(registry) };
    assert_eq!(FREES.load(Ordering::SeqCst), EXPECTED_FREES.load(Ordering::SeqCst), "userdata_free exactly once per tool");
    // Tools registered without userdata_free left their userdata with us.
    for userdata in owned {
        drop(unsafe { Box::from_raw(userdata) });
    }
});
