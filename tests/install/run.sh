#!/usr/bin/env bash
# The install test: `make install` into a fresh prefix, the files it must
# put there, and a consumer program built with nothing but pkg-config's
# flags, linked once against the shared library and once against the static,
# each run from a clean environment; then the README's quick start, built
# with the README's own lines from a clean shell.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"

for tool in gcc pkg-config readelf make; do
    command -v "$tool" >/dev/null || { echo "install: $tool is missing (run scripts/setup.sh c)"; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
lib="$prefix/lib"
version=$(sed -n 's/^#define AIKIDO_VERSION "\(.*\)"$/\1/p' "$AIKIDO_ROOT/include/aikido.h")
soname_version=${version%.*} # 0.x: the soname carries the minor

source "$AIKIDO_ROOT/scripts/checks.sh" # check, $passed, $failed
link_target() { [ -L "$1" ] && [ "$(readlink "$1")" = "$2" ]; }
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'; }
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'; }

make --no-print-directory -C "$AIKIDO_ROOT" install PREFIX="$prefix" >"$tmp/make.log" 2>&1 || {
    cat "$tmp/make.log"
    echo "install: make install failed"
    exit 1
}

check "header installed, same as include/aikido.h" cmp -s "$prefix/include/aikido.h" "$AIKIDO_ROOT/include/aikido.h"
check "static library installed" test -f "$lib/libaikido.a" -a ! -L "$lib/libaikido.a"
check "shared library installed as libaikido.so.$version" test -f "$lib/libaikido.so.$version" -a ! -L "$lib/libaikido.so.$version"
check "its soname is libaikido.so.$soname_version" test "$(soname "$lib/libaikido.so.$version")" = "libaikido.so.$soname_version"
check "libaikido.so.$soname_version -> libaikido.so.$version" link_target "$lib/libaikido.so.$soname_version" "libaikido.so.$version"
check "libaikido.so -> libaikido.so.$soname_version" link_target "$lib/libaikido.so" "libaikido.so.$soname_version"
check "pkg-config file installed" test -f "$lib/pkgconfig/aikido.pc"

export PKG_CONFIG_PATH="$lib/pkgconfig"
check "pkg-config finds aikido $version" test "$(pkg-config --modversion aikido)" = "$version"
cflags=$(pkg-config --cflags aikido)
libs=$(pkg-config --libs aikido)
check "pkg-config --cflags points into the prefix" test "${cflags% }" = "-I$prefix/include"
check "pkg-config --libs points into the prefix, with an rpath" test "${libs% }" = "-L$lib -Wl,-rpath,$lib -laikido"
check "aikido-static.pc installed" test -f "$lib/pkgconfig/aikido-static.pc"
check "pkg-config --libs aikido-static names the archive" \
    test "$(pkg-config --libs aikido-static | sed 's/ *$//')" = "$lib/libaikido.a -lpthread -ldl -lm"

# Shared: the program needs the soname and runs from the prefix's lib.
consumer=$AIKIDO_ROOT/tests/install/consumer.c
strict=(-std=c99 -Wall -Wextra -Werror -pedantic)
# shellcheck disable=SC2046 # pkg-config's flags are words by design
check "consumer builds with pkg-config --cflags --libs" \
    gcc "${strict[@]}" "$consumer" $(pkg-config --cflags --libs aikido) -o "$tmp/consumer-shared"
if [ -x "$tmp/consumer-shared" ]; then
    check "consumer (shared) needs libaikido.so.$soname_version" \
        sh -c "readelf -d '$tmp/consumer-shared' | grep -q 'NEEDED.*\\[libaikido.so.$soname_version\\]'"
    check "consumer (shared) runs from a clean environment (the rpath finds the library)" \
        env -i PATH=/usr/bin:/bin "$tmp/consumer-shared"
fi

# Static: aikido-static.pc names the archive itself, so the linker cannot
# pick the .so; the system libraries it needs (libm, libc…) stay shared, as
# glibc's static archives cannot go into a dynamic program. The program
# then needs no libaikido at run time.
# shellcheck disable=SC2046
check "consumer builds with pkg-config --cflags --libs aikido-static" \
    gcc "${strict[@]}" "$consumer" $(pkg-config --cflags --libs aikido-static) -o "$tmp/consumer-static"
if [ -x "$tmp/consumer-static" ]; then
    check "consumer (static) needs no libaikido" sh -c "! readelf -d '$tmp/consumer-static' | grep -q libaikido"
    check "consumer (static) runs" env -u LD_LIBRARY_PATH "$tmp/consumer-static"
fi

# The README's quick start, built with the README's own install lines from
# a clean shell (only PATH, and PKG_CONFIG_PATH since this prefix is not a
# system one), then run with no environment at all: it must print what the
# README says.
block_after() { # marker: the first fenced block after the line holding it
    awk -v marker="$1" 'index($0, marker) { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$AIKIDO_ROOT/README.md"
}
mkdir "$tmp/quickstart"
block_after '<!-- quickstart:' > "$tmp/quickstart/quickstart.c"
block_after '<!-- quickstart-output -->' > "$tmp/quickstart/expected.txt"
for route in 'pkg-config --cflags --libs aikido)' 'pkg-config --cflags --libs aikido-static)'; do
    line=$(grep -F "$route" "$AIKIDO_ROOT/README.md" | grep '^cc ' | head -n 1 | sed 's/ *#.*//')
    check "README has a build line with \$($route" test -n "$line"
    [ -n "$line" ] || continue
    rm -f "$tmp/quickstart/quickstart"
    check "README: $line (clean shell)" env -i PATH=/usr/bin:/bin PKG_CONFIG_PATH="$lib/pkgconfig" \
        sh -c "cd '$tmp/quickstart' && $line"
    check "README: ./quickstart runs with no environment and prints the README's output" \
        sh -c "cd '$tmp/quickstart' && env -i ./quickstart | diff -u expected.txt -"
done

# A system prefix gets no rpath (ld.so searches it; ldconfig refreshes its
# cache), and both .pc files: staged with DESTDIR, as a package build does.
make --no-print-directory -C "$AIKIDO_ROOT" install PREFIX=/usr DESTDIR="$tmp/staged" >"$tmp/staged.log" 2>&1 ||
    cat "$tmp/staged.log"
check "PREFIX=/usr: aikido.pc has no rpath" sh -c "grep -q '^Libs: -L\${libdir} *-laikido\$' '$tmp/staged/usr/lib/pkgconfig/aikido.pc'"
check "PREFIX=/usr: aikido-static.pc staged" test -f "$tmp/staged/usr/lib/pkgconfig/aikido-static.pc"

echo "install: $passed passed, $failed failed"
((failed == 0 && passed > 0))
