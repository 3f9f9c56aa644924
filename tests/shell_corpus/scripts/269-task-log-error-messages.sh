grep ERROR logs/app.log | cut -d']' -f2- | sed 's/^ //' | sort | uniq -c | sort -rn
