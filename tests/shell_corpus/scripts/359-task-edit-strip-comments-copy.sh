mkdir -p clean
for f in src/*.py; do
  grep -v '^\s*#' "$f" | sed '/^$/N;/^\n$/D' > "clean/$(basename "$f")"
done
wc -l clean/*.py | sort -n
