wc -l data/sales.csv
wc -w README.md
wc -c config.ini
wc data/users.csv
wc -l src/*.py
