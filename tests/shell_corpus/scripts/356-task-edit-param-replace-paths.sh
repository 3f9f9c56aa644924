for f in src/*.py src/lib/*.py; do
  mod=${f%.py}
  mod=${mod//\//.}
  echo "$f => $mod"
done
