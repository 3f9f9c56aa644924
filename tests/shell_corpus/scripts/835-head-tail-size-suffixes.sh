# head and tail count bytes and lines with GNU's suffixes, lower-case k
# and m included; g and w are refused.
for s in 1k 1K 1kB 1KB 1m 1KiB 1b 1g 1w; do
  printf '%s ' "$s"; head -c "$s" logs/app.log 2>&1 | wc -c
done
tail -c 1k logs/app.log | wc -c
head -n 1k logs/app.log | wc -l
head -c 2g logs/app.log; echo "status $?"
