for f in $(find . -type f -name '*.*'); do
  echo "${f##*.}"
done | sort | uniq -c | sort -k1,1rn -k2
