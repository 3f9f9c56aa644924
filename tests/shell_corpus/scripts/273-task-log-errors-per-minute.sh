grep ERROR logs/app.log | cut -c12-16 | uniq -c | sort -rn | head -n 3
