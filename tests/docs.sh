#!/usr/bin/env bash
# Examples in the docs are real output. The README's blocks for the example
# shell CLI (its --help, a script and what it prints) are compared with a
# real run; the header's JSON examples are checked by tests/doc_examples.rs
# (run here too, so this step stands alone); the README's C quick start by
# tests/readme.sh.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
cd "$AIKIDO_ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$AIKIDO_ROOT/scripts/checks.sh" # check, $passed, $failed
# The first fenced block after the line holding the marker.
block_after() {
    awk -v marker="$1" 'index($0, marker) { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' README.md
}

cargo build --release --quiet --example shell
shell=target/release/examples/shell
block_after '<!-- shell-help:' > "$work/help.txt"
block_after '<!-- shell-script:' > "$work/demo.sh"
block_after '<!-- shell-output:' > "$work/output.txt"
printf 'n=42 in /tmp\nkept\n' > "$work/expected-split.txt"
check "README: the shell CLI's blocks are there" test -s "$work/help.txt" -a -s "$work/demo.sh" -a -s "$work/output.txt"
check "README: shell --help is what the program prints" sh -c "'$shell' --help | diff -u '$work/help.txt' -"
check "README: shell -h prints the same" sh -c "'$shell' -h | diff -u '$work/help.txt' -"
check "README: demo.sh prints what the README shows" \
    sh -c "cd '$work' && { '$AIKIDO_ROOT/$shell' --script demo.sh 2>&1; echo \"exit: \$?\"; } | diff -u output.txt -"
# --save and --restore split one job across two processes.
printf 'cd /tmp 2>/dev/null || { mkdir /tmp; cd /tmp; }\nn=41; f() { echo "n=$((n + 1)) in $PWD"; }\necho kept > note\n' > "$work/step1.sh"
printf 'f; cat note\n' > "$work/step2.sh"
check "README: shell --save then --restore goes on where the first run stopped" \
    sh -c "'$shell' --save '$work/s.bin' --script '$work/step1.sh' && '$shell' --restore '$work/s.bin' --script '$work/step2.sh' | diff -u - '$work/expected-split.txt'"
check "the header's JSON examples are real output (tests/doc_examples.rs)" \
    cargo test --release --quiet --test doc_examples
# The project stands on its own: no file points outside the repository
# (a user's clone has no ../shared), nor at an issue tracker it lacks; and
# every path the newcomer's docs name exists (relative to the repository or
# to the document's own folder).
check "no tracked file points at ../shared" sh -c "! git grep -n -I -F '../shared' -- ':!tests/docs.sh'"
check "the README points at no \`issues\` file" sh -c "! grep -n '\`issues\`' README.md"
missing_paths() {
    local doc path dir
    for doc in README.md docs/C-API.md docs/ARCHITECTURE.md bindings/*/README.md; do
        dir=$(dirname "$doc")
        grep -o '`\(src\|tests\|docs\|scripts\|bindings\|examples\|include\|benches\|bench\|vendor\)/[^` ]*`\|](\([^)#:]*\))' "$doc" |
            sed 's/^`//; s/`$//; s/^](//; s/)$//; s/:[0-9]*$//' | sort -u | while read -r path; do
            case $path in *'*'* | *'…'* | *'{'* | *'<'* | *NAME* | *'$'* | http*) continue ;; esac
            [ -e "$path" ] || [ -e "$dir/$path" ] || echo "$doc: $path"
        done
    done
}
missing_paths > "$work/missing.txt"
check "every path README.md, docs/C-API.md, docs/ARCHITECTURE.md and the bindings' READMEs name exists" \
    sh -c "cat '$work/missing.txt'; ! test -s '$work/missing.txt'"

echo "docs: $passed passed, $failed failed"
((failed == 0))
