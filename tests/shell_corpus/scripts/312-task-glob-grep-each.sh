for f in src/*.py; do
  if grep -q 'import' "$f"; then
    echo "$f: $(grep -c import "$f") imports"
  else
    echo "$f: no imports"
  fi
done
