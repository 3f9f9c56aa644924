awk '{ print $(NF-1) }' logs/access.log | sort | uniq -c | sort -k2n | while read -r c code; do
  printf '%s %3d %s\n' "$code" "$c" "$(printf '%*s' "$c" '' | tr ' ' '#')"
done
