# Sourced by the scripts: where the project's own toolchains live, and the
# settings every step shares. Toolchains come from PyPI into .tools/ (git-ignored).
AIKIDO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
AIKIDO_TOOLS="$AIKIDO_ROOT/.tools"
AIKIDO_LIB="$AIKIDO_ROOT/target/release"
export AIKIDO_ROOT AIKIDO_TOOLS AIKIDO_LIB
export GO_VERSION=1.27.3 ZIG_VERSION=0.17.1
export PATH="$AIKIDO_TOOLS/python/go/bin:$AIKIDO_TOOLS/python/ziglang:$HOME/.cargo/bin:$PATH"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPATH="$AIKIDO_TOOLS/gopath" GOCACHE="$AIKIDO_TOOLS/gocache"
# The Python of the tests: a venv with the SDKs pinned in tests/python/requirements.txt.
export AIKIDO_PYTHON="$AIKIDO_TOOLS/venv/bin/python"
export ZIG_GLOBAL_CACHE_DIR="$AIKIDO_TOOLS/zig-cache"
# The Debian 13 root that holds the Swift toolchain (scripts/setup.sh swift).
export AIKIDO_SWIFT_ROOT="${AIKIDO_SWIFT_ROOT:-$HOME/.cache/aikido/swift-root}"
