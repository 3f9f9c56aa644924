for f in src/*.py; do
  printf '%-20s %3d\n' "$f" "$(wc -l < "$f")"
done
