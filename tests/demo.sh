#!/usr/bin/env bash
# The demo (`make demo`) prints exactly the committed transcript, and runs
# clean under Valgrind: no errors, no leaks.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

make -s --no-print-directory demo > "$out"
if ! diff -u examples/agent_turn/expected-output.txt "$out"; then
    echo "demo: the transcript differs from examples/agent_turn/expected-output.txt"
    exit 1
fi
(cd examples/agent_turn && valgrind -q --suppressions="$AIKIDO_ROOT/tests/valgrind.supp" --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
    --error-exitcode=1 ../../build/agent_turn model-reply.json > /dev/null)
echo "demo: 2 passed, 0 failed"
