tail -n +2 data/sales.csv | cut -d, -f2,3,4 | sort -t, -k3,3nr -k1,1 | head -4
