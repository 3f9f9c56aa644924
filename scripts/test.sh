#!/usr/bin/env bash
# Every test of the project, from a fresh machine: installs what it needs,
# builds the library, then runs each suite. A failing suite does not stop
# the others; the run fails if any failed. The last line counts the suites.
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$AIKIDO_ROOT"

passed=0
failed=0
failures=()
timings=() # "seconds name", printed again at the end (CI shows only the end)
step() { # name command...
    local name=$1
    shift
    local started=$SECONDS
    echo
    echo "=== $name"
    # A heartbeat, so that no step is silent for long (a cold build of the
    # tests, the fuzzers): every 2 minutes, how long it has been running.
    local since
    since=$(date +%s)
    (while sleep 120 </dev/null >/dev/null 2>&1; do
        echo "    ... $name: still running ($(($(date +%s) - since)) s)"
    done) &
    local heartbeat=$!
    if "$@"; then
        passed=$((passed + 1))
        echo "=== $name: ok ($((SECONDS - started)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "=== $name: FAILED ($((SECONDS - started)) s)"
    fi
    kill "$heartbeat" 2>/dev/null
    wait "$heartbeat" 2>/dev/null
    timings+=("$(printf '%5d s  %s' $((SECONDS - started)) "$name")")
}

step "setup" scripts/setup.sh || true
step "build" make --no-print-directory build
step "rust: formatting (rustfmt.toml)" cargo fmt --check
step "rust: clippy, every target, warnings are errors" cargo clippy --release --all-targets --quiet -- -D warnings
step "rust: build the tests (cargo's progress shown)" cargo test --release --no-run
step "rust: unit, integration and doc tests" cargo test --release --quiet
step "rust: clippy on each feature alone (a library built with fewer features stays warning-free)" \
    sh -c 'for features in "" storage shell mcp mcp-http network full-validation; do echo "features: [$features]"; cargo clippy --release --quiet --no-default-features --features "$features" --lib -- -D warnings || exit 1; done'
step "rust: the registry-only build (no default features)" cargo test --release --quiet --no-default-features --lib
step "rust: JSON-Schema-Test-Suite draft 2020-12 (prints its count)" \
    cargo test --release --quiet --test json_schema_suite -- --nocapture json_schema_test_suite
step "instructions: five workloads within 10 % of benches/instructions.tsv (update: scripts/instructions.sh --update)" \
    scripts/instructions.sh --check
step "header: committed copy matches cbindgen, compiles as C99 and C++17" tests/header.sh
step "features: cargo build and cargo test build the library alike (no rebuild between them)" tests/features.sh
step "demo: one agent turn" tests/demo.sh
step "readme: the C quick start as written" tests/readme.sh
step "docs: examples in the README and the header are real output" tests/docs.sh
step "shell: the corpus's recordings still match /bin/bash here (record mode --check)" \
    scripts/shell-corpus-record.sh --check
step "dialects: every wire shape against the providers' official SDKs" tests/python/dialects.sh
step "mcp: aikido-mcp and the fixture against the official MCP Python client" tests/python/mcp.sh

# The reliability suite runs beside the language suites: both spend long
# stretches on one core (Valgrind, the fuzzers, Miri's interpreter), so on
# two cores side by side they take minutes less than one after the other.
# Its output is shown whole when it ends, after the language suites.
reliability=tests/reliability/run.sh
reliability_log="$AIKIDO_ROOT/build/reliability.log"
mkdir -p "$(dirname "$reliability_log")"
echo
if [ "${AIKIDO_SERIAL:-0}" = 1 ]; then
    echo "=== $reliability: runs after the language suites (AIKIDO_SERIAL=1)"
    reliability_pid=
else
    echo "=== $reliability: started beside the language suites; its output follows them (AIKIDO_SERIAL=1: after them)"
    "$reliability" >"$reliability_log" 2>&1 </dev/null &
    reliability_pid=$!
fi
reliability_started=$SECONDS
finish_reliability() {
    local status=0
    if [ -n "$reliability_pid" ]; then
        wait "$reliability_pid" || status=$?
        cat "$reliability_log"
        echo "($reliability took $((SECONDS - reliability_started)) s beside the language suites)"
    else
        "$reliability" || status=$?
    fi
    return "$status"
}

for suite in tests/c/run.sh tests/install/run.sh bindings/cpp/test.sh bindings/go/test.sh \
    bindings/zig/test.sh bindings/swift/test.sh; do
    if [ -x "$suite" ]; then
        step "$suite" "$suite"
    else
        step "$suite" sh -c "echo 'missing or not executable: $suite'; exit 1"
    fi
done
step "$reliability" finish_reliability

echo
echo "time of each step ($SECONDS s in all):"
printf '%s\n' "${timings[@]}"
((failed)) && printf 'failed suite: %s\n' "${failures[@]}"
echo "suites: $passed passed, $failed failed"
((failed == 0))
