#!/usr/bin/env bash
# `cargo build --release` and `cargo test --release` must build the library
# with the same features, so that switching between them recompiles nothing.
# Cargo unifies a package's features over everything one command builds, so
# a dev-dependency (criterion) that turns on a feature of a package the
# library also uses gives the library a second build. Compared here from
# cargo's own resolution (`cargo tree`), without compiling anything: every
# package of the normal build must have the same features when the
# dev-dependencies join in. The fix is in Cargo.toml (see serde_core).
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

resolved() { # edge kinds
    cargo tree -e "$1" --prefix none -f '{p} [{f}]' | sed 's/ (\*)$//' | sort -u
}
resolved normal,build > "$work/build.txt"
resolved normal,build,dev > "$work/test.txt"
[ -s "$work/build.txt" ] || { echo "features: cargo tree printed nothing"; exit 1; }
differ=$(comm -23 "$work/build.txt" "$work/test.txt")
if [ -n "$differ" ]; then
    echo "features: these packages get other features under cargo test (a dev-dependency turns more on):"
    echo "$differ"
    echo "what cargo test builds instead:"
    for package in $(echo "$differ" | awk '{ print $1 }'); do grep "^$package " "$work/test.txt"; done
    echo "features: 0 passed, 1 failed"
    exit 1
fi
echo "features: $(wc -l < "$work/build.txt") packages resolved alike; 1 passed, 0 failed"
