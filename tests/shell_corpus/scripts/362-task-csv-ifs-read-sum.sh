total=0
count=0
while IFS=, read -r date region product units price; do
  [ "$date" = date ] && continue
  total=$((total + units))
  count=$((count + 1))
done < data/sales.csv
echo "rows=$count units=$total avg=$((total / count))"
