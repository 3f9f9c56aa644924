cut -d, -f4 data/users.csv | tail -n +2 | sort | uniq -c | sort -rn
