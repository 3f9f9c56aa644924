grep -v '^$' notes/ideas.txt | wc -l
grep -i "todo" README.md
grep -ic "error" logs/app.log
grep -vc INFO logs/app.log
