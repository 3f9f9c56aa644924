sort -t, -k4,4 -k2,2r data/users.csv | head -4
sort -u -t, -k4,4 data/users.csv | cut -d, -f4
sort -t$'\t' -k3,3n data/inventory.tsv | head -3
