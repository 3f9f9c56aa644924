grep ERROR logs/app.log | tr -s ' ' | cut -d' ' -f3,4 | head -5
grep -c WARN logs/app.log
