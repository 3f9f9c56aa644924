grep ERROR logs/app.log | while read -r d t lvl worker msg; do
  echo "$worker"
done | sort | uniq -c
