largest=
max=-1
for f in src/*.py src/lib/*.py; do
  size=$(wc -c < "$f")
  if [ "$size" -gt "$max" ]; then max=$size; largest=$f; fi
done
echo "$largest ($max bytes)"
