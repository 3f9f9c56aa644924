grep ERROR logs/app.log | head -n 3
grep -c ERROR logs/app.log
grep -c WARN logs/app.log logs/old/app.log.1
