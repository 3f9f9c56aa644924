for f in notes/*; do
  echo "[$f] $(wc -l < "$f")"
done
