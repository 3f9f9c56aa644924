for f in notes/*.txt; do
  mv -- "$f" "${f%.txt}.md"
done
ls notes
ls notes/*.txt 2>/dev/null | wc -l
