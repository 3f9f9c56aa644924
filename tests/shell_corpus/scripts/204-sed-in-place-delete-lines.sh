sed -i '/^$/d' README.md
wc -l < README.md
sed -i '1,3d' data/sales.csv
head -n 1 data/sales.csv
