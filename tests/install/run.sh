#!/usr/bin/env bash
# The install test: `make install` into a fresh prefix, the files it must
# put there, and a consumer program built with nothing but pkg-config's
# flags, linked once against the shared library and once against the static.
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

passed=0
failed=0
check() { # description command...
    local description=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok   $description"
    else
        failed=$((failed + 1))
        echo "FAIL $description"
    fi
}
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
check "pkg-config --libs points into the prefix" test "${libs% }" = "-L$lib -laikido"

# Shared: the program needs the soname and runs from the prefix's lib.
consumer=$AIKIDO_ROOT/tests/install/consumer.c
strict=(-std=c99 -Wall -Wextra -Werror -pedantic)
# shellcheck disable=SC2046 # pkg-config's flags are words by design
check "consumer builds with pkg-config --cflags --libs" \
    gcc "${strict[@]}" "$consumer" $(pkg-config --cflags --libs aikido) -o "$tmp/consumer-shared"
if [ -x "$tmp/consumer-shared" ]; then
    check "consumer (shared) needs libaikido.so.$soname_version" \
        sh -c "readelf -d '$tmp/consumer-shared' | grep -q 'NEEDED.*\\[libaikido.so.$soname_version\\]'"
    check "consumer (shared) runs" env LD_LIBRARY_PATH="$lib" "$tmp/consumer-shared"
fi

# Static: the same flags with --static, the archive chosen over the .so by
# -Bstatic around -laikido only; the system libraries it needs (libm, libc…)
# stay shared, as glibc's static archives cannot go into a dynamic program.
# The program then needs no libaikido at run time.
static_libs=$(pkg-config --static --libs aikido | sed 's/-laikido/-Wl,-Bstatic -laikido -Wl,-Bdynamic/')
# shellcheck disable=SC2086
check "consumer builds with pkg-config --static --libs" \
    gcc "${strict[@]}" "$consumer" $(pkg-config --cflags aikido) $static_libs -o "$tmp/consumer-static"
if [ -x "$tmp/consumer-static" ]; then
    check "consumer (static) needs no libaikido" sh -c "! readelf -d '$tmp/consumer-static' | grep -q libaikido"
    check "consumer (static) runs" env -u LD_LIBRARY_PATH "$tmp/consumer-static"
fi

echo "install: $passed passed, $failed failed"
((failed == 0 && passed > 0))
