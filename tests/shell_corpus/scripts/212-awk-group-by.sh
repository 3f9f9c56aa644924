awk -F, 'NR>1 {units[$2] += $4} END {for (r in units) print r, units[r]}' data/sales.csv | sort
awk -F, 'NR>1 {n[$3]++} END {for (p in n) printf "%-10s %d\n", p, n[p]}' data/sales.csv | sort
