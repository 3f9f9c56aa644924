#!/usr/bin/env bash
# The Go binding's tests: vet, the tests and examples under -race against the
# static library, again against the shared library, the link of each, and
# the README's quick start run exactly as written. Assumes `make build` and
# `scripts/setup.sh go` have run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$AIKIDO_ROOT/bindings/go"

command -v go >/dev/null || { echo "go is missing: run scripts/setup.sh go" >&2; exit 1; }
for library in libaikido.a libaikido.so libaikido.so.0.1; do
    [ -e "$AIKIDO_LIB/$library" ] || { echo "$AIKIDO_LIB/$library is missing: run make build" >&2; exit 1; }
done

echo "--- gofmt and go vet"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "not gofmt-formatted: $unformatted" >&2; exit 1; }
go vet ./...
go vet -tags aikido_shared ./...

echo "--- go test -race (static libaikido.a)"
go test -race -count=1 ./...

echo "--- go test -tags aikido_shared (libaikido.so)"
LD_LIBRARY_PATH="$AIKIDO_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" go test -count=1 -tags aikido_shared ./...

echo "--- linkage: static binaries need no libaikido.so, shared ones need its soname"
binaries=$(mktemp -d)
trap 'rm -rf "$binaries"' EXIT
go build -o "$binaries/static" ./examples/quickstart
go build -tags aikido_shared -o "$binaries/shared" ./examples/quickstart
if readelf -d "$binaries/static" | grep -q 'NEEDED.*libaikido'; then
    echo "the static build links libaikido.so" >&2
    exit 1
fi
readelf -d "$binaries/shared" | grep -q 'NEEDED.*\[libaikido\.so\.0\.1\]' ||
    { echo "the aikido_shared build does not need libaikido.so.0.1" >&2; exit 1; }
echo "ok"

echo "--- README quick start, exactly as written"
# The first go block of the README is examples/quickstart/main.go; the
# first text block is its output.
block() { awk -v fence="\`\`\`$1" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside' README.md; }
diff -u <(block go) examples/quickstart/main.go
diff -u <(block text) <("$binaries/static")
LD_LIBRARY_PATH="$AIKIDO_LIB" "$binaries/shared" | diff -u <(block text) -
echo "ok"
