ok=$(grep -c '/health 200' logs/app.log)
all=$(grep -c '/health' logs/app.log)
printf 'health ok %d/%d\n' "$ok" "$all"
