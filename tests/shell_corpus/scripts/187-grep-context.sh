grep -A 1 "\[database\]" config.ini
grep -B 2 "^timeout" config.ini
grep -C 1 "workers" config.ini
grep -m 1 -A 2 ERROR logs/app.log | cut -c1-45
