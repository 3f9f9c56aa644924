//! The registry through the native Rust API: ownership, re-entrancy,
//! concurrency, definitions and schema output.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Barrier};
use std::thread;

use aikido::{schema, CancelToken, Environment, Error, Registry, ToolCall, ToolDefinition, ToolError, ToolResult};

/// Counts its drops, so a test can see when the registry let go of a handler.
struct DropCounter(Arc<AtomicUsize>);
impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn echo(arguments: &str, _: &Environment) -> aikido::HandlerResult {
    Ok(ToolResult::new(arguments))
}

#[test]
fn a_handler_is_dropped_only_after_its_last_in_flight_call_returns() {
    let registry = Arc::new(Registry::new());
    let drops = Arc::new(AtomicUsize::new(0));
    let guard = DropCounter(drops.clone());
    let (entered_tx, entered_rx) = mpsc::channel::<()>();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let release_rx = std::sync::Mutex::new(release_rx);
    let entered_tx = std::sync::Mutex::new(entered_tx);
    registry
        .register(ToolDefinition::new("slow", ""), move |_: &str, _: &Environment| {
            let _keep = &guard;
            entered_tx.lock().unwrap().send(()).unwrap();
            release_rx.lock().unwrap().recv().unwrap();
            Ok(ToolResult::new("done"))
        })
        .unwrap();

    let caller = {
        let registry = registry.clone();
        thread::spawn(move || registry.dispatch(&ToolCall::new("slow", ""), &Environment::default()))
    };
    entered_rx.recv().unwrap();
    registry.unregister("slow").unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), 0, "dropped while a call was still running");
    assert!(matches!(
        registry.dispatch(&ToolCall::new("slow", ""), &Environment::default()),
        Err(Error::UnknownTool { .. })
    ));
    release_tx.send(()).unwrap();
    assert_eq!(caller.join().unwrap().unwrap().content, "done");
    assert_eq!(drops.load(Ordering::SeqCst), 1, "dropped exactly once, after the call returned");
}

#[test]
fn a_refused_handler_comes_back_untouched() {
    let registry = Registry::new();
    registry.register(ToolDefinition::new("taken", ""), echo).unwrap();
    let drops = Arc::new(AtomicUsize::new(0));
    let counter = DropCounter(drops.clone());
    let handler = move |_: &str, _: &Environment| {
        let _keep = &counter;
        Ok(ToolResult::default())
    };
    let rejected = registry.try_register(ToolDefinition::new("taken", ""), handler).unwrap_err();
    assert!(matches!(rejected.error, Error::DuplicateTool { ref name } if name == "taken"));
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    drop(rejected);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn registration_refuses_empty_names_and_parameters_that_are_not_json() {
    let registry = Registry::new();
    let error = registry.register(ToolDefinition::new("", ""), echo).unwrap_err();
    assert_eq!(error.to_string(), "aikido/tools: invalid input: a tool needs a non-empty name");
    let error = registry.register(ToolDefinition::new("t", "").with_parameters("{\"required\":"), echo).unwrap_err();
    assert!(matches!(error, Error::InvalidInput(_)));
    assert!(error
        .to_string()
        .starts_with("aikido/tools: invalid input: the parameters of tool \"t\" are not valid JSON"));
    // Valid JSON that is not an object schema enforces nothing.
    registry.register(ToolDefinition::new("t", "").with_parameters("\"anything\""), echo).unwrap();
    assert_eq!(registry.dispatch(&ToolCall::new("t", ""), &Environment::default()).unwrap().content, "{}");
    assert_eq!(registry.len(), 1);
}

#[test]
fn handlers_may_dispatch_register_and_unregister_on_their_own_registry() {
    let registry = Arc::new(Registry::new());
    registry.register(ToolDefinition::new("inner", ""), echo).unwrap();
    let weak = Arc::downgrade(&registry);
    registry
        .register(ToolDefinition::new("outer", ""), move |_: &str, environment: &Environment| {
            let registry = weak.upgrade().expect("registry alive");
            let inner =
                registry.dispatch(&ToolCall::new("inner", r#"{"x":1}"#), environment).map_err(ToolError::from)?;
            registry.register(ToolDefinition::new("made-inside", ""), echo).map_err(ToolError::from)?;
            registry.unregister("outer").map_err(ToolError::from)?;
            Ok(ToolResult::new(format!("inner said {}", inner.content)))
        })
        .unwrap();
    let result = registry.dispatch(&ToolCall::new("outer", ""), &Environment::default()).unwrap();
    assert_eq!(result.content, r#"inner said {"x":1}"#);
    let names: Vec<String> = registry.definitions().into_iter().map(|definition| definition.name).collect();
    assert_eq!(names, ["inner", "made-inside"]);
}

#[test]
fn definitions_keep_registration_order_and_leave_out_what_is_empty() {
    let registry = Registry::new();
    registry.register(ToolDefinition::new("b", "Second letter."), echo).unwrap();
    registry
        .register(ToolDefinition::new("a", "").with_parameters("{ \"type\" : \"object\",\n \"x\": \"a b\" }"), echo)
        .unwrap();
    assert_eq!(
        registry.definitions_json(),
        r#"[{"name":"b","description":"Second letter."},{"name":"a","parameters":{"type":"object","x":"a b"}}]"#
    );
    registry.unregister("b").unwrap();
    assert_eq!(registry.definitions_json(), r#"[{"name":"a","parameters":{"type":"object","x":"a b"}}]"#);
    assert_eq!(registry.definitions()[0].parameters.as_deref(), Some("{ \"type\" : \"object\",\n \"x\": \"a b\" }"));
    assert!(matches!(registry.unregister("b"), Err(Error::UnknownTool { .. })));
}

#[test]
fn cancellation_stops_a_call_before_the_handler_and_handlers_can_poll_it() {
    let registry = Registry::new();
    let ran = Arc::new(AtomicBool::new(false));
    let ran_in_handler = ran.clone();
    registry
        .register(ToolDefinition::new("poll", ""), move |_: &str, environment: &Environment| {
            ran_in_handler.store(true, Ordering::SeqCst);
            Ok(ToolResult::new(format!("{} {}", environment.session_id, environment.is_cancelled())))
        })
        .unwrap();
    let token = CancelToken::new();
    let environment = Environment { session_id: "s-1", cancel: Some(&token), ..Environment::default() };
    assert_eq!(registry.dispatch(&ToolCall::new("poll", ""), &environment).unwrap().content, "s-1 false");
    ran.store(false, Ordering::SeqCst);
    token.fire();
    let error = registry.dispatch(&ToolCall::new("poll", ""), &environment).unwrap_err();
    assert_eq!(
        error.to_string(),
        "aikido/tools: call cancelled: tool \"poll\" was not run because the call was cancelled"
    );
    assert!(!ran.load(Ordering::SeqCst));
}

#[test]
fn handler_errors_pass_through_and_panics_name_the_tool() {
    let registry = Registry::new();
    registry
        .register(ToolDefinition::new("fails", ""), |_: &str, _: &Environment| {
            let parsed: Result<u8, _> = "x".parse::<u8>();
            Ok(ToolResult::new(parsed?.to_string()))
        })
        .unwrap();
    registry
        .register(ToolDefinition::new("silent", ""), |_: &str, _: &Environment| Err(ToolError::failed("")))
        .unwrap();
    registry
        .register(ToolDefinition::new("panics", ""), |_: &str, _: &Environment| -> aikido::HandlerResult {
            std::panic::panic_any(42_u32)
        })
        .unwrap();
    let environment = Environment::default();
    let error = registry.dispatch(&ToolCall::new("fails", ""), &environment).unwrap_err();
    assert_eq!(error.to_string(), "invalid digit found in string");
    let error = registry.dispatch(&ToolCall::new("silent", ""), &environment).unwrap_err();
    assert_eq!(error.to_string(), "aikido/tools: tool failed: tool \"silent\" reported an error without a message");
    let error = registry.dispatch(&ToolCall::new("panics", ""), &environment).unwrap_err();
    assert_eq!(error.to_string(), "aikido/tools: tool panicked: tool \"panics\": a panic value that is not text");
}

#[test]
fn unknown_tool_messages_list_the_registered_tools_up_to_a_limit() {
    let registry = Registry::new();
    let error = registry.dispatch(&ToolCall::new("x", ""), &Environment::default()).unwrap_err();
    assert_eq!(error.to_string(), "aikido/tools: unknown tool \"x\"; no tools are registered");
    for index in 0..40 {
        registry.register(ToolDefinition::new(format!("t{index}"), ""), echo).unwrap();
    }
    let message = registry.dispatch(&ToolCall::new("x", ""), &Environment::default()).unwrap_err().to_string();
    assert!(message.starts_with("aikido/tools: unknown tool \"x\"; the registered tools include \"t0\", \"t1\""));
    assert!(message.ends_with("\"t31\" and 8 more"), "{message}");
}

#[test]
fn many_threads_dispatch_while_others_register_unregister_and_list() {
    let registry = Arc::new(Registry::new());
    let drops = Arc::new(AtomicUsize::new(0));
    registry
        .register(
            ToolDefinition::new("stable", "").with_parameters(schema::object([("n", schema::integer(""))], &["n"])),
            echo,
        )
        .unwrap();
    let barrier = Arc::new(Barrier::new(7));
    let mut workers = Vec::new();
    for _ in 0..4 {
        let (registry, barrier) = (registry.clone(), barrier.clone());
        workers.push(thread::spawn(move || {
            barrier.wait();
            for n in 0..5_000 {
                let arguments = format!("{{\"n\":{n}}}");
                let result = registry.dispatch(&ToolCall::new("stable", &arguments), &Environment::default()).unwrap();
                assert_eq!(result.content, arguments);
            }
        }));
    }
    for writer in 0..2 {
        let (registry, barrier, drops) = (registry.clone(), barrier.clone(), drops.clone());
        workers.push(thread::spawn(move || {
            barrier.wait();
            for index in 0..300 {
                let name = format!("w{writer}-{index}");
                let counter = DropCounter(drops.clone());
                registry
                    .register(ToolDefinition::new(name.clone(), ""), move |_: &str, _: &Environment| {
                        let _keep = &counter;
                        Ok(ToolResult::default())
                    })
                    .unwrap();
                registry.dispatch(&ToolCall::new(&name, ""), &Environment::default()).unwrap();
                if index % 2 == 0 {
                    registry.unregister(&name).unwrap();
                }
            }
        }));
    }
    {
        let (registry, barrier) = (registry.clone(), barrier.clone());
        workers.push(thread::spawn(move || {
            barrier.wait();
            for _ in 0..2_000 {
                let json = registry.definitions_json();
                assert!(json.starts_with("[{\"name\":\"stable\""));
            }
        }));
    }
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(registry.len(), 1 + 300);
    assert_eq!(drops.load(Ordering::SeqCst), 300, "every unregistered handler dropped exactly once");
    drop(registry);
    assert_eq!(drops.load(Ordering::SeqCst), 600, "the rest dropped with the registry");
}

#[test]
fn schema_helpers_give_sorted_compact_deterministic_text() {
    assert_eq!(schema::string("").to_string(), r#"{"type":"string"}"#);
    assert_eq!(schema::number("N.").to_string(), r#"{"description":"N.","type":"number"}"#);
    assert_eq!(schema::boolean("B.").to_string(), r#"{"description":"B.","type":"boolean"}"#);
    assert_eq!(
        schema::enumeration("Unit.", &["mi", "km"]).to_string(),
        r#"{"description":"Unit.","enum":["mi","km"],"type":"string"}"#
    );
    assert_eq!(
        schema::array(schema::object([("z", schema::integer("")), ("a", schema::string(""))], &["z", "a"]), "Rows.")
            .to_string(),
        r#"{"description":"Rows.","items":{"properties":{"a":{"type":"string"},"z":{"type":"integer"}},"required":["z","a"],"type":"object"},"type":"array"}"#
    );
    assert_eq!(schema::object(Vec::<(String, _)>::new(), &[]).to_string(), r#"{"type":"object"}"#);
}
