grep -n 'refused' logs/app.log | head -n 1 | cut -d: -f1 | while read -r n; do
  sed -n "$((n - 1)),$((n + 1))p" logs/app.log | cut -c1-60
done
