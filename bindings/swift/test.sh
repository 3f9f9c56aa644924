#!/usr/bin/env bash
# The Swift binding's tests, as `make test` runs them. The Swift toolchain
# lives in its own Debian 13 root (scripts/setup.sh swift, made here if
# missing); every swift command runs in it through scripts/swift-root.sh.
# Runs `swift test` linked with the build tree's libaikido.so (-L and an
# rpath), again linked with the static archive, then the README's quick
# start (the code shown is the code run, its output the output shown),
# then the quick start against an installed copy found through pkg-config,
# and `swift test --sanitize=thread`. Ends with `swift: N passed, N failed`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"

here="$AIKIDO_ROOT/bindings/swift"
out="$AIKIDO_ROOT/build/swift"
scratch="$AIKIDO_ROOT/target/swift"
mkdir -p "$out"
cd "$here"

"$AIKIDO_ROOT/scripts/setup.sh" swift || { echo "swift: the Swift root could not be set up (scripts/setup.sh swift)"; exit 1; }
[ -e "$AIKIDO_LIB/libaikido.so.0.1" ] && [ -e "$AIKIDO_LIB/libaikido.a" ] || make -C "$AIKIDO_ROOT" --no-print-directory build

passed=0
failed=0
test_only=()
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAILED: $1"; }
in_root() { "$AIKIDO_ROOT/scripts/swift-root.sh" "$@"; }
# The libraries a program loads, as the root's ldd says (read whole: a
# reader that stops early would fail the pipe).
libraries_of() { in_root ldd "$1" 2>&1 || true; }
# SwiftPM says so when aikido.pc is not installed: expected outside the
# installed route.
quiet() { grep -v "warning: couldn't find pc file for aikido" || true; }

# swift_tests NAME SCRATCH FLAGS...: builds and runs the XCTest suite
# (with the flags of `swift test` alone in the array test_only),
# adding the counts of its "Executed N tests, with M failures" line; a
# build that fails before running counts as one failure.
swift_tests() {
    local name=$1 scratch_path=$2 log="$out/test-$1.log" status=0
    shift 2
    {
        in_root swift build --build-tests --scratch-path "$scratch_path" "$@" &&
            in_root swift test --skip-build --scratch-path "$scratch_path" "$@" "${test_only[@]}"
    } >"$log" 2>&1 || status=$?
    local counts
    counts=$(sed -n "s/^.*Executed \([0-9]*\) tests\{0,1\}, with \([0-9]*\) failures\{0,1\} .*$/\1 \2/p" "$log" | tail -n 1)
    if [ -z "$counts" ]; then
        quiet <"$log" | tail -n 60
        fail "swift test ($name): exited with status $status before running tests"
        return
    fi
    local total=${counts% *} failures=${counts#* }
    passed=$((passed + total - failures))
    failed=$((failed + failures))
    if [ "$status" -eq 0 ] && [ "$failures" -eq 0 ]; then
        echo "ok: swift test ($name): $total tests passed"
    else
        grep -E "error: |failed|FAILED|WARNING: ThreadSanitizer|SUMMARY" "$log" | head -n 60 || true
        [ "$failures" -ne 0 ] || fail "swift test ($name): exited with status $status"
        echo "FAILED: swift test ($name): $failures of $total tests failed"
    fi
}

# The build tree: libaikido.so found through -L and an rpath.
swift_tests shared "$scratch" -Xlinker -L"$AIKIDO_LIB" -Xlinker -rpath -Xlinker "$AIKIDO_LIB"
tests_binary="$scratch/debug/AikidoPackageTests.xctest"
if libraries_of "$tests_binary" | grep -q "libaikido.so.0.1 => $AIKIDO_LIB/libaikido.so"; then
    pass "the shared build loads $AIKIDO_LIB/libaikido.so.0.1"
else
    fail "the shared build does not load libaikido.so.0.1 from $AIKIDO_LIB"
fi

if in_root swift format lint --strict --recursive Package.swift Sources Tests >"$out/format.log" 2>&1; then
    pass "swift format lint: the sources are formatted (.swift-format)"
else
    cat "$out/format.log"
    fail "swift format lint: the files above need \`swift format --in-place --recursive Package.swift Sources Tests\`"
fi

# The quick start: README.md shows Sources/QuickStart/main.swift and its output.
readme_block() { # the first ```LANGUAGE block of the README
    awk -v fence="\`\`\`$1" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside' "$here/README.md"
}
if diff <(readme_block swift) "$here/Sources/QuickStart/main.swift" >/dev/null; then
    pass "README.md shows Sources/QuickStart/main.swift"
else
    fail "README.md's quick start differs from Sources/QuickStart/main.swift"
fi
if in_root "$scratch/debug/QuickStart" >"$out/quick-start.out" 2>&1 && diff <(readme_block text) "$out/quick-start.out"; then
    pass "the quick start prints what README.md shows"
else
    fail "the quick start's output differs from README.md"
fi

# The static archive alone in a folder: -laikido finds it, and the program
# needs no libaikido at run time.
mkdir -p "$out/static"
ln -sf "$AIKIDO_LIB/libaikido.a" "$out/static/libaikido.a"
swift_tests static "$scratch" -Xlinker -L"$out/static" -Xlinker -lpthread -Xlinker -ldl -Xlinker -lm
if ! libraries_of "$tests_binary" | grep -q libaikido; then
    pass "the static build needs no libaikido at run time"
else
    fail "the static build still loads a libaikido"
fi

# An installed copy, found through pkg-config aikido: -I and -L come from
# aikido.pc; SwiftPM drops its -Wl,-rpath ("prohibited flag"), so the rpath
# is given as the README says, from pkg-config's libdir.
prefix="$out/prefix"
rm -rf "$prefix"
make -C "$AIKIDO_ROOT" --no-print-directory install PREFIX="$prefix" >"$out/install.log" 2>&1 ||
    { cat "$out/install.log"; fail "make install PREFIX=$prefix"; }
installed_build='export PKG_CONFIG_PATH="$1"; shift
swift build --product QuickStart -Xlinker -rpath -Xlinker "$(pkg-config --variable=libdir aikido)" "$@"'
if in_root sh -c "$installed_build" sh "$prefix/lib/pkgconfig" --scratch-path "$scratch-installed" >"$out/installed.log" 2>&1 &&
    in_root "$scratch-installed/debug/QuickStart" >"$out/installed.out" 2>&1 &&
    diff <(readme_block text) "$out/installed.out"; then
    pass "the quick start built against the installed copy through pkg-config prints what README.md shows"
else
    tail -n 30 "$out/installed.log"
    fail "the quick start against the installed copy (PKG_CONFIG_PATH=$prefix/lib/pkgconfig)"
fi
if libraries_of "$scratch-installed/debug/QuickStart" | grep -q "libaikido.so.0.1 => $prefix/lib/libaikido.so.0.1"; then
    pass "the installed build loads $prefix/lib/libaikido.so.0.1"
else
    fail "the installed build does not load libaikido.so.0.1 from $prefix/lib"
fi
rm -rf "$prefix" # 290 MB, made afresh by each run

# ThreadSanitizer (its own build folder: every file is compiled
# instrumented). Skipped here: the tests whose handlers run on threads the
# library made (respond's pool, serve's workers). libaikido is not
# instrumented, so TSan cannot see the library's own hand-over between
# threads and reports every Swift value crossing it (see README.md); the
# library's threads have their own TSan run in tests/reliability.
test_only=(--skip 'testSharedDialectCases|testRespond|testServe')
swift_tests tsan "$scratch-tsan" --sanitize=thread -Xlinker -L"$AIKIDO_LIB" -Xlinker -rpath -Xlinker "$AIKIDO_LIB"

echo "swift: $passed passed, $failed failed"
((failed == 0))
