total=0
for f in $(grep -rl 'def ' src | sort); do
  n=$(grep -c '^def ' "$f")
  total=$((total + n))
  printf '%-22s %2d\n' "$f" "$n"
done
echo "total=$total"
