find . -name '*.md' -type f | sort | while read -r f; do
  before=$(grep -c 'inventory' "$f")
  sed -i 's/inventory/stock/g' "$f"
  echo "$f $before"
done
grep -rci inventory --include='*.md' . | sort
