#!/usr/bin/env bash
# The header compiles on its own and included twice, as C99 and as C++17,
# with every warning an error; and the committed copy matches cbindgen's
# output exactly (scripts/gen-header --check; tests/header.rs's quick
# check is run again here so this step stands alone).
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The exact check: the pinned cbindgen (scripts/gen-header) would write
# the committed copy byte for byte. Then the quick one in tests/header.rs.
cargo run --quiet --locked --manifest-path scripts/gen-header/Cargo.toml --target-dir target/gen-header -- --check
cargo test --release --quiet --test header
printf '#include "aikido.h"\nint main(void) { return AIKIDO_OK; }\n' > "$work/once.c"
printf '#include "aikido.h"\n#include "aikido.h"\nint main(void) { return aikido_registry_len(NULL) == 0 ? AIKIDO_OK : 1; }\n' > "$work/twice.c"
checked=0
for source in once twice; do
    gcc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -c "$work/$source.c" -o "$work/$source-c.o"
    cp "$work/$source.c" "$work/$source.cpp"
    g++ -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -c "$work/$source.cpp" -o "$work/$source-cpp.o"
    checked=$((checked + 2))
done
# Linked and run, C++ included, so the extern "C" guards are proven too.
g++ -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude "$work/twice.cpp" "$AIKIDO_LIB/libaikido.a" \
    -lpthread -ldl -lm -o "$work/twice-cpp"
"$work/twice-cpp"
echo "header: $((checked + 1)) passed, 0 failed"
