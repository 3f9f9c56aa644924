tmp=work.tmp
trap 'rm -f "$tmp"; echo removed' EXIT
echo data > "$tmp"
cat "$tmp"
