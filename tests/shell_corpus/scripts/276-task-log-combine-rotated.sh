cat logs/old/app.log.1 logs/app.log | grep -c ERROR
cat logs/old/app.log.1 logs/app.log | head -n 4 | cut -c1-30
