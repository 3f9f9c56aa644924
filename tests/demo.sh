#!/usr/bin/env bash
# The demo (`make demo`) sets up before it builds, prints exactly the
# committed transcript, and runs clean under Valgrind: no errors, no leaks.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# On a fresh machine the build needs setup's C compiler: `make demo` sets
# up before anything builds, and shows what setup says (it says what it
# installs), never sending it to /dev/null.
plan=$(make -n --no-print-directory demo)
setup_line=$(echo "$plan" | grep -n 'scripts/setup.sh c' | head -n 1 | cut -d: -f1)
build_line=$(echo "$plan" | grep -n 'cargo build' | head -n 1 | cut -d: -f1)
if [ -z "$setup_line" ] || [ -z "$build_line" ] || ((setup_line > build_line)); then
    echo "demo: make demo must run scripts/setup.sh c before cargo build:"
    echo "$plan"
    exit 1
fi
if echo "$plan" | grep 'scripts/setup.sh' | grep -q '/dev/null'; then
    echo "demo: make demo hides what setup installs (>/dev/null)"
    exit 1
fi

make -s --no-print-directory demo > "$out"
if ! diff -u examples/agent_turn/expected-output.txt "$out"; then
    echo "demo: the transcript differs from examples/agent_turn/expected-output.txt"
    exit 1
fi
(cd examples/agent_turn && valgrind -q --suppressions="$AIKIDO_ROOT/tests/valgrind.supp" --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
    --error-exitcode=1 ../../build/agent_turn model-reply.json > /dev/null)
echo "demo: 3 passed, 0 failed"
