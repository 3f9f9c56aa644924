awk -F, 'NR > 1 && $3 == "gadget" {n++; s += $4} END {printf "gadget avg units: %.2f over %d sales\n", s / n, n}' data/sales.csv
