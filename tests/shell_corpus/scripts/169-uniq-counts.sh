tail -n +2 data/sales.csv | cut -d, -f2 | sort | uniq -c | sort -rn
awk '{print $3}' logs/app.log | sort | uniq -c
