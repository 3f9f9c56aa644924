tail -n +2 data/sales.csv | cut -d, -f1,4 | awk -F, '{d[$1] += $2} END {for (k in d) print k, d[k]}' | sort | head -n 5
