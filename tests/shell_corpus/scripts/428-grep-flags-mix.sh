grep -iw 'info' logs/app.log | head -2
grep -E -o 'worker-[0-9]+' logs/app.log | sort -u
grep -v -c INFO logs/app.log
grep -n -m2 ERROR logs/app.log
grep -A1 '^\[database\]' config.ini
grep -rh --include='*.py' '^from' . | sort -u
