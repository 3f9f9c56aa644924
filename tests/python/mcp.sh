#!/usr/bin/env bash
# The MCP server against the official MCP Python client (mcp, pinned in
# tests/python/requirements.txt): aikido-mcp and the test fixture
# (examples/mcp_fixture.rs) over stdio and Streamable HTTP, plus raw-pipe
# checks. Prints "mcp: N passed, N failed" last.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$AIKIDO_ROOT"
[ -x "$AIKIDO_PYTHON" ] || { echo "mcp: $AIKIDO_PYTHON is missing (run scripts/setup.sh python)"; exit 1; }
cargo build --release --quiet --bin aikido-mcp --example mcp_fixture
export AIKIDO_MCP_BIN="$AIKIDO_LIB/aikido-mcp" AIKIDO_MCP_FIXTURE="$AIKIDO_LIB/examples/mcp_fixture"
exec timeout 600 "$AIKIDO_PYTHON" tests/python/mcp_client.py "$@"
