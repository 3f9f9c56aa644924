tail -n +2 data/users.csv | cut -d, -f3 | cut -d@ -f2 | sort | uniq -c | sort -k1,1rn -k2
