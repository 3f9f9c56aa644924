mv nosuch.txt x.txt
echo "status $?"
mv README.md nodir/ 2>/dev/null || echo "cannot move into missing dir"
ls README.md
