tail -n +2 data/sales.csv | {
  total=0
  while IFS=, read -r date region product units price; do
    total=$((total + units))
  done
  echo "total units: $total"
}
echo "outside the pipe: ${total:-unset}"
