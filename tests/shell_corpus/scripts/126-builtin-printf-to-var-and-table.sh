printf '%-10s %5s\n' NAME QTY
tail -n +2 data/inventory.tsv | while IFS=$'\t' read -r sku name qty loc; do
  printf '%-10s %5d\n' "$name" "$qty"
done
