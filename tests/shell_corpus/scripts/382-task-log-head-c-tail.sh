head -c 40 logs/app.log; echo
tail -c 30 logs/app.log
head -n 3 logs/access.log | tail -n 1
