//! The Rust-level benchmarks: dispatch through the Rust API, the argument
//! check on a small and a 1 MiB call, the definitions of 100 tools, and the
//! provider dialects (respond, definitions_for).
//! The C-ABI figures (and the targets) come from benches/dispatch.c; run
//! everything with `make bench`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use aikido::{Environment, Registry, ToolCall, ToolDefinition, ToolResult, ValidationMode};

const SCHEMA: &str = r#"{"type":"object","properties":{"path":{"type":"string","description":"The file to read."},"limit":{"type":"integer","description":"How many lines."},"encoding":{"type":"string"},"follow":{"type":"boolean"}},"required":["path","limit"]}"#;
const SMALL_ARGUMENTS: &str = r#"{"path":"/var/log/syslog","limit":200,"encoding":"utf-8","follow":false}"#;
/// The records of `large_arguments`, every field typed (benches/dispatch.c
/// has the same schema).
const RECORDS_SCHEMA: &str = r#"{"type":"object","required":["records"],"properties":{"batch":{"type":"string"},"total":{"type":"integer","minimum":0},"ratio":{"type":"number"},"records":{"type":"array","items":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer","minimum":0},"name":{"type":"string","maxLength":64},"cost":{"type":"number"},"ok":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"at":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"note":{"type":["string","null"]}}}}}}"#;

/// About 1 MiB of arguments: an object holding an array of small records
/// with strings (some escaped or non-ASCII), numbers, booleans, null and
/// small nested values; the same shape benches/dispatch.c sends.
fn large_arguments(target: usize) -> String {
    const NAMES: [&str; 6] = ["alpha", "beta", "gamma", "café", "tab\\there", "\\u00e9t\\u00e9"];
    let mut text = String::from(r#"{"batch":"nightly","records":["#);
    let mut count = 0;
    while text.len() < target - 160 {
        if count > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{"id":{count},"name":"{}","cost":{}.{:02},"ok":{},"tags":["{}"],"at":{{"x":{},"y":-{}}},"note":null}}"#,
            NAMES[count % 6],
            count % 97,
            count % 100,
            count % 3 != 0,
            NAMES[(count + 1) % 6],
            count % 50,
            count % 7
        ));
        count += 1;
    }
    text.push_str(&format!(r#"],"total":{count},"ratio":1.5e-3}}"#));
    while text.len() < target - 1 {
        text.push(' ');
    }
    text.push('\n');
    text
}

/// A registry whose tools answer "" (no allocation), so that what is timed
/// is the library's own work.
fn registry_with(name: &str, schema: &str) -> Registry {
    let registry = Registry::new();
    registry
        .register(ToolDefinition::new(name, "A benchmark tool.").with_parameters(schema), |_: &str, _: &Environment| {
            Ok(ToolResult::default())
        })
        .unwrap();
    registry
}

fn dispatch(c: &mut Criterion) {
    let registry = registry_with("read_file", SCHEMA);
    let environment = Environment::new("session-1");

    let call = ToolCall::new("read_file", SMALL_ARGUMENTS).with_id("call-1");
    let mut group = c.benchmark_group("dispatch");
    group.throughput(Throughput::Bytes(SMALL_ARGUMENTS.len() as u64));
    group.bench_function("small", |b| b.iter(|| registry.dispatch(&call, &environment).unwrap()));
    group.finish();

    let large_registry = registry_with("import_records", r#"{"type":"object","required":["records"]}"#);
    let large = large_arguments(1 << 20);
    let call = ToolCall::new("import_records", &large);
    let mut group = c.benchmark_group("check");
    group.throughput(Throughput::Bytes(large.len() as u64));
    group.sample_size(30);
    group.bench_function("1MiB", |b| b.iter(|| large_registry.dispatch(&call, &environment).unwrap()));
    group.finish();

    // The same two in FULL validation mode (docs/VALIDATION.md).
    let full = registry_with("read_file", SCHEMA);
    full.set_validation(ValidationMode::Full).unwrap();
    let call = ToolCall::new("read_file", SMALL_ARGUMENTS).with_id("call-1");
    let mut group = c.benchmark_group("dispatch");
    group.throughput(Throughput::Bytes(SMALL_ARGUMENTS.len() as u64));
    group.bench_function("small_full", |b| b.iter(|| full.dispatch(&call, &environment).unwrap()));
    group.finish();
    let full_large = registry_with("import_records", RECORDS_SCHEMA);
    full_large.set_validation(ValidationMode::Full).unwrap();
    let call = ToolCall::new("import_records", &large);
    let mut group = c.benchmark_group("check");
    group.throughput(Throughput::Bytes(large.len() as u64));
    group.sample_size(20);
    group.bench_function("1MiB_full", |b| b.iter(|| full_large.dispatch(&call, &environment).unwrap()));
    group.finish();
}

fn definitions(c: &mut Criterion) {
    let registry = Registry::new();
    for index in 0..100 {
        registry
            .register(
                ToolDefinition::new(format!("tool_{index:03}"), "Read lines of a file, from an offset, up to a limit.")
                    .with_parameters(SCHEMA),
                |_: &str, _: &Environment| Ok(ToolResult::default()),
            )
            .unwrap();
    }
    let mut group = c.benchmark_group("definitions");
    group.bench_function("100_tools_cached", |b| b.iter(|| registry.definitions_json()));
    // The first request after a change builds the JSON; time that too.
    group.bench_function("100_tools_rebuilt", |b| {
        b.iter_batched(
            || {
                registry.unregister("tool_000").unwrap();
                registry.register(
                    ToolDefinition::new("tool_000", "").with_parameters(SCHEMA),
                    |_: &str, _: &Environment| Ok(ToolResult::default()),
                )
            },
            |_| registry.definitions_json(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// The provider dialects (src/dialect): respond on a 4-call Anthropic reply
/// whose handlers do nothing (the library's own work), respond on 4 calls
/// whose handlers each sleep 100 ms (the calls overlap), and
/// definitions_for of 100 tools, cached.
fn dialects(c: &mut Criterion) {
    use aikido::dialect::{Dialect, STRICT};
    let registry = registry_with("read_file", SCHEMA);
    let reply = format!(
        r#"{{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"Reading the four logs."}},{}],"stop_reason":"tool_use","stop_sequence":null,"usage":{{"input_tokens":512,"output_tokens":180}}}}"#,
        (0..4)
            .map(|index| format!(
                r#"{{"type":"tool_use","id":"toolu_0{index}","name":"read_file","input":{SMALL_ARGUMENTS}}}"#
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let environment = Environment::new("session-1");
    let mut group = c.benchmark_group("dialects");
    group.bench_function("respond_anthropic_4_calls", |b| {
        b.iter(|| registry.respond(Dialect::Anthropic, &reply, &environment, 0).unwrap())
    });
    group.bench_function("respond_anthropic_4_calls_sequential", |b| {
        b.iter(|| {
            registry.respond(Dialect::Anthropic, &reply, &environment, aikido::dialect::RESPOND_SEQUENTIAL).unwrap()
        })
    });
    let many = Registry::new();
    for index in 0..100 {
        many.register(
            ToolDefinition::new(format!("tool_{index:03}"), "Read lines of a file, from an offset, up to a limit.")
                .with_parameters(SCHEMA),
            |_: &str, _: &Environment| Ok(ToolResult::default()),
        )
        .unwrap();
    }
    group.bench_function("definitions_for_100_tools_cached", |b| {
        b.iter(|| many.definitions_for(Dialect::Anthropic, 0).unwrap())
    });
    group.bench_function("definitions_for_100_tools_strict_cached", |b| {
        b.iter(|| many.definitions_for(Dialect::OpenAiResponses, STRICT).unwrap())
    });
    group.finish();

    let sleepy = Registry::new();
    sleepy
        .register(ToolDefinition::new("read_file", "").with_parameters(SCHEMA), |_: &str, _: &Environment| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            Ok(ToolResult::default())
        })
        .unwrap();
    let mut group = c.benchmark_group("dialects_sleeping");
    group.sample_size(10);
    group.bench_function("respond_4_calls_of_100ms", |b| {
        b.iter(|| sleepy.respond(Dialect::Anthropic, &reply, &environment, 0).unwrap())
    });
    group.finish();

    // Calls just long enough (past 20 us) to be run on threads: what the
    // threads cost shows most here.
    let short = Registry::new();
    short
        .register(ToolDefinition::new("read_file", "").with_parameters(SCHEMA), |_: &str, _: &Environment| {
            std::thread::sleep(std::time::Duration::from_micros(50));
            Ok(ToolResult::default())
        })
        .unwrap();
    let mut group = c.benchmark_group("dialects_threads");
    group.bench_function("respond_4_calls_of_50us", |b| {
        b.iter(|| short.respond(Dialect::Anthropic, &reply, &environment, 0).unwrap())
    });
    group.bench_function("respond_4_calls_of_50us_sequential", |b| {
        b.iter(|| short.respond(Dialect::Anthropic, &reply, &environment, aikido::dialect::RESPOND_SEQUENTIAL).unwrap())
    });
    group.finish();
}

criterion_group!(benches, dispatch, definitions, dialects);
criterion_main!(benches);
