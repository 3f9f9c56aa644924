#!/usr/bin/env bash
# The C suite: every tests/c/*.c program, compiled as C99 with every warning
# an error, run in four configurations: against the static library, against
# the shared library (through its soname), under ASan+UBSan, and under
# Valgrind (no errors, no leaks of any kind). Prints "c: N passed, N failed"
# last, counting programs × configurations.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"

for tool in gcc readelf valgrind timeout; do
    command -v "$tool" >/dev/null || { echo "c: $tool is missing (run scripts/setup.sh c)"; exit 1; }
done
for file in "$AIKIDO_LIB/libaikido.a" "$AIKIDO_LIB/libaikido.so" "$AIKIDO_LIB/libaikido.so.0.1"; do
    [ -e "$file" ] || { echo "c: $file is missing (run make build)"; exit 1; }
done

sources=("$AIKIDO_ROOT"/tests/c/*.c)
out="$AIKIDO_ROOT/build/c-tests"
mkdir -p "$out"
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -pthread -g -I"$AIKIDO_ROOT/include" -I"$AIKIDO_ROOT/tests/c")
static_libs=("$AIKIDO_LIB/libaikido.a" -lpthread -ldl -lm)
shared_libs=(-L"$AIKIDO_LIB" -laikido)
# Valgrind runs the static build: the program then holds exactly the code
# the first configuration ran, with no dynamic loader in the leak report.
# --fair-sched: threads take turns in order (by default one spinning thread
# can keep the others from running for long stretches).
valgrind_flags=(--quiet --fair-sched=yes --num-callers=50 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all
    --error-exitcode=1 --suppressions="$AIKIDO_ROOT/tests/valgrind.supp")
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
limit=300 # seconds per run; a hang (a deadlock) fails the run

passed=0
failed=0
failures=()
timings=()
result() { # label status seconds
    timings+=("$3 s $1")
    if (($2 == 0)); then
        passed=$((passed + 1))
        echo "ok   $1 ($3 s)"
    else
        failed=$((failed + 1))
        failures+=("$1")
        echo "FAIL $1 ($3 s)"
    fi
}

# One program in one configuration: compile, then run; output shown on failure.
run_config() { # config source
    local config=$1 source=$2 name binary log status=0 started=$SECONDS
    name=$(basename "$source" .c)
    binary="$out/$name-$config"
    log="$out/$name-$config.log"
    : >"$log"
    case $config in
    static) gcc "${cflags[@]}" -O1 "$source" "${static_libs[@]}" -o "$binary" >>"$log" 2>&1 || status=1 ;;
    shared) gcc "${cflags[@]}" -O1 "$source" "${shared_libs[@]}" -o "$binary" >>"$log" 2>&1 || status=1 ;;
    sanitized)
        gcc "${cflags[@]}" -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
            "$source" "${static_libs[@]}" -o "$binary" >>"$log" 2>&1 || status=1
        ;;
    valgrind) binary="$out/$name-static" ;; # built by the static configuration
    esac
    if ((status == 0)); then
        case $config in
        shared)
            # The program must ask for the soname, and run with it alone.
            if [ "$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(libaikido[^]]*\)\].*/\1/p')" != libaikido.so.0.1 ]; then
                echo "NEEDED is not libaikido.so.0.1:" >>"$log"
                readelf -d "$binary" | grep NEEDED >>"$log"
                status=1
            else
                LD_LIBRARY_PATH="$AIKIDO_LIB" timeout "$limit" "$binary" >>"$log" 2>&1 || status=1
            fi
            ;;
        valgrind) timeout "$limit" valgrind "${valgrind_flags[@]}" "$binary" >>"$log" 2>&1 || status=1 ;;
        *) timeout "$limit" "$binary" >>"$log" 2>&1 || status=1 ;;
        esac
    fi
    ((status == 0)) || sed 's/^/    /' "$log"
    result "$name ($config)" "$status" "$((SECONDS - started))"
}

for config in static shared sanitized valgrind; do
    for source in "${sources[@]}"; do
        run_config "$config" "$source"
    done
done

echo "slowest runs ($SECONDS s in all):"
printf '%s\n' "${timings[@]}" | sort -rn | head -n 5 | sed 's/^/    /'
((failed)) && printf 'failed: %s\n' "${failures[@]}"
echo "c: $passed passed, $failed failed"
((failed == 0))
