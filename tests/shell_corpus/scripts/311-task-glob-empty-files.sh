for f in src/*.py build/.gitkeep; do
  [ -s "$f" ] || echo "empty: $f"
done
