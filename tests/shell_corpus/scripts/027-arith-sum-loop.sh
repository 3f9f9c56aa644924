total=0
for n in 3 14 15 92 65; do
  total=$((total + n))
done
echo "total=$total avg=$((total / 5))"
