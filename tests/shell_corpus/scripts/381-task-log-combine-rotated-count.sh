cat logs/old/app.log.1 logs/app.log | grep -c ERROR
for f in logs/app.log logs/old/app.log.1; do
  printf '%s: %s lines, %s errors\n' "$(basename "$f")" "$(wc -l < "$f")" "$(grep -c ERROR "$f")"
done
