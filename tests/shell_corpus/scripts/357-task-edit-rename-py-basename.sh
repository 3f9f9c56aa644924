mkdir -p out
for f in src/*.py; do
  b=$(basename "$f" .py)
  [ -s "$f" ] || { echo "skip $b"; continue; }
  cp "$f" "out/${b}_v2.py"
done
ls out
