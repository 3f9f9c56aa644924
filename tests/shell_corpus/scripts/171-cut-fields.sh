cut -d, -f1,3 data/users.csv | head -n 3
cut -d, -f2- data/users.csv | tail -n 1
cut -f2,4 data/inventory.tsv | head -n 3
cut -d' ' -f1-2 logs/app.log | head -n 2
