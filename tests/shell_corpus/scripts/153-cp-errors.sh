cp nosuch.txt dest.txt
echo "status $?"
cp src dest 2>/dev/null
echo "status $?"
cp README.md nodir/sub/ 2>/dev/null || echo "no such target dir"
