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
step() { # name command...
    local name=$1
    shift
    local started=$SECONDS
    echo
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

step "setup" scripts/setup.sh || true
step "build" make --no-print-directory build
step "rust: formatting (rustfmt.toml)" cargo fmt --check
step "rust: unit, integration and doc tests" cargo test --release --quiet
step "rust: the registry-only build (no default features)" cargo test --release --quiet --no-default-features --lib
step "rust: JSON-Schema-Test-Suite draft 2020-12 (prints its count)" \
    cargo test --release --quiet --test json_schema_suite -- --nocapture json_schema_test_suite
step "header: committed copy matches cbindgen, compiles as C99 and C++17" tests/header.sh
step "demo: one agent turn" tests/demo.sh
step "readme: the C quick start as written" tests/readme.sh
step "shell: the corpus's recordings still match /bin/bash here (record mode --check)" \
    scripts/shell-corpus-record.sh --check
for suite in tests/c/run.sh tests/install/run.sh bindings/cpp/test.sh bindings/go/test.sh \
    bindings/zig/test.sh tests/reliability/run.sh; do
    if [ -x "$suite" ]; then
        step "$suite" "$suite"
    else
        step "$suite" sh -c "echo 'missing or not executable: $suite'; exit 1"
    fi
done

echo
((failed)) && printf 'failed suite: %s\n' "${failures[@]}"
echo "suites: $passed passed, $failed failed"
((failed == 0))
