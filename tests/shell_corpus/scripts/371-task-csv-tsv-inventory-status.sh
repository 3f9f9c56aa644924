while IFS=$'\t' read -r sku name qty loc; do
  [[ $sku == sku ]] && continue
  if (( qty == 0 )); then st=OUT
  elif (( qty < 20 )); then st=LOW
  else st=OK; fi
  printf '%-8s %-10s %4d %s\n' "$sku" "$name" "$qty" "$st"
done < data/inventory.tsv
