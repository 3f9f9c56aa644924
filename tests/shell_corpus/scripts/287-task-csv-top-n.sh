tail -n +2 data/sales.csv | sort -t, -k4 -rn | head -n 3 | cut -d, -f1,2,4
