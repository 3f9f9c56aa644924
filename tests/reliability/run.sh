#!/usr/bin/env bash
# The reliability suite (docs/RELIABILITY.md): Miri over the C ABI's unit
# tests, ThreadSanitizer over the stress test, each fuzz target for
# AIKIDO_FUZZ_SECONDS (15 by default), and the soak in release mode. A failing
# step does not stop the others; the run fails if any failed. The last line
# is "reliability: N passed, N failed".
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$AIKIDO_ROOT"

fuzz_seconds=${AIKIDO_FUZZ_SECONDS:-15}
# One input running longer than this is a hang (libFuzzer's default, 20
# minutes, once cost a CI run most of its time): the shell target's scripts
# stop after 200 ms and the other targets' inputs take microseconds.
fuzz_unit_timeout=${AIKIDO_FUZZ_UNIT_TIMEOUT:-20}
reproducers=$(mktemp)
trap 'rm -f "$reproducers"' EXIT
stress_seconds=${AIKIDO_STRESS_SECONDS:-5}
soak_dispatches=${AIKIDO_SOAK_DISPATCHES:-10000000}
host=x86_64-unknown-linux-gnu
# Nightly and sanitizer builds keep their own target directories, so that
# they never invalidate the main build.
export CARGO_TERM_COLOR=never

passed=0
failed=0
failures=()
step() { # name command...
    local name=$1 started=$SECONDS
    shift
    echo
    echo "--- $name"
    if "$@"; then
        passed=$((passed + 1))
        echo "--- $name: ok ($((SECONDS - started)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "--- $name: FAILED ($((SECONDS - started)) s)"
    fi
}

# Isolation off: the storage behind the C functions reads the clock
# (modification times), which isolated Miri refuses.
miri() {
    MIRIFLAGS=-Zmiri-disable-isolation CARGO_TARGET_DIR=target/miri cargo +nightly miri test --lib ffi::
}

tsan() {
    AIKIDO_STRESS_SECONDS=$stress_seconds CARGO_TARGET_DIR=target/tsan RUSTFLAGS=-Zsanitizer=thread \
        RUSTDOCFLAGS=-Zsanitizer=thread TSAN_OPTIONS=halt_on_error=1 \
        cargo +nightly test -Zbuild-std --target "$host" --test stress -- --nocapture
}

# One target for fuzz_seconds from the committed seeds plus the corpus it
# grew before; prints its executions and crashes.
fuzz() { # target
    local target=$1 log marker status=0
    marker=$(mktemp) # artifacts newer than this are this run's crashes
    log=$(mktemp)
    mkdir -p "fuzz/corpus/$target"
    (cd fuzz && cargo +nightly fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$fuzz_seconds" -timeout="$fuzz_unit_timeout" -print_final_stats=1 -detect_leaks=1) >"$log" 2>&1 || status=1
    local runs crashes
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    crashes=$(find "fuzz/artifacts/$target" -type f -newer "$marker" 2>/dev/null | wc -l)
    echo "fuzz $target: ${runs:-0} executions in $fuzz_seconds s, $crashes crashes"
    if ((status != 0)); then
        tail -n 60 "$log"
        # The reproducer's bytes too, repeated at the very end of the run:
        # CI shows only the end of its output.
        find "fuzz/artifacts/$target" -type f -newer "$marker" 2>/dev/null | while read -r artifact; do
            echo "reproducer: $artifact, base64 of its first 4 KiB:"
            head -c 4096 "$artifact" | base64 -w 0
            echo
        done | tee -a "$reproducers"
    fi
    rm -f "$log" "$marker"
    return "$status"
}

soak() {
    AIKIDO_SOAK_DISPATCHES=$soak_dispatches cargo test --release --test soak -- --nocapture
}

step "setup: nightly, miri, rust-src, cargo-fuzz" scripts/setup.sh nightly fuzz
step "miri: the C ABI's unit tests (src/ffi/tests.rs)" miri
step "tsan: tests/stress.rs, 8 threads for $stress_seconds s" tsan
step "fuzz: build the targets" sh -c "cd fuzz && cargo +nightly fuzz build -O"
for target in dispatch_arguments schema_helpers registry_ops shell_parse shell_nesting dialect_respond mcp_handle validate_suite snapshot_restore; do
    step "fuzz: $target for $fuzz_seconds s" fuzz "$target"
done
step "soak: $soak_dispatches dispatches in release mode" soak

echo
((failed)) && printf 'failed: %s\n' "${failures[@]}"
cat "$reproducers"
echo "reliability: $passed passed, $failed failed"
((failed == 0))
