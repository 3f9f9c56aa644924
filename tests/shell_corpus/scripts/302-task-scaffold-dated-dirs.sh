for m in 01 02 03; do
  mkdir -p "reports/2024-$m"
  echo "report for 2024-$m" > "reports/2024-$m/summary.txt"
done
find reports -type f | sort
cat reports/2024-02/summary.txt
