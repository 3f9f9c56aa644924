is_python() {
  case $1 in *.py) return 0 ;; *) return 1 ;; esac
}
for f in src/app.py README.md src/utils.py; do
  if is_python "$f"; then echo "$f yes"; else echo "$f no"; fi
done
is_python x.txt
echo "status $?"
