# commands that read files a piece at a time print what they printed before, errors included
wc -l logs/app.log nope data 2>&1; echo "wc: $?"
wc -c < logs/app.log; cat logs/app.log | wc -lwc
head -n 2 logs/app.log nope config.ini 2>&1; echo "head: $?"
head -c 30 logs/app.log; echo; head -n -198 logs/app.log
tail -n 3 logs/app.log; tail -c 20 logs/app.log; tail -n +199 logs/app.log
tail -n 2 logs/app.log README.md nope 2>&1; echo "tail: $?"
cut -d, -f1 data/sales.csv nope 2>&1 | tail -n 3
uniq -c data/sales.csv | head -n 2; uniq nope 2>&1
awk 'END { print NR, FILENAME }' logs/app.log data/sales.csv
awk '{ n++ } FNR == 1 { print FILENAME } END { print n }' logs/app.log README.md; echo "awk: $?"
grep -c ERROR logs/app.log nope 2>&1; grep -n WARN logs/app.log | tail -n 2
cat logs/app.log data/sales.csv | wc -l; cat nope logs/old/app.log.1 2>&1 | wc -l
sed -n '1p;$p' logs/app.log nope README.md 2>&1; echo "sed: $?"; sed -n '$=' logs/app.log data/sales.csv
