grep -o '"[A-Z]* [^ ]*' logs/access.log | tr -d '"' | sort | uniq -c | sort -rn | head -5
