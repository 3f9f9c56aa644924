grep -oE '"[A-Z]+ [^ ]+' logs/access.log | cut -d' ' -f2 | sort | uniq -c | sort -rn | head -n 3
