#!/usr/bin/env bash
# The benchmark table: each measure, its figure, its target, and whether it
# hits. Builds the library, runs the C-ABI benchmark (benches/dispatch.c), the
# Rust criterion benches (benches/: the shell's against host bash and GNU
# grep, spawned) and the Go binding's BenchmarkDispatch.
# Timed figures are medians of several rounds; on a shared machine repeat
# the run before reading much into one miss. Exits non-zero only when a
# step breaks, not when a target is missed.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$AIKIDO_ROOT"

scripts/setup.sh c >/dev/null
make --no-print-directory build
mkdir -p build
# Every allocator entry point is wrapped so the bench can count allocations.
cc -std=c11 -O2 -Wall -Wextra -Werror -pedantic -Iinclude benches/dispatch.c "$AIKIDO_LIB/libaikido.a" \
    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign \
    -lpthread -ldl -lm -o build/bench_dispatch

echo "running the C benchmark (about a minute)" >&2
c_figures=$(build/bench_dispatch all)
figure() { awk -F'\t' -v name="$1" '$1 == name { print $2 }' <<<"$c_figures"; }

# Instructions per small dispatch: repeatable where timings are not. Two
# runs of different lengths, so that setup cancels out.
echo "counting instructions with callgrind (about 20 seconds)" >&2
instructions() { # iterations
    valgrind --tool=callgrind --callgrind-out-file=/dev/null build/bench_dispatch small "$1" 2>&1 >/dev/null |
        awk '/Collected/ { print $NF }'
}
short_run=$(instructions 2000)
long_run=$(instructions 12000)
# measure_small makes 7.1 calls per iteration (warm-up and 7 rounds).
instructions_per_call=$(awk -v a="$short_run" -v b="$long_run" 'BEGIN { printf "%.0f", (b - a) / (7.1 * 10000) }')

echo "counting instructions of the gate's workloads (scripts/instructions.sh, about a minute)" >&2
instruction_table=$(scripts/instructions.sh)

# The registry's scaling curve: register N tools and list them (CPU time,
# native), and the instructions of a dispatch among them (callgrind, the
# registration run uninstrumented).
echo "measuring the registry's scaling curve, 1k to 1M tools (about two minutes)" >&2
scale_rows=""
for tools in 1000 10000 100000 1000000; do
    native=$(build/instructions scale "$tools" 1)
    scale_register=$(awk -F'\t' '$1 == "scale_register_s" { print $3 }' <<<"$native")
    scale_definitions=$(awk -F'\t' '$1 == "scale_definitions_s" { print $3 }' <<<"$native")
    collected=$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \
        build/instructions scale "$tools" 2000 2>&1 >/dev/null | awk '/Collected/ { print $NF }')
    scale_rows+="$tools"$'\t'"$scale_register"$'\t'"$scale_definitions"$'\t'"$((collected / 2000))"$'\n'
done
scale_register_1m=$(awk -F'\t' '$1 == 1000000 { print $2 }' <<<"$scale_rows")
scale_definitions_1m=$(awk -F'\t' '$1 == 1000000 { print $3 }' <<<"$scale_rows")

echo "running the criterion benches (about a minute)" >&2
cargo bench --quiet --bench dispatch -- --warm-up-time 1 --measurement-time 3 >build/criterion.txt 2>&1
# criterion's median estimate, in ns, for one benchmark id.
criterion_ns() {
    python3 -c 'import json, sys; print("%.1f" % json.load(open(sys.argv[1]))["median"]["point_estimate"])' \
        "target/criterion/$1/new/estimates.json"
}

echo "running the shell benches (about 30 seconds)" >&2
cargo bench --quiet --bench shell -- --warm-up-time 1 --measurement-time 3 >build/criterion-shell.txt 2>&1
echo "running the host-folder storage bench on /usr/include (about 30 seconds)" >&2
cargo bench --quiet --bench storage -- --warm-up-time 1 --measurement-time 3 >build/criterion-storage.txt 2>&1
echo "running the shell against GNU bash and coreutils on /usr/include (about 40 seconds)" >&2
gnu_figures=$(cargo bench --quiet --bench shell_gnu 2>build/shell-gnu.txt)
echo "running the session snapshot bench (a few seconds)" >&2
snapshot_figures=$(cargo bench --quiet --bench snapshot 2>build/snapshot.txt)
gnu_figure() { awk -F'\t' -v name="$1" -v column="$2" '$1 == name { print $column }' <<<"$gnu_figures"; }
# Crates the shell adds: unique "name vX" lines of the normal dependency tree,
# default features against the registry-only build.
crates() { cargo tree -e normal --prefix none "$@" | awk '{ print $1, $2 }' | sort -u | wc -l; }
crates_default=$(crates)
crates_registry=$(crates --no-default-features --features exact-numbers)
crates_storage=$(crates --no-default-features --features exact-numbers,storage)
crates_shell=$(crates --no-default-features --features exact-numbers,shell)
crates_mcp_http=$(crates --no-default-features --features exact-numbers,mcp-http)

echo "running the MCP benchmark against FastMCP (about 30 seconds)" >&2
cargo build --release --quiet --example mcp_fixture
scripts/setup.sh python >/dev/null
mcp_figures=$("$AIKIDO_PYTHON" benches/mcp_bench.py "$AIKIDO_LIB/examples/mcp_fixture")
mcp_figure() { awk -F'\t' -v name="$1" '$1 == name { print $2 }' <<<"$mcp_figures"; }

echo "running the Go benchmark" >&2
go_ns=""
if [ -d bindings/go/tools ] && scripts/setup.sh go >/dev/null 2>&1; then
    go_output=$(cd bindings/go && go test -run '^$' -bench BenchmarkDispatch -benchmem ./tools 2>&1 || true)
    echo "$go_output" >build/go-bench.txt
    go_ns=$(awk '$1 ~ /^BenchmarkDispatch(-[0-9]+)?$/ { print $3; exit }' <<<"$go_output")
fi

hits=0
misses=0
line() { printf '| %-62s | %16s | %-12s | %-4s |\n' "$@"; }
row() { # measure figure unit target verdict(hit|miss)
    if [ "$5" = hit ]; then hits=$((hits + 1)); else misses=$((misses + 1)); fi
    line "$1" "$2 $3" "$4" "$5"
}
info() { line "$1" "$2 $3" "-" ""; } # a figure without a target
verdict() { # value operator limit
    if awk -v v="$1" -v l="$3" "BEGIN { exit !(v $2 l) }"; then echo hit; else echo miss; fi
}

small=$(figure small_dispatch_ns)
allocations=$(figure small_dispatch_allocations)
gbps=$(figure large_dispatch_gbps)
scaling=$(figure two_thread_scaling)
machine_scaling=$(figure machine_scaling)
definitions=$(figure definitions_100_ns)
rss=$(figure rss_growth_kib)

echo
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
line measure figure target hit
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..64})" "$(printf -- '-%.0s' {1..18})" "$(printf -- '-%.0s' {1..14})" "------"
row "1. small dispatch through the C ABI" "$small" ns "<= 150 ns" "$(verdict "$small" '<=' 150)"
info "   instructions per small dispatch (callgrind)" "$instructions_per_call" ""
row "2. allocations per small dispatch (C ABI)" "$allocations" "" "1" "$(verdict "$allocations" '==' 1)"
row "3. 1 MiB of arguments through dispatch ($(figure large_records) records)" "$gbps" GB/s ">= 1 GB/s" "$(verdict "$gbps" '>=' 1)"
row "4. two threads vs one, same registry" "$scaling" x ">= 1.8x" "$(verdict "$scaling" '>=' 1.8)"
info "   (control: two threads of plain arithmetic)" "$machine_scaling" x
row "5. definitions() of 100 tools ($(figure definitions_bytes) bytes)" "$definitions" ns "<= 2000 ns" \
    "$(verdict "$definitions" '<=' 2000)"
if [ -n "$go_ns" ]; then
    row "6. Go dispatch, cgo and callback included" "$go_ns" ns "<= 400 ns" "$(verdict "$go_ns" '<=' 400)"
else
    row "6. Go dispatch, cgo and callback included" missing "" "<= 400 ns" miss
fi
row "7. RSS growth over $(figure rss_dispatches) dispatches" "$rss" KiB "within 1 MiB" \
    "$(verdict "${rss#-}" '<=' 1024)"
info "Rust API: small dispatch (criterion)" "$(criterion_ns dispatch/small)" ns
info "Rust API: 1 MiB argument check (criterion)" \
    "$(awk -v ns="$(criterion_ns check/1MiB)" 'BEGIN { printf "%.2f", 1048576 / ns }')" GB/s
info "Rust API: definitions of 100 tools, cached (criterion)" "$(criterion_ns definitions/100_tools_cached)" ns
info "Rust API: definitions of 100 tools, rebuilt (criterion)" "$(criterion_ns definitions/100_tools_rebuilt)" ns
echo_ns=$(criterion_ns shell/echo_hi_dispatch)
grep_ns=$(criterion_ns shell/grep_count_10MiB)
gnu_grep_ns=$(criterion_ns shell/gnu_grep_count_10MiB)
us() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1000 }'; }
ms() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1000000 }'; }
grep_ratio=$(awk -v a="$grep_ns" -v b="$gnu_grep_ns" 'BEGIN { printf "%.2f", a / b }')
shell_crates=$((crates_shell - crates_registry))
row "8. \`echo hi\` through the bash tool's dispatch (Rust)" "$(us "$echo_ns")" us "<= 5 us" \
    "$(verdict "$echo_ns" '<=' 5000)"
info "   (Shell::run alone, without the tool and the registry)" "$(us "$(criterion_ns shell/echo_hi_run)")" us
info "   (spawning bash -c 'echo hi')" "$(ms "$(criterion_ns shell/bash_spawn_echo_hi)")" ms
row "9. grep -c ERROR over 10 MiB in memory, vs GNU grep spawned" "$grep_ratio" x "<= 2x" \
    "$(verdict "$grep_ratio" '<=' 2)"
info "   the shell's grep, through the tool" "$(ms "$grep_ns")" ms
info "   GNU grep on the same file on disk, spawned" "$(ms "$gnu_grep_ns")" ms
info "   GNU grep on an empty file, spawned (its spawn cost)" "$(ms "$(criterion_ns shell/gnu_grep_empty)")" ms
row "10. crates the shell adds to the registry-only build" "$shell_crates" "" "< 88 bashkit" \
    "$(verdict "$shell_crates" '<' 88)"
info "   (registry-only $crates_registry, with storage $crates_storage, default $crates_default)" "" ""
respond_ns=$(criterion_ns dialects/respond_anthropic_4_calls)
sleeping_ns=$(criterion_ns dialects_sleeping/respond_4_calls_of_100ms)
definitions_for_ns=$(criterion_ns dialects/definitions_for_100_tools_cached)
row "11. respond: 4-call Anthropic reply, handlers doing nothing (Rust)" "$(us "$respond_ns")" us "<= 5 us" \
    "$(verdict "$respond_ns" '<=' 5000)"
info "   (the same, AIKIDO_RESPOND_SEQUENTIAL)" "$(us "$(criterion_ns dialects/respond_anthropic_4_calls_sequential)")" us
row "12. respond: 4 calls whose handlers each sleep 100 ms" "$(ms "$sleeping_ns")" ms "<= 150 ms" \
    "$(verdict "$sleeping_ns" '<=' 150000000)"
row "13. definitions_for(Anthropic) of 100 tools, cached (Rust)" "$definitions_for_ns" ns "<= 2000 ns" \
    "$(verdict "$definitions_for_ns" '<=' 2000)"
info "   (OpenAI Responses, strict, cached)" "$(criterion_ns dialects/definitions_for_100_tools_strict_cached)" ns
row "14. MCP tools/call over stdio, pipelined, vs FastMCP" "$(mcp_figure ratio)" x ">= 20x" \
    "$(verdict "$(mcp_figure ratio)" '>=' 20)"
info "   libaikido's server (examples/mcp_fixture.rs)" "$(mcp_figure aikido_calls_per_s)" calls/s
info "   FastMCP (mcp's MCPServer, benches/mcp_fastmcp_server.py)" "$(mcp_figure fastmcp_calls_per_s)" calls/s
row "15. MCP one small call at a time, p99 round trip (stdio)" "$(mcp_figure p99_us)" us "<= 1000 us" \
    "$(verdict "$(mcp_figure p99_us)" '<=' 1000)"
info "   p50 round trip; FastMCP's p99" "$(mcp_figure p50_us) / $(mcp_figure fastmcp_p99_us)" us
info "   crates Streamable HTTP adds (tiny_http)" "$((crates_mcp_http - crates_registry))" ""
info "HostDir: stat every file of /usr/include (7,911 here)" "$(ms "$(criterion_ns hostdir/stat_every_file)")" ms
info "HostDir: list every folder of /usr/include" "$(ms "$(criterion_ns hostdir/list_every_folder)")" ms
info "HostDir: read 500 files of /usr/include" "$(ms "$(criterion_ns hostdir/read_500_files)")" ms
info "Policy over HostDir: stat every file" "$(ms "$(criterion_ns hostdir/policy_stat_every_file)")" ms
full_ratio=$(figure full_over_required)
row "16. small dispatch, FULL validation vs REQUIRED (same run)" "$full_ratio" x "<= 2x" \
    "$(verdict "$full_ratio" '<=' 2)"
info "   REQUIRED / FULL, ns per call" "$(figure small_required_ns) / $(figure small_full_ns)" ns
info "   allocations per small dispatch in FULL mode" "$(figure small_full_allocations)" ""
full_mbps=$(figure large_full_mbps)
row "17. 1 MiB of arguments in FULL mode, every record's schema checked" "$full_mbps" MB/s ">= 300 MB/s" \
    "$(verdict "$full_mbps" '>=' 300)"
info "Rust API: small dispatch, FULL (criterion)" "$(criterion_ns dispatch/small_full)" ns
info "Rust API: 1 MiB in FULL mode (criterion)" \
    "$(awk -v ns="$(criterion_ns check/1MiB_full)" 'BEGIN { printf "%.0f", 1048576 * 1000 / ns }')" MB/s
row "20. register 1,000,000 tools (CPU time)" "$scale_register_1m" s "<= 5 s" "$(verdict "$scale_register_1m" '<=' 5)"
row "21. definitions of 1,000,000 tools, first call (CPU time)" "$scale_definitions_1m" s "<= 2 s" \
    "$(verdict "$scale_definitions_1m" '<=' 2)"
while IFS=$'\t' read -r tools register listed dispatch; do
    [ -n "$tools" ] || continue
    info "   $tools tools: register s / definitions s / dispatch instructions" "$register / $listed / $dispatch" ""
done <<<"$scale_rows"
gnu_geomean=$(gnu_figure geomean 2)
gnu_worst=$(awk -F'\t' 'NF == 5 && $4 > worst { worst = $4; name = $1 } END { printf "%.2f %s", worst, name }' <<<"$gnu_figures")
row "18. shell vs GNU bash + coreutils on /usr/include, geometric mean" "$gnu_geomean" x "<= 1.0x" \
    "$(verdict "$gnu_geomean" '<=' 1.0)"
info "   (without bash's own spawn, $(gnu_figure spawn_ms 2) ms, on GNU's side)" "$(gnu_figure geomean 3)" x
row "19. the same, the worst script (${gnu_worst#* })" "${gnu_worst%% *}" x "<= 2.0x" \
    "$(verdict "${gnu_worst%% *}" '<=' 2.0)"
while IFS=$'\t' read -r name ours theirs ratio bare; do
    [ -n "$bare" ] || continue
    info "   $name: ours / GNU ms = ratio (w/o bash's spawn $(printf %.2f "$bare"))" \
        "$(printf '%.1f / %.1f = %.2f' "$ours" "$theirs" "$ratio")" x
done <<<"$gnu_figures"
echo
echo "Instructions per call (callgrind; the gate scripts/instructions.sh --check compares them with benches/instructions.tsv):"
echo "$instruction_table"
echo
echo "targets: $hits hit, $misses missed (criterion's reports: build/criterion.txt, build/criterion-shell.txt; the GNU comparison's table: build/shell-gnu.txt)"

echo
echo "session snapshots (issue 30; target: snapshot and restore under 5 ms, fork cheaper):"
echo "$snapshot_figures"
