#!/usr/bin/env bash
# The README's C quick start, compiled and run exactly as written: its code
# block and its printed output are read from README.md itself.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The first fenced block after each marker line.
block_after() {
    awk -v marker="$1" 'index($0, marker) { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' README.md
}
block_after '<!-- quickstart:' > "$work/quickstart.c"
block_after '<!-- quickstart-output -->' > "$work/expected.txt"
[ -s "$work/quickstart.c" ] && [ -s "$work/expected.txt" ] || { echo "readme: quick start not found"; exit 1; }

# The README's own build line, with -Wall -Wextra -Werror -pedantic added.
(cd "$work" && cc -std=c99 -Wall -Wextra -Werror -pedantic quickstart.c -I"$AIKIDO_ROOT/include" \
    "$AIKIDO_LIB/libaikido.a" -lpthread -ldl -lm -o quickstart)
"$work/quickstart" > "$work/actual.txt"
diff -u "$work/expected.txt" "$work/actual.txt"
valgrind -q --suppressions=tests/valgrind.supp --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=all --error-exitcode=1 "$work/quickstart" > /dev/null
echo "readme: 2 passed, 0 failed"
