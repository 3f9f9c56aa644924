for ext in py md csv; do
  n=$(find . -name "*.$ext" | wc -l)
  echo "$ext: $n"
done
