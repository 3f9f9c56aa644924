grep -n -A 1 "INFO  \[worker-1\] request DELETE" logs/app.log | head -n 8 | cut -c1-50
