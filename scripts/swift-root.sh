#!/usr/bin/env bash
# Runs a command inside the Debian 13 root that holds the Swift toolchain
# (made by `scripts/setup.sh swift`), with the repository bind-mounted at the
# same path, so that paths agree inside and out, and in the current folder.
#
#   scripts/swift-root.sh CMD...                 run CMD in the root
#   scripts/swift-root.sh --unmount-all [ROOT]   unmount whatever is left under ROOT
#
# The mounts (/proc, /dev, the repository) are made in a mount namespace of
# their own (unshare), so they vanish with the command even when it is
# killed, and runs at the same time do not see each other's. Mounts left
# under the root on this machine's own table by anything else (an older
# script, a killed set-up) are unmounted first: /proc/mounts is the record.
set -euo pipefail
source "$(dirname "$0")/env.sh"

unmount_all() { # every mount at or under $1, deepest first
    local top mount
    top=$(realpath -m "$1")
    awk -v top="$top" '$2 == top || index($2, top "/") == 1 { print $2 }' /proc/mounts | sort -r |
        while read -r mount; do
            umount "$mount" 2>/dev/null || umount -l "$mount"
        done
}

if [ "${1-}" = --unmount-all ]; then
    unmount_all "${2:-$AIKIDO_SWIFT_ROOT}"
    exit 0
fi
(($#)) || { echo "usage: scripts/swift-root.sh CMD..." >&2; exit 2; }

root=$AIKIDO_SWIFT_ROOT
[ -d "$root/usr" ] || { echo "swift-root: no root at $root; run scripts/setup.sh swift" >&2; exit 1; }
unmount_all "$root"

# Inside the new namespace: mount, unmount in a trap (on failure too), chroot.
inside='
set -eu
root=$1 repo=$2 folder=$3
shift 3
mounted=""
cleanup() { for m in $mounted; do umount "$m" 2>/dev/null || umount -l "$m"; done; }
trap cleanup EXIT
trap "exit 130" INT TERM
mkdir -p "$root/proc" "$root/dev" "$root$repo"
mount -t proc proc "$root/proc" && mounted="$root/proc $mounted"
mount --rbind /dev "$root/dev" && mounted="$root/dev $mounted"
mount --bind "$repo" "$root$repo" && mounted="$root$repo $mounted"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
case $folder in "$repo" | "$repo"/*) ;; *) folder=/ ;; esac
status=0
chroot "$root" /usr/bin/env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root TMPDIR=/tmp LANG=C.UTF-8 /bin/sh -c '\''cd "$1" && shift && exec "$@"'\'' sh "$folder" "$@" || status=$?
exit $status
'
exec unshare --mount --propagation private /bin/sh -c "$inside" sh "$root" "$AIKIDO_ROOT" "$PWD" "$@"
