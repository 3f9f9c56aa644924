bad=0
n=0
while IFS=, read -r date region product units price; do
  n=$((n + 1))
  [ "$n" -eq 1 ] && continue
  case $units in ''|*[!0-9]*) echo "line $n: bad units"; bad=$((bad + 1)) ;; esac
done < data/sales.csv
echo "checked $((n - 1)) rows, $bad bad"
