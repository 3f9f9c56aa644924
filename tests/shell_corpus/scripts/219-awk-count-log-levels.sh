awk '{count[$3]++} END {for (l in count) print l, count[l]}' logs/app.log | sort -k2 -rn
