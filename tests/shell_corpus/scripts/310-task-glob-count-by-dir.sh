for d in */; do
  n=$(find "$d" -type f | wc -l)
  echo "${d%/} $n"
done
