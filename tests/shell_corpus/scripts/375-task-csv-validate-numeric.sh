bad=0
n=0
while IFS=, read -r d r p u pr; do
  n=$((n+1))
  [ $n -eq 1 ] && continue
  if ! [[ $u =~ ^[0-9]+$ && $pr =~ ^[0-9]+\.[0-9]+$ ]]; then
    echo "line $n bad: $u $pr"; bad=$((bad+1))
  fi
done < data/sales.csv
echo "bad=$bad of $((n-1))"
