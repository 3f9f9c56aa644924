grep ERROR logs/app.log | awk '{print $4}' | tr -d '[]' | sort | uniq -c | sort -rn
