tail -n +2 data/sales.csv | sort -t, -k4,4n | tail -n 3
tail -n +2 data/users.csv | sort -t, -k4,4 -k2,2r
tail -n +2 data/inventory.tsv | sort -t$'\t' -k3 -n | cut -f2,3
