for d in src tests; do
  for f in "$d"/*.py; do
    echo "$d -> $(basename "$f")"
  done
done
