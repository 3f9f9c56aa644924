need() { [ -f "$1" ] || { echo "missing: $1" >&2; return 4; }; echo "ok: $1"; }
need config.ini
need nope.ini 2>&1
echo "rc=$?"
if ! need other.ini 2>/dev/null; then echo "handled"; fi
