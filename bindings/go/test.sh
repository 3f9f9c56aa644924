#!/usr/bin/env bash
# The Go binding's tests: vet, the tests and examples under -race against the
# static library, again against the shared library, the link of each, the
# README's quick start run exactly as written, and the two ways a Go program
# links libaikido: from this checkout (the default) and from an installed
# copy through pkg-config (-tags aikido_pkgconfig), each built in a module of
# its own outside the checkout, from a clean environment. Assumes `make
# build` and `scripts/setup.sh go` have run. Ends with `go: N passed, N failed`
# (each Go test and example, and each check of this script).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$AIKIDO_ROOT/bindings/go"

command -v go >/dev/null || { echo "go is missing: run scripts/setup.sh go" >&2; exit 1; }
for library in libaikido.a libaikido.so libaikido.so.0.1; do
    [ -e "$AIKIDO_LIB/$library" ] || { echo "$AIKIDO_LIB/$library is missing: run make build" >&2; exit 1; }
done

work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT # KEEP_WORK=1 keeps it to look at
source "$AIKIDO_ROOT/scripts/checks.sh" # check, $passed, $failed
# go test -v, counting each top-level test and example; prints the package
# lines and any failure, not every test.
go_tests() { # description go-test-arguments...
    local description=$1 log="$work/go-test.log"
    shift
    go test -v "$@" > "$log" 2>&1
    local status=$?
    local ok bad
    ok=$(grep -c '^--- PASS' "$log")
    bad=$(grep -c '^--- FAIL' "$log")
    grep -E '^(ok|FAIL|---? FAIL|panic:|\S+\.go:[0-9]+)' "$log" | grep -v '^--- PASS'
    passed=$((passed + ok))
    failed=$((failed + bad))
    if ((status != 0 && bad == 0)); then
        tail -n 30 "$log"
        failed=$((failed + 1))
    fi
    echo "$description: $ok passed, $bad failed"
}

echo "--- gofmt and go vet"
check "gofmt" test -z "$(gofmt -l .)"
check "go vet" go vet ./...
check "go vet -tags aikido_shared" go vet -tags aikido_shared ./...

echo "--- go test -race (static libaikido.a)"
go_tests "go test -race" -race -count=1 ./...

echo "--- go test -tags aikido_shared (libaikido.so)"
LD_LIBRARY_PATH="$AIKIDO_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" go_tests "go test -tags aikido_shared" \
    -count=1 -tags aikido_shared ./...

echo "--- linkage: static binaries need no libaikido.so, shared ones need its soname"
binaries=$work/bin
check "go build (static)" go build -o "$binaries/static" ./examples/quickstart
check "go build -tags aikido_shared" go build -tags aikido_shared -o "$binaries/shared" ./examples/quickstart
check "the static build needs no libaikido.so" sh -c "! readelf -d '$binaries/static' | grep -q 'NEEDED.*libaikido'"
check "the aikido_shared build needs libaikido.so.0.1" \
    sh -c "readelf -d '$binaries/shared' | grep -q 'NEEDED.*\[libaikido\.so\.0\.1\]'"

echo "--- README quick start, exactly as written"
# The first go block of the README is examples/quickstart/main.go; the
# first text block is its output.
block() { awk -v fence="\`\`\`$1" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside' README.md; }
block text > "$work/expected.txt"
check "README's go block is examples/quickstart/main.go" sh -c "$(declare -f block); block go | diff -u - examples/quickstart/main.go"
check "static quick start prints the README's output" sh -c "'$binaries/static' | diff -u '$work/expected.txt' -"
check "shared quick start prints the README's output" \
    sh -c "LD_LIBRARY_PATH='$AIKIDO_LIB' '$binaries/shared' | diff -u '$work/expected.txt' -"

# A user's module outside the checkout, with the README's replace line
# pointing at a copy of this module ($1: where the copy's repository root
# is); built from a clean environment: only PATH, Go's own cache settings,
# and what the route needs ($2...: extra variables).
user_module() { # dir module-copy
    mkdir -p "$1"
    cp examples/quickstart/main.go "$1/main.go"
    printf 'module example.com/quickstart\n\ngo 1.25\n\nrequire github.com/govengers/aikido v0.0.0\n\nreplace github.com/govengers/aikido => %s\n' \
        "$2" > "$1/go.mod"
}
clean_go() { # dir env-assignments... -- go-arguments...
    local dir=$1
    shift
    local vars=()
    while [ "$1" != "--" ]; do vars+=("$1"); shift; done
    shift
    (cd "$dir" && env -i PATH="$(dirname "$(command -v go)"):/usr/bin:/bin" HOME="$work/home" \
        GOCACHE="$GOCACHE" GOPATH="$GOPATH" GOTOOLCHAIN=local GOFLAGS=-mod=mod "${vars[@]}" go "$@")
}

echo "--- route 1, in the checkout: a module of one's own with a replace line to bindings/go"
user_module "$work/in-tree" "$AIKIDO_ROOT/bindings/go"
check "go build (in-tree, clean env)" clean_go "$work/in-tree" -- build -o quickstart .
check "it runs with no environment and prints the README's output" \
    sh -c "cd '$work/in-tree' && env -i ./quickstart | diff -u '$work/expected.txt' -"

echo "--- route 1 before make build: a readable hint, not a linker line"
mkdir -p "$work/unbuilt/bindings"
cp -r "$AIKIDO_ROOT/include" "$work/unbuilt/"
cp -r "$AIKIDO_ROOT/bindings/go" "$work/unbuilt/bindings/"
user_module "$work/unbuilt-user" "$work/unbuilt/bindings/go"
clean_go "$work/unbuilt-user" -- build -o quickstart . > "$work/unbuilt.log" 2>&1
check "go build fails and says: run \`make build\`" grep -q 'libaikido is not built: run `make build`' "$work/unbuilt.log"

echo "--- route 2, installed: make install, then -tags aikido_pkgconfig with PKG_CONFIG_PATH"
prefix=$work/prefix
make --no-print-directory -C "$AIKIDO_ROOT" install PREFIX="$prefix" > "$work/install.log" 2>&1 ||
    cat "$work/install.log"
# The module copied out of the checkout: nothing of the tree is in reach.
mkdir -p "$work/module"
cp -r "$AIKIDO_ROOT/bindings/go" "$work/module/"
user_module "$work/installed" "$work/module/go"
for tags in aikido_pkgconfig aikido_pkgconfig,aikido_shared; do
    rm -f "$work/installed/quickstart"
    check "go build -tags $tags (clean env, PKG_CONFIG_PATH only)" clean_go "$work/installed" \
        PKG_CONFIG_PATH="$prefix/lib/pkgconfig" -- build -tags "$tags" -o quickstart .
    check "it runs with no environment and prints the README's output" \
        sh -c "cd '$work/installed' && env -i ./quickstart | diff -u '$work/expected.txt' -"
    if [ "$tags" = aikido_pkgconfig ]; then
        check "it needs no libaikido.so" sh -c "! readelf -d '$work/installed/quickstart' | grep -q 'NEEDED.*libaikido'"
    else
        check "it needs libaikido.so.0.1, found through the rpath" \
            sh -c "readelf -d '$work/installed/quickstart' | grep -q 'NEEDED.*\[libaikido\.so\.0\.1\]'"
    fi
done

echo "go: $passed passed, $failed failed"
((failed == 0 && passed > 0))
