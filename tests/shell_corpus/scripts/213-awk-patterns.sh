awk '/ERROR/ {print $4}' logs/app.log | sort | uniq -c
awk '$3 == "WARN"' logs/app.log | wc -l
awk -F, '$4 > 35' data/sales.csv
awk '!/^#/ && NF' README.md | head -n 2
