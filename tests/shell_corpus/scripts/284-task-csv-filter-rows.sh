head -n 1 data/sales.csv > widgets.csv
grep ',widget,' data/sales.csv >> widgets.csv
wc -l < widgets.csv
tail -n 2 widgets.csv
