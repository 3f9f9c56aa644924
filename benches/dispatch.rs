//! The Rust-level benchmarks: dispatch through the Rust API, the argument
//! check on a small and a 1 MiB call, and the definitions of 100 tools.
//! The C-ABI figures (and the targets) come from bench/dispatch.c; run
//! everything with `make bench`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use aikido::{Environment, Registry, ToolCall, ToolDefinition, ToolResult, ValidationMode};

const SCHEMA: &str = r#"{"type":"object","properties":{"path":{"type":"string","description":"The file to read."},"limit":{"type":"integer","description":"How many lines."},"encoding":{"type":"string"},"follow":{"type":"boolean"}},"required":["path","limit"]}"#;
const SMALL_ARGUMENTS: &str = r#"{"path":"/var/log/syslog","limit":200,"encoding":"utf-8","follow":false}"#;
/// The records of `large_arguments`, every field typed (bench/dispatch.c
/// has the same schema).
const RECORDS_SCHEMA: &str = r#"{"type":"object","required":["records"],"properties":{"batch":{"type":"string"},"total":{"type":"integer","minimum":0},"ratio":{"type":"number"},"records":{"type":"array","items":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer","minimum":0},"name":{"type":"string","maxLength":64},"cost":{"type":"number"},"ok":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"at":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"note":{"type":["string","null"]}}}}}}"#;

/// About 1 MiB of arguments: an object holding an array of small records
/// with strings (some escaped or non-ASCII), numbers, booleans, null and
/// small nested values; the same shape bench/dispatch.c sends.
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

criterion_group!(benches, dispatch, definitions);
criterion_main!(benches);
