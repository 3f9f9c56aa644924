grep -o '[0-9]*ms' logs/app.log | head -n 3
grep -oE '/api/[a-z]+' logs/app.log | sort | uniq -c | sort -rn
grep -o 'worker-[0-9]' logs/app.log | sort -u
