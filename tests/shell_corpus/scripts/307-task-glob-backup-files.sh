mkdir -p backup
for f in *.md *.ini; do
  cp "$f" "backup/$f.bak"
done
ls backup
