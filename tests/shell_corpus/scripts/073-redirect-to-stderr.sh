warn() { echo "warning: $*" >&2; }
warn "disk almost full" 2>/dev/null
warn "visible" 2>&1
echo "stdout line" 1>&2 2>/dev/null
echo end
