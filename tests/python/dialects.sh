#!/usr/bin/env bash
# The provider dialects against the providers' official Python SDKs
# (tests/python/dialects.py, over ctypes on target/release/libaikido.so).
# Needs `make build` and the pinned venv (scripts/setup.sh python). Prints
# "python dialects: N passed, N failed" last.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
[ -x "${AIKIDO_PYTHON:-}" ] || { echo "python dialects: the venv is missing (run scripts/setup.sh python)"; exit 1; }
[ -e "$AIKIDO_LIB/libaikido.so" ] || { echo "python dialects: $AIKIDO_LIB/libaikido.so is missing (run make build)"; exit 1; }
AIKIDO_SO="$AIKIDO_LIB/libaikido.so" exec "$AIKIDO_PYTHON" "$AIKIDO_ROOT/tests/python/dialects.py"
