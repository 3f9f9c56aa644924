#!/usr/bin/env bash
# The quick check for day-to-day work (`make check`): formatting, the Rust
# tests (unit, integration, doc), the header, the README's quick start, the
# other documented examples and the C suite, against one release build.
# About two minutes on a warm tree (2 cores); a change under src/ adds the
# rebuild of the library and its tests. `make test` (scripts/test.sh)
# remains the complete run CI makes: every language, the install routes,
# Miri, TSan, fuzzing and the soak. Assumes scripts/setup.sh c has run once.
# A failing step does not stop the others; the last line counts them.
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$AIKIDO_ROOT"

passed=0
failed=0
failures=()
started_all=$SECONDS
step() { # name command...
    local name=$1 started=$SECONDS
    shift
    echo "=== $name"
    if "$@"; then
        passed=$((passed + 1))
        echo "=== $name: ok ($((SECONDS - started)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "=== $name: FAILED ($((SECONDS - started)) s)"
    fi
}

step "build (target/release)" make --no-print-directory build
step "rust: formatting" cargo fmt --check
step "features: cargo build and cargo test build the library alike" tests/features.sh
# Compiled with cargo's progress shown, then run quietly.
step "rust: build the tests" cargo test --release --no-run
step "rust: unit, integration and doc tests" cargo test --release --quiet
step "header: the committed copy, as C99 and C++17" tests/header.sh
step "readme: the C quick start as written" tests/readme.sh
step "docs: examples in the README and the header are real output" tests/docs.sh
step "c: the C suite" tests/c/run.sh

echo
((failed)) && printf 'failed step: %s\n' "${failures[@]}"
echo "check: $passed passed, $failed failed ($((SECONDS - started_all)) s)"
((failed == 0))
