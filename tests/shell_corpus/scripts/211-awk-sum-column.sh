awk -F, 'NR>1 {sum += $4} END {print "units:", sum}' data/sales.csv
awk -F, 'NR>1 {total += $4 * $5} END {printf "revenue: %.2f\n", total}' data/sales.csv
