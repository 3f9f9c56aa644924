tail -n +36 data/sales.csv
head -n -35 data/sales.csv
head -c 20 README.md; echo
tail -c 10 config.ini
