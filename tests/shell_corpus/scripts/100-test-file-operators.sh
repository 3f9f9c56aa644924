for p in src src/app.py nosuch "notes/meeting notes.txt" src/__init__.py; do
  t=""
  [ -e "$p" ] && t="$t exists"
  [ -d "$p" ] && t="$t dir"
  [ -f "$p" ] && t="$t file"
  [ -s "$p" ] && t="$t nonempty"
  echo "$p:$t"
done
