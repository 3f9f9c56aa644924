cut -d' ' -f4 logs/app.log | tr -d '[]' | sort | uniq -c | sort -rn
