//! How many heap allocations a call costs, counted by a global allocator.
//!
//! The target: a successful dispatch through the C ABI allocates exactly one
//! block, the reply string the caller frees (made once, with room for its
//! NUL), and nothing else; the argument check allocates nothing.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_char, c_void};
use std::ptr;

use aikido::ffi::handler::{aikido_reply, aikido_reply_set_content};
use aikido::ffi::registry::{
    aikido_environment, aikido_registry, aikido_registry_definitions, aikido_registry_dispatch, aikido_registry_free,
    aikido_registry_new, aikido_registry_register,
};
use aikido::ffi::status::{aikido_status, aikido_string_free, AIKIDO_OK};
use aikido::{Environment, Registry, ToolCall, ToolDefinition, ToolResult};

/// Counts this thread's allocations and frees, so that the test harness's
/// other threads do not disturb the count.
struct Counting;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    allocations: usize,
    reallocations: usize,
    frees: usize,
}

thread_local! {
    static COUNTS: Cell<Counts> = const { Cell::new(Counts { allocations: 0, reallocations: 0, frees: 0 }) };
    /// Bytes asked for by this thread's allocations and reallocations.
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

fn count_bytes(size: usize) {
    let _ = BYTES.try_with(|cell| cell.set(cell.get() + size));
}

fn count(change: impl FnOnce(&mut Counts)) {
    // try_with: the thread may be tearing down its locals.
    let _ = COUNTS.try_with(|cell| {
        let mut counts = cell.get();
        change(&mut counts);
        cell.set(counts);
    });
}

// SAFETY: every method passes its arguments to System unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(|counts| counts.allocations += 1);
        count_bytes(layout.size());
        // SAFETY: the caller keeps GlobalAlloc's contract, which System needs.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(|counts| counts.allocations += 1);
        count_bytes(layout.size());
        // SAFETY: the caller keeps GlobalAlloc's contract, which System needs.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        count(|counts| counts.reallocations += 1);
        count_bytes(size);
        // SAFETY: the caller keeps GlobalAlloc's contract, which System needs.
        unsafe { System.realloc(pointer, layout, size) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        count(|counts| counts.frees += 1);
        // SAFETY: the caller keeps GlobalAlloc's contract, which System needs.
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What `calls` runs of `body` cost, per run.
fn counts_per_call(calls: usize, mut body: impl FnMut()) -> Counts {
    body(); // warm up: lazily made state is not a per-call cost
    let before = COUNTS.with(Cell::get);
    for _ in 0..calls {
        body();
    }
    let after = COUNTS.with(Cell::get);
    Counts {
        allocations: (after.allocations - before.allocations) / calls,
        reallocations: (after.reallocations - before.reallocations) / calls,
        frees: (after.frees - before.frees) / calls,
    }
    .exact(calls, before, after)
}

impl Counts {
    /// Fails when the totals are not an exact multiple of the calls, so
    /// that a single stray allocation is not rounded away.
    fn exact(self, calls: usize, before: Counts, after: Counts) -> Counts {
        assert_eq!(after.allocations - before.allocations, self.allocations * calls, "allocations vary between calls");
        assert_eq!(after.reallocations - before.reallocations, self.reallocations * calls, "reallocations vary");
        assert_eq!(after.frees - before.frees, self.frees * calls, "frees vary between calls");
        self
    }
}

const SCHEMA: &str = r#"{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"encoding":{"type":"string"},"follow":{"type":"boolean"}},"required":["path","limit"]}"#;
const ARGUMENTS: &str = r#"{"path":"/var/log/syslog","limit":200,"encoding":"utf-8","follow":false}"#;

unsafe extern "C" fn reply_ok(
    _userdata: *mut c_void,
    _arguments: *const c_char,
    _arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: the reply is valid for the call (aikido_handler).
    unsafe { aikido_reply_set_content(reply, c"ok".as_ptr(), 2) }
}

/// A C registry holding `read_file`, freed on drop.
struct CRegistry(*mut aikido_registry);

impl CRegistry {
    fn new() -> Self {
        let registry = aikido_registry_new();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe {
            aikido_registry_register(
                registry,
                c"read_file".as_ptr(),
                c"Read lines of a file.".as_ptr(),
                format!("{SCHEMA}\0").as_ptr().cast(),
                Some(reply_ok),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            )
        };
        assert_eq!(status, AIKIDO_OK);
        CRegistry(registry)
    }
}

impl Drop for CRegistry {
    fn drop(&mut self) {
        // SAFETY: self.0 was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_registry_free(self.0) };
    }
}

#[test]
fn a_dispatch_through_the_c_abi_allocates_only_the_reply() {
    let registry = CRegistry::new();
    let call = common::tool_call(c"read_file", ARGUMENTS.as_bytes());
    let environment = aikido_environment { session_id: c"session-1".as_ptr(), turn_id: [7; 16], cancel: ptr::null() };
    let counts = counts_per_call(1000, || {
        let mut content: *mut c_char = ptr::null_mut();
        let mut error: *mut c_char = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_dispatch(registry.0, &call, &environment, &mut content, &mut error) };
        assert_eq!(status, AIKIDO_OK);
        assert!(error.is_null());
        // SAFETY: content is a NUL-terminated string the library returned, not yet freed.
        assert_eq!(unsafe { std::ffi::CStr::from_ptr(content) }, c"ok");
        // SAFETY: content was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_string_free(content) };
    });
    assert_eq!(counts, Counts { allocations: 1, reallocations: 0, frees: 1 });
}

#[test]
fn definitions_through_the_c_abi_allocate_only_the_copy() {
    let registry = CRegistry::new();
    let counts = counts_per_call(1000, || {
        let mut json: *mut c_char = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_definitions(registry.0, &mut json, ptr::null_mut()) };
        assert_eq!(status, AIKIDO_OK);
        // SAFETY: json is a NUL-terminated string the library returned, not yet freed.
        assert!(unsafe { std::ffi::CStr::from_ptr(json) }.to_bytes().starts_with(br#"[{"name":"read_file""#));
        // SAFETY: json was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_string_free(json) };
    });
    assert_eq!(counts, Counts { allocations: 1, reallocations: 0, frees: 1 });
}

#[test]
fn a_dispatch_through_the_rust_api_allocates_only_the_result() {
    let registry = Registry::new();
    registry
        .register(
            ToolDefinition::new("read_file", "Read lines of a file.").with_parameters(SCHEMA),
            |_: &str, _: &Environment| Ok(ToolResult::new("ok")),
        )
        .unwrap();
    let call = ToolCall::new("read_file", ARGUMENTS);
    let environment = Environment::new("session-1");
    let counts = counts_per_call(1000, || {
        let result = registry.dispatch(&call, &environment).unwrap();
        assert_eq!(result.content, "ok");
    });
    assert_eq!(counts, Counts { allocations: 1, reallocations: 0, frees: 1 });
}

#[test]
fn a_rejected_call_allocates_only_for_its_message() {
    let registry = Registry::new();
    registry
        .register(ToolDefinition::new("read_file", "").with_parameters(SCHEMA), |_: &str, _: &Environment| {
            Ok(ToolResult::default())
        })
        .unwrap();
    // Valid JSON without the required fields: the scan itself allocates
    // nothing, so every allocation belongs to the message (and is freed).
    let call = ToolCall::new("read_file", r#"{"encoding":"utf-8"}"#);
    let counts = counts_per_call(100, || {
        let error = registry.dispatch(&call, &Environment::default()).unwrap_err();
        assert!(error.to_string().contains("\"path\" and \"limit\""), "{error}");
    });
    assert_eq!(counts.allocations, counts.frees);
    assert!(counts.allocations > 0);
}

/// FULL validation reuses each thread's entry array: a valid small call in
/// FULL mode allocates what it does in REQUIRED mode, only the reply.
#[test]
fn a_dispatch_in_full_mode_allocates_only_the_reply() {
    let registry = CRegistry::new();
    // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
    let status = unsafe {
        aikido::ffi::validation::aikido_registry_set_validation(
            registry.0,
            aikido::ffi::validation::AIKIDO_VALIDATE_FULL,
            ptr::null_mut(),
        )
    };
    assert_eq!(status, AIKIDO_OK);
    let call = common::tool_call(c"read_file", ARGUMENTS.as_bytes());
    let counts = counts_per_call(1000, || {
        let mut content: *mut c_char = ptr::null_mut();
        // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
        let status = unsafe { aikido_registry_dispatch(registry.0, &call, ptr::null(), &mut content, ptr::null_mut()) };
        assert_eq!(status, AIKIDO_OK);
        // SAFETY: content was made above, nothing uses it any more, and it is freed once, here.
        unsafe { aikido_string_free(content) };
    });
    assert_eq!(counts, Counts { allocations: 1, reallocations: 0, frees: 1 });
}

/// A large document in FULL mode: what validation of it needs (one entry
/// array, as it is larger than a thread keeps), not an allocation per value.
#[test]
fn a_large_document_in_full_mode_allocates_a_bounded_few_blocks() {
    let registry = Registry::new();
    registry.set_validation(aikido::ValidationMode::Full).unwrap();
    registry
        .register(
            ToolDefinition::new("import", "").with_parameters(
                r#"{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}}}"#,
            ),
            |_: &str, _: &Environment| Ok(ToolResult::default()),
        )
        .unwrap();
    let rows: Vec<String> = (0..50_000).map(|index| format!(r#"{{"id":{index},"name":"row {index}"}}"#)).collect();
    let arguments = format!(r#"{{"rows":[{}]}}"#, rows.join(","));
    let call = ToolCall::new("import", &arguments);
    let environment = Environment::default();
    let counts = counts_per_call(5, || {
        registry.dispatch(&call, &environment).unwrap();
    });
    assert!(counts.allocations + counts.reallocations <= 40, "{counts:?} for 150,000 values");
}

/// Bytes allocated per registration of one more tool, measured over
/// `batch` registrations into a registry that already holds `existing`.
fn bytes_per_registration(existing: usize, batch: usize) -> usize {
    let registry = Registry::new();
    let register = |index: usize| {
        let definition = ToolDefinition::new(format!("tool_{index:07}"), "A tool.")
            .with_parameters(r#"{"type":"object","required":["path"]}"#);
        registry.register(definition, |_: &str, _: &Environment| Ok(ToolResult::default())).unwrap();
    };
    (0..existing).for_each(register);
    let before = BYTES.with(Cell::get);
    (existing..existing + batch).for_each(register);
    (BYTES.with(Cell::get) - before) / batch
}

/// Registration is not quadratic: what one registration allocates does not
/// grow with the table (a copied table grew it linearly: 16 times the
/// tools, 16 times the bytes). A persistent map copies the nodes on one
/// path, whose depth grows with log n.
#[test]
fn registering_copies_no_table() {
    let small = bytes_per_registration(1_000, 500);
    let large = bytes_per_registration(16_000, 500);
    assert!(small > 0);
    assert!(large < small * 3, "one registration allocates {small} bytes among 1,000 tools but {large} among 16,000");
    // And at a size where a copy of the table would be megabytes.
    let huge = bytes_per_registration(100_000, 100);
    assert!(huge < small * 4, "one registration allocates {huge} bytes among 100,000 tools ({small} among 1,000)");
}
