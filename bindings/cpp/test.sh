#!/usr/bin/env bash
# The C++ binding's tests, as `make test` runs them after `make build` and
# scripts/setup.sh. Builds the tests with strict warnings and runs them three
# ways: linked statically, linked against the shared library, and statically
# under AddressSanitizer and UBSan. Also builds and runs the README's quick
# start and checks that the README shows that very code and its output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"

here="$AIKIDO_ROOT/bindings/cpp"
out="$AIKIDO_ROOT/build/cpp"
mkdir -p "$out"

command -v g++ >/dev/null || { echo "cpp: g++ is missing: run scripts/setup.sh c"; exit 1; }
for library in libaikido.a libaikido.so libaikido.so.0.1; do
    [ -e "$AIKIDO_LIB/$library" ] || { echo "cpp: $AIKIDO_LIB/$library is missing: run make build"; exit 1; }
done

cxxflags=(-std=c++17 -Wall -Wextra -Werror -pedantic -I"$AIKIDO_ROOT/include" -I"$here/include")
# More than the tests use, for the header and the quick start: user code may turn them on.
more_warnings=(-Wshadow -Wconversion -Wsign-conversion -Wold-style-cast -Wnon-virtual-dtor)
sanitize=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
static_libs=("$AIKIDO_LIB/libaikido.a" -pthread -ldl -lm)
shared_libs=(-L"$AIKIDO_LIB" -laikido -Wl,-rpath,"$AIKIDO_LIB" -pthread)
export AIKIDO_DISPATCH_CASES="$AIKIDO_ROOT/tests/cases/dispatch.tsv"
export AIKIDO_DIALECT_CASES="$AIKIDO_ROOT/tests/cases/dialects.tsv"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAILED: $1"; }

# compile_objects DIRECTORY FLAGS...: each tests/*.cpp into DIRECTORY, in parallel.
compile_objects() {
    local directory=$1 source pid status=0 pids=()
    shift
    mkdir -p "$directory"
    for source in "$here"/tests/*.cpp; do
        g++ "${cxxflags[@]}" "$@" -c "$source" -o "$directory/$(basename "$source" .cpp).o" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || status=1
    done
    return "$status"
}

# run_tests NAME BINARY: adds the binary's test counts; a crash or a non-zero
# exit with no failed test (a sanitizer report at exit) counts as one failure.
run_tests() {
    local name=$1 binary=$2 log="$out/$1.log" status=0
    "$binary" >"$log" 2>&1 || status=$?
    local summary
    summary=$(sed -n 's/^tests: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log")
    if [ -z "$summary" ] || { [ "$status" -ne 0 ] && [ "${summary#* }" = 0 ]; }; then
        cat "$log"
        fail "$name: exited with status $status"
        return
    fi
    passed=$((passed + ${summary% *}))
    failed=$((failed + ${summary#* }))
    [ "$status" -eq 0 ] && echo "ok: $name: $(tail -n 1 "$log")" || { cat "$log"; echo "FAILED: $name"; }
}

# A build that fails is counted, and the run of its missing binary fails too.
rm -rf "$out"/objects* "$out"/tests-* "$out"/quickstart*
compile_objects "$out/objects" -O1 || fail "compile the tests"
g++ "$out"/objects/*.o "${static_libs[@]}" -o "$out/tests-static" || fail "link the tests statically"
g++ "$out"/objects/*.o "${shared_libs[@]}" -o "$out/tests-shared" || fail "link the tests against libaikido.so"
compile_objects "$out/objects-sanitized" -O0 -g "${sanitize[@]}" || fail "compile the tests with sanitizers"
g++ "${sanitize[@]}" "$out"/objects-sanitized/*.o "${static_libs[@]}" -o "$out/tests-sanitized" ||
    fail "link the sanitized tests"

run_tests static "$out/tests-static"
run_tests shared "$out/tests-shared"
run_tests sanitized "$out/tests-sanitized"

# ldd's whole output first: `ldd | grep -q` under pipefail fails when grep
# exits at its match while ldd still writes (SIGPIPE), a flaky failure.
loaded=$(ldd "$out/tests-shared")
if grep -q "libaikido.so.0.1 => $AIKIDO_LIB/" <<<"$loaded"; then
    pass "the shared build loads libaikido.so.0.1 from $AIKIDO_LIB"
else
    fail "the shared build does not load libaikido.so.0.1: $loaded"
fi

if echo '#include <aikido.hpp>' | g++ "${cxxflags[@]}" "${more_warnings[@]}" -x c++ -fsyntax-only -; then
    pass "aikido.hpp compiles alone, with ${more_warnings[*]}"
else
    fail "aikido.hpp does not compile alone"
fi

# The quick start: README.md shows examples/quickstart.cpp and its output.
g++ "${cxxflags[@]}" "${more_warnings[@]}" "$here/examples/quickstart.cpp" "${static_libs[@]}" -o "$out/quickstart" ||
    fail "build the quick start"
"$out/quickstart" >"$out/quickstart.out" || fail "run the quick start"
readme_block() { # the first ```LANGUAGE block of the README
    awk -v fence="\`\`\`$1" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside' "$here/README.md"
}
if diff <(readme_block cpp) "$here/examples/quickstart.cpp" >/dev/null; then
    pass "README.md shows examples/quickstart.cpp"
else
    fail "README.md's quick start differs from examples/quickstart.cpp"
fi
if diff <(readme_block text) "$out/quickstart.out"; then
    pass "the quick start prints what README.md shows"
else
    fail "the quick start's output differs from README.md"
fi

echo "cpp: $passed passed, $failed failed"
((failed == 0))
