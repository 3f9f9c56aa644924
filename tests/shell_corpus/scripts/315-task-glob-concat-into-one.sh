for f in docs/guide/*.md; do
  echo "<!-- $f -->"
  cat "$f"
done > docs/all.md
wc -l < docs/all.md
grep -c '^<!--' docs/all.md
