for f in src/*.py; do
  base="${f##*/}"
  echo "${base%.py} -> ${f%.py}.bak"
done
