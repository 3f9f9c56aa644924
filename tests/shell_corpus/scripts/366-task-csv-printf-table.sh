printf '%-10s|%8s|%6s\n' product units price
tail -n +2 data/sales.csv | head -6 | while IFS=, read -r d r p u pr; do
  printf '%-10s|%8d|%6.2f\n' "$p" "$u" "$pr"
done
