#!/usr/bin/env bash
# The Zig binding's tests, as `make test` runs them after `make build` and
# scripts/setup.sh. Runs `zig build test` twice, linked with libaikido.a and
# against libaikido.so, checks the formatting, then runs the README's quick
# start and checks that the README shows that very code and its output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"

here="$AIKIDO_ROOT/bindings/zig"
out="$AIKIDO_ROOT/build/zig"
mkdir -p "$out"
cd "$here"

command -v zig >/dev/null || { echo "zig: zig is missing: run scripts/setup.sh zig"; exit 1; }
[ "$(zig version)" = "$ZIG_VERSION" ] || { echo "zig: found zig $(zig version), want $ZIG_VERSION"; exit 1; }
for library in libaikido.a libaikido.so libaikido.so.0.1; do
    [ -e "$AIKIDO_LIB/$library" ] || { echo "zig: $AIKIDO_LIB/$library is missing: run make build"; exit 1; }
done

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAILED: $1"; }

# zig_tests LINKAGE: adds the counts of zig's "N/M tests passed" line; a
# build that fails before running any test counts as one failure.
zig_tests() {
    local linkage=$1 log="$out/test-$1.log" status=0
    zig build test -Dlinkage="$linkage" -Dlib-dir="$AIKIDO_LIB" --summary all >"$log" 2>&1 || status=$?
    local counts
    counts=$(sed -n 's/^Build Summary: .*; \([0-9]*\)\/\([0-9]*\) tests passed.*$/\1 \2/p' "$log")
    if [ -z "$counts" ]; then
        cat "$log"
        fail "zig build test -Dlinkage=$linkage: exited with status $status before running tests"
        return
    fi
    local ran_passed=${counts% *} ran_total=${counts#* }
    passed=$((passed + ran_passed))
    failed=$((failed + ran_total - ran_passed))
    if [ "$status" -eq 0 ] && [ "$ran_passed" -eq "$ran_total" ]; then
        echo "ok: zig build test -Dlinkage=$linkage: $ran_passed/$ran_total tests passed"
    else
        cat "$log"
        # A failing step other than a test (the quick start) still fails the run.
        [ "$ran_passed" -ne "$ran_total" ] || fail "zig build test -Dlinkage=$linkage: exited with status $status"
        echo "FAILED: zig build test -Dlinkage=$linkage"
    fi
}

zig_tests static
zig_tests dynamic

if zig fmt --check build.zig build.zig.zon src tests examples; then
    pass "zig fmt: the sources are formatted"
else
    fail "zig fmt: the files above need \`zig fmt\`"
fi

# The quick start: README.md shows examples/quick_start.zig and its output.
zig build quick-start -Dlib-dir="$AIKIDO_LIB" >"$out/quick-start.out" || fail "run the quick start"
readme_block() { # the first ```LANGUAGE block of the README
    awk -v fence="\`\`\`$1" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside' "$here/README.md"
}
if diff <(readme_block zig) "$here/examples/quick_start.zig" >/dev/null; then
    pass "README.md shows examples/quick_start.zig"
else
    fail "README.md's quick start differs from examples/quick_start.zig"
fi
if diff <(readme_block text) "$out/quick-start.out"; then
    pass "the quick start prints what README.md shows"
else
    fail "the quick start's output differs from README.md"
fi

echo "zig: $passed passed, $failed failed"
((failed == 0))
