#!/usr/bin/env bash
# The instruction-count gate: counts the instructions of five fixed
# workloads (benches/instructions.c under callgrind) and compares them with
# the committed baseline, benches/instructions.tsv.
#
#   scripts/instructions.sh            print the figures beside the baseline
#   scripts/instructions.sh --check    the same, and fail when a figure rose
#                                      more than 10 % over its baseline
#   scripts/instructions.sh --update   write today's figures as the baseline
#
# Instructions, unlike time, do not move with the machine's load, so a rise
# is the code's. When a rise is intended, run --update and commit the file.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$AIKIDO_ROOT"

mode=${1:-}
case "$mode" in
"" | --check | --update) ;;
*)
    echo "usage: scripts/instructions.sh [--check|--update]" >&2
    exit 2
    ;;
esac

baseline=benches/instructions.tsv
# How much a figure may rise over its baseline before --check fails, in %.
tolerance=10
# name, measure, iterations: enough that the warm-up's one-time costs vanish.
figures=(
    "dispatch_small dispatch_small 20000"
    "definitions_100 definitions_100 2000"
    "full_small full_small 5000"
    "respond_one respond_one 5000"
    "shell_echo shell_echo 1000"
)

scripts/setup.sh c >/dev/null
cargo build --release --quiet
mkdir -p build
cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude benches/instructions.c "$AIKIDO_LIB/libaikido.a" \
    -lpthread -ldl -lm -o build/instructions

# Instructions per iteration of one measure.
count() { # measure iterations
    local collected
    collected=$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \
        build/instructions "$1" "$2" 2>&1 >/dev/null | awk '/Collected/ { print $NF }')
    if [ -z "$collected" ]; then
        echo "instructions: callgrind gave no count for $1" >&2
        exit 1
    fi
    awk -v total="$collected" -v n="$2" 'BEGIN { printf "%.0f", total / n }'
}

declare -A old
if [ -f "$baseline" ]; then
    while IFS=$'\t' read -r name value; do
        [ -n "$name" ] && [ "${name:0:1}" != "#" ] && old[$name]=$value
    done <"$baseline"
fi

rises=0
results=""
printf '%-18s %12s %12s %8s\n' figure instructions baseline change
for entry in "${figures[@]}"; do
    read -r name measure iterations <<<"$entry"
    value=$(count "$measure" "$iterations")
    results+="$name"$'\t'"$value"$'\n'
    base=${old[$name]:-}
    if [ -z "$base" ]; then
        printf '%-18s %12s %12s %8s\n' "$name" "$value" "-" "new"
        continue
    fi
    change=$(awk -v v="$value" -v b="$base" 'BEGIN { printf "%+.1f%%", (v - b) * 100 / b }')
    printf '%-18s %12s %12s %8s\n' "$name" "$value" "$base" "$change"
    if [ "$mode" = --check ] && awk -v v="$value" -v b="$base" -v t="$tolerance" 'BEGIN { exit !(v > b * (1 + t / 100)) }'; then
        echo "instructions: $name rose to $value instructions per call, more than $tolerance % over its baseline of $base ($baseline)" >&2
        rises=$((rises + 1))
    fi
done

if [ "$mode" = --update ]; then
    {
        echo "# Instructions per call of benches/instructions.c's workloads (callgrind)."
        echo "# Written by scripts/instructions.sh --update; checked by scripts/instructions.sh --check."
        printf '%s' "$results"
    } >"$baseline"
    echo "wrote $baseline"
fi
if [ "$rises" -gt 0 ]; then
    echo "instructions: $rises figure(s) rose more than $tolerance %; if the rise is intended, run" \
        "scripts/instructions.sh --update and commit $baseline" >&2
    exit 1
fi
