grep -o 'for user [a-z]*' logs/app.log | awk '{print $3}' | sort -u
grep -c 'invalid token' logs/app.log
