//! Every length and count of the C surface refuses values no buffer can
//! have, found by walking the committed header.
//!
//! The header is read as C: every `size_t` parameter of every function, and
//! every `size_t` field of a struct a function takes by pointer, is a slot.
//! Each slot is either called here with `SIZE_MAX`, `2^63` and
//! `SIZE_MAX - 1` beside a real small buffer, and must be refused (the
//! function's documented failure, with a message naming the slot where the
//! function has an `error_out`), or is listed as not a length, with why. A
//! function added to the header with a length that is in neither list fails
//! this test, so a new function cannot forget the check of `slice.rs`.

use std::collections::BTreeSet;
use std::ffi::c_char;
use std::ptr;

use super::handle;
use super::handler::{aikido_reply, Reply};
use super::registry::*;
use super::status::*;
use super::*;

/// The lengths the test passes: none is one an object can have.
const IMPOSSIBLE: [usize; 3] = [usize::MAX, 1 << 63, usize::MAX - 1];

/// What a call with an impossible length came back with.
#[derive(Debug)]
enum Outcome {
    /// A status, and the message written to `error_out` (None where the
    /// function has none).
    Status(aikido_status, Option<String>),
    /// A function without a status returned NULL.
    Null,
    /// A function returning nothing came back (freeing nothing).
    Returned,
}

/// `size_t` slots that are not the length of a buffer the caller gives.
const NOT_LENGTHS: &[(&str, &str)] = &[
    ("aikido_strings_get.index", "an index, checked against the array's length"),
    ("aikido_tool_calls_get.index", "an index, checked against the array's length"),
    ("aikido_dir_entries_get.index", "an index, checked against the array's length"),
    ("aikido_changes_get.index", "an index, checked against the array's length"),
    ("aikido_tool_calls_get.call_out->arguments_len", "written by the library"),
    ("aikido_shell_run.result_out->stdout_len", "written by the library"),
    ("aikido_shell_run.result_out->stderr_len", "written by the library"),
    ("aikido_shell_new.limits->max_output_bytes", "a limit: every value is one"),
    ("aikido_shell_new.limits->max_memory_bytes", "a limit: every value is one"),
    ("aikido_shell_new.limits->max_result_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool.limits->max_output_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool.limits->max_memory_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool.limits->max_result_bytes", "a limit: every value is one"),
    ("aikido_shell_new_with_network.limits->max_output_bytes", "a limit: every value is one"),
    ("aikido_shell_new_with_network.limits->max_memory_bytes", "a limit: every value is one"),
    ("aikido_shell_new_with_network.limits->max_result_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool_with_network.limits->max_output_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool_with_network.limits->max_memory_bytes", "a limit: every value is one"),
    ("aikido_registry_register_shell_tool_with_network.limits->max_result_bytes", "a limit: every value is one"),
    ("aikido_shell_restore.limits->max_output_bytes", "a limit: every value is one"),
    ("aikido_shell_restore.limits->max_memory_bytes", "a limit: every value is one"),
    ("aikido_shell_restore.limits->max_result_bytes", "a limit: every value is one"),
];

/// The header without comments and preprocessor lines.
fn header_code() -> String {
    let header = include_str!("../../include/aikido.h");
    let mut code = String::new();
    let mut rest = header;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = &rest[start + 2..];
        rest = &rest[rest.find("*/").expect("a closed comment") + 2..];
    }
    code.push_str(rest);
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .filter(|line| !line.trim_start().starts_with('#') && line.trim() != "extern \"C\" {" && line.trim() != "}")
        .collect::<Vec<_>>()
        .join("\n")
}

/// A declaration `type name` (or `type name[16]`): its type and name.
fn declaration(text: &str) -> (String, String) {
    let text = text.split('[').next().unwrap().trim();
    let at = text.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |at| at + 1);
    (text[..at].split_whitespace().collect::<Vec<_>>().join(" "), text[at..].to_owned())
}

/// Every `size_t` slot of the header's functions, as `function.parameter`
/// or `function.parameter->field`.
fn header_slots() -> BTreeSet<String> {
    let code = header_code();
    let mut struct_fields: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut functions: Vec<(String, Vec<(String, String)>)> = Vec::new();
    // Statements end at a `;` outside braces.
    let (mut depth, mut statement) = (0, String::new());
    for c in code.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ';' if depth == 0 => {
                let text = std::mem::take(&mut statement);
                let text = text.trim();
                if let Some(body) = text.strip_prefix("typedef struct ").filter(|body| body.contains('{')) {
                    let name = body[..body.find('{').unwrap()].trim().to_owned();
                    let fields = &body[body.find('{').unwrap() + 1..body.rfind('}').unwrap()];
                    let fields = fields.split(';').filter(|f| !f.trim().is_empty()).map(declaration).collect();
                    struct_fields.push((name, fields));
                } else if !text.starts_with("typedef") && text.contains('(') {
                    let open = text.find('(').unwrap();
                    let (_, name) = declaration(&text[..open]);
                    let parameters = &text[open + 1..text.rfind(')').unwrap()];
                    let parameters = parameters
                        .split(',')
                        .map(str::trim)
                        .filter(|p| !p.is_empty() && *p != "void")
                        .map(declaration)
                        .collect();
                    functions.push((name, parameters));
                }
                continue;
            }
            _ => {}
        }
        statement.push(c);
    }
    assert!(functions.len() >= 56 && struct_fields.len() >= 6, "the header was not read: {functions:?}");
    let mut slots = BTreeSet::new();
    for (function, parameters) in &functions {
        for (kind, name) in parameters {
            if kind == "size_t" {
                slots.insert(format!("{function}.{name}"));
            }
            let pointee = kind.trim_start_matches("const ").trim_start_matches("struct ").trim_end_matches('*').trim();
            if let Some((_, fields)) = struct_fields.iter().find(|(name, _)| name == pointee) {
                for (field_kind, field) in fields {
                    if field_kind == "size_t" {
                        slots.insert(format!("{function}.{name}->{field}"));
                    }
                }
            }
        }
    }
    slots
}

/// A readable buffer: the pointer every call passes beside its impossible length.
const BYTES: &[u8] = b"{}";

fn bytes() -> *const c_char {
    BYTES.as_ptr().cast()
}

/// A status and the message written to an `error_out`.
fn with_error(call: impl FnOnce(*mut *mut c_char) -> aikido_status) -> Outcome {
    let mut error = ptr::null_mut();
    let status = call(&mut error);
    let message = (!error.is_null()).then(|| {
        // SAFETY: a string the library wrote, freed once here.
        let text = unsafe { std::ffi::CStr::from_ptr(error) }.to_string_lossy().into_owned();
        // SAFETY: as above.
        unsafe { status::aikido_string_free(error) };
        text
    });
    Outcome::Status(status, Some(message.unwrap_or_default()))
}

fn dispatch_with(len: usize, extended: bool) -> Outcome {
    let registry = aikido_registry_new();
    let call = aikido_tool_call { id: ptr::null(), name: c"tool".as_ptr(), arguments: bytes(), arguments_len: len };
    let mut content = ptr::null_mut();
    // SAFETY: a live registry, a call whose length is the one under test, and local outputs.
    let outcome = with_error(|error| unsafe {
        if extended {
            validation::aikido_registry_dispatch_ex(registry, &call, ptr::null(), &mut content, ptr::null_mut(), error)
        } else {
            aikido_registry_dispatch(registry, &call, ptr::null(), &mut content, error)
        }
    });
    assert!(content.is_null());
    // SAFETY: made above, freed once.
    unsafe { aikido_registry_free(registry) };
    outcome
}

fn reply_text(len: usize, error_text: bool) -> Outcome {
    let mut reply = Reply::default();
    let raw = handle::from_mut::<aikido_reply>(&mut reply);
    // SAFETY: a live reply nothing else uses, and a buffer with the length under test.
    let status = unsafe {
        if error_text {
            handler::aikido_reply_set_error(raw, bytes(), len)
        } else {
            handler::aikido_reply_set_content(raw, bytes(), len)
        }
    };
    // The function has no error_out: the refusal is kept in the reply, for
    // the message the caller of the tool gets.
    Outcome::Status(status, reply.refused_reason().map(str::to_owned))
}

fn respond(len: usize) -> Outcome {
    let registry = aikido_registry_new();
    let mut messages = ptr::null_mut();
    // SAFETY: a live registry, the buffer, local outputs.
    let outcome = with_error(|error| unsafe {
        dialect::aikido_registry_respond(registry, 0, bytes(), len, ptr::null(), 0, &mut messages, error)
    });
    assert!(messages.is_null());
    // SAFETY: made above, freed once.
    unsafe { aikido_registry_free(registry) };
    outcome
}

fn shell_restore(len: usize) -> Outcome {
    let mut shell = ptr::null_mut();
    // SAFETY: the buffer, no storage or limits, local outputs.
    let outcome = with_error(|error| unsafe {
        snapshot::aikido_shell_restore(bytes().cast(), len, ptr::null(), ptr::null(), &mut shell, error)
    });
    assert!(shell.is_null());
    outcome
}

fn calls_parse(len: usize) -> Outcome {
    let mut calls = ptr::null_mut();
    // SAFETY: the buffer and local outputs.
    let outcome = with_error(|error| unsafe { dialect::aikido_tool_calls_parse(0, bytes(), len, &mut calls, error) });
    assert!(calls.is_null());
    outcome
}

fn calls_read(len: usize) -> Outcome {
    let mut calls = ptr::null_mut();
    // SAFETY: the buffer and local outputs.
    let outcome = with_error(|error| unsafe { dialect::aikido_tool_calls_read(0, bytes(), len, &mut calls, error) });
    assert!(calls.is_null());
    outcome
}

fn mcp_handle(len: usize) -> Outcome {
    let registry = aikido_registry_new();
    // SAFETY: a live registry that outlives the server.
    let server = unsafe { mcp::aikido_mcp_server_new(registry, ptr::null(), ptr::null()) };
    let mut response = ptr::null_mut();
    // SAFETY: a live server, the buffer, local outputs.
    let outcome =
        with_error(|error| unsafe { mcp::aikido_mcp_server_handle(server, bytes(), len, &mut response, error) });
    assert!(response.is_null());
    // SAFETY: made above, freed once, the server first.
    unsafe {
        mcp::aikido_mcp_server_free(server);
        aikido_registry_free(registry);
    }
    outcome
}

fn shell_run(len: usize) -> Outcome {
    let storage = storage::aikido_storage_memory_new(0, 0);
    // SAFETY: a live storage.
    let shell = unsafe { shell::aikido_shell_new(storage, ptr::null()) };
    let mut result = shell::EMPTY_RESULT;
    // SAFETY: a live shell, the buffer, a local result.
    let outcome =
        with_error(|error| unsafe { shell::aikido_shell_run(shell, bytes(), len, ptr::null(), &mut result, error) });
    // SAFETY: made above, each freed once.
    unsafe {
        shell::aikido_shell_result_free(&mut result);
        shell::aikido_shell_free(shell);
        storage::aikido_storage_free(storage);
    }
    outcome
}

fn policy(len: usize) -> Outcome {
    let storage = storage::aikido_storage_memory_new(0, 0);
    let rule = storage::aikido_path_rule { pattern: c"/**".as_ptr(), access: storage::AIKIDO_ACCESS_READ, allow: true };
    let mut made = ptr::null_mut();
    // SAFETY: a live storage, one real rule, local outputs.
    let outcome =
        with_error(|error| unsafe { storage::aikido_storage_policy_new(storage, &rule, len, &mut made, error) });
    assert!(made.is_null());
    // SAFETY: made above, freed once.
    unsafe { storage::aikido_storage_free(storage) };
    outcome
}

/// The pointers of two strings, the array every array slot passes.
fn strings() -> [*const c_char; 2] {
    [c"a".as_ptr(), c"{}".as_ptr()]
}

fn schema_enum(len: usize) -> Outcome {
    let values = strings();
    // SAFETY: a description and the array.
    let schema = unsafe { schema::aikido_schema_enum(c"d".as_ptr(), values.as_ptr(), len) };
    if schema.is_null() {
        Outcome::Null
    } else {
        // SAFETY: a string the library made, freed once.
        unsafe { status::aikido_string_free(schema) };
        Outcome::Status(AIKIDO_OK, None)
    }
}

fn schema_object(len: usize, required_len: usize) -> Outcome {
    let (names, schemas, required) = (strings(), [c"{}".as_ptr(), c"{}".as_ptr()], strings());
    let mut json = ptr::null_mut();
    // SAFETY: three arrays, one of them with the length under test, and local outputs.
    let outcome = with_error(|error| unsafe {
        schema::aikido_schema_object(
            names.as_ptr(),
            schemas.as_ptr(),
            len,
            required.as_ptr(),
            required_len,
            &mut json,
            error,
        )
    });
    assert!(json.is_null());
    outcome
}

fn storage_bytes(len: usize, append: bool, max_file_bytes: u64) -> Outcome {
    let storage = storage::aikido_storage_memory_new(0, max_file_bytes);
    // SAFETY: a live storage, a path, the buffer, a local output.
    let outcome = with_error(|error| unsafe {
        let write = if append { storage::aikido_storage_append } else { storage::aikido_storage_write };
        write(storage, c"/file".as_ptr(), BYTES.as_ptr(), len, error)
    });
    // SAFETY: made above, freed once.
    unsafe { storage::aikido_storage_free(storage) };
    outcome
}

/// A write or append, on a storage without a limit and on one with a file
/// size limit (the impossible length is refused as such there too, not as
/// a file too large).
fn storage_both(len: usize, append: bool) -> Outcome {
    let unlimited = storage_bytes(len, append, 0);
    assert!(matches!(unlimited, Outcome::Status(AIKIDO_ERR_INVALID_INPUT, _)), "{unlimited:?}");
    storage_bytes(len, append, 1 << 20)
}

fn bytes_free(len: usize) -> Outcome {
    // A pointer the library never made: were it freed, the process would abort.
    let mut local = [0u8; 4];
    // SAFETY: the length under test is refused, so nothing is freed.
    unsafe { storage::aikido_bytes_free(local.as_mut_ptr(), len) };
    Outcome::Returned
}

fn shell_result_free(len: usize, stdout: bool) -> Outcome {
    let mut local = [0u8; 4];
    let mut result = shell::EMPTY_RESULT;
    if stdout {
        (result.stdout_data, result.stdout_len) = (local.as_mut_ptr().cast(), len);
    } else {
        (result.stderr_data, result.stderr_len) = (local.as_mut_ptr().cast(), len);
    }
    // SAFETY: a length no buffer has: refused, so nothing is freed.
    unsafe { shell::aikido_shell_result_free(&mut result) };
    Outcome::Returned
}

/// A length slot and the call that passes it a length under test.
type Slot = (&'static str, fn(usize) -> Outcome);

/// Each length slot with the call that passes it the length under test.
fn calls() -> Vec<Slot> {
    vec![
        ("aikido_registry_dispatch.call->arguments_len", |len| dispatch_with(len, false)),
        ("aikido_registry_dispatch_ex.call->arguments_len", |len| dispatch_with(len, true)),
        ("aikido_reply_set_content.len", |len| reply_text(len, false)),
        ("aikido_reply_set_error.len", |len| reply_text(len, true)),
        ("aikido_registry_respond.reply_len", respond),
        ("aikido_tool_calls_parse.reply_len", calls_parse),
        ("aikido_tool_calls_read.reply_len", calls_read),
        ("aikido_mcp_server_handle.message_len", mcp_handle),
        ("aikido_shell_run.script_len", shell_run),
        ("aikido_shell_restore.len", shell_restore),
        ("aikido_storage_policy_new.rules_len", policy),
        ("aikido_schema_enum.values_len", schema_enum),
        ("aikido_schema_object.len", |len| schema_object(len, 0)),
        ("aikido_schema_object.required_len", |len| schema_object(0, len)),
        ("aikido_storage_write.len", |len| storage_both(len, false)),
        ("aikido_storage_append.len", |len| storage_both(len, true)),
        ("aikido_bytes_free.len", bytes_free),
        ("aikido_shell_result_free.result->stdout_len", |len| shell_result_free(len, true)),
        ("aikido_shell_result_free.result->stderr_len", |len| shell_result_free(len, false)),
    ]
}

#[test]
#[cfg_attr(miri, ignore = "walks the text of include/aikido.h or src/ffi: no unsafe code, and minutes under Miri")]
fn every_length_of_the_header_is_covered_here_or_said_not_to_be_one() {
    let slots = header_slots();
    let called: BTreeSet<String> = calls().iter().map(|(slot, _)| slot.to_string()).collect();
    let excused: BTreeSet<String> = NOT_LENGTHS.iter().map(|(slot, _)| slot.to_string()).collect();
    assert!(called.is_disjoint(&excused));
    let listed: BTreeSet<String> = called.union(&excused).cloned().collect();
    let missing: Vec<_> = slots.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "size_t slots of include/aikido.h with no call in src/ffi/lengths.rs: {missing:?} (check each with \
         ffi::slice and add its call, or list it in NOT_LENGTHS with why)"
    );
    let stale: Vec<_> = listed.difference(&slots).collect();
    assert!(stale.is_empty(), "listed in src/ffi/lengths.rs but not in the header: {stale:?}");
}

#[test]
fn every_length_refuses_sizes_no_buffer_can_have() {
    for (slot, call) in calls() {
        let name = slot.split_once('.').unwrap().1;
        for len in IMPOSSIBLE {
            match call(len) {
                Outcome::Status(status, message) => {
                    assert_eq!(status, AIKIDO_ERR_INVALID_INPUT, "{slot} = {len}");
                    let message = message.unwrap_or_else(|| panic!("{slot} = {len}: no message"));
                    let said = format!("{name} is {len}, more than any");
                    assert!(message.contains(&said), "{slot} = {len}: the message {message:?} does not say {said:?}");
                }
                Outcome::Null | Outcome::Returned => {}
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "walks the text of include/aikido.h or src/ffi: no unsafe code, and minutes under Miri")]
fn the_header_walk_finds_struct_fields_and_parameters() {
    let slots = header_slots();
    for slot in ["aikido_registry_dispatch.call->arguments_len", "aikido_mcp_server_handle.message_len"] {
        assert!(slots.contains(slot), "{slot} not found in {slots:?}");
    }
    // Pointers to size_t are outputs, not slots.
    assert!(!slots.iter().any(|slot| slot.ends_with("len_out")));
    assert_eq!(
        declaration("const struct aikido_registry *registry"),
        ("const struct aikido_registry *".into(), "registry".into())
    );
    assert_eq!(declaration("uint8_t turn_id[16]"), ("uint8_t".into(), "turn_id".into()));
}

#[test]
#[cfg_attr(miri, ignore = "walks the text of include/aikido.h or src/ffi: no unsafe code, and minutes under Miri")]
fn slices_from_c_pointers_are_made_in_slice_rs_alone() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ffi");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if ["slice.rs", "lengths.rs", "tests.rs"].contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // A file's own tests may read what the library made.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        for (number, line) in code.lines().enumerate() {
            if line.contains("from_raw_parts") && !line.trim_start().starts_with("//") {
                found.push(format!("{name}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "slices built outside src/ffi/slice.rs, unchecked: {found:#?}");
}
