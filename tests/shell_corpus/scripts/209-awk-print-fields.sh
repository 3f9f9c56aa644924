awk '{print $1, $3}' logs/app.log | head -n 3
awk -F, '{print $2}' data/users.csv | tail -n 3
awk -F'\t' '{print $2 ":" $3}' data/inventory.tsv | head -n 3
