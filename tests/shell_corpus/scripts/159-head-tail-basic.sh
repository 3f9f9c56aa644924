head -n 3 logs/app.log | cut -c1-30
tail -n 2 data/sales.csv
head -2 data/users.csv
tail -3 notes/ideas.txt
