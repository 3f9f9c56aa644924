awk -F, 'NR > 1 {rev[$2] += $4 * $5} END {for (r in rev) printf "%s,%.2f\n", r, rev[r]}' data/sales.csv | sort -t, -k2 -rn
