sed 's/a/b/' nosuch.txt
echo "status $?"
sed -n '1p' README.md nosuch.txt 2>/dev/null
echo "status $?"
