# Sourced by the suites that count their checks (after scripts/env.sh):
# `check description command...` runs the command, prints "ok   description"
# or "FAIL description", and counts it in $passed or $failed.
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
