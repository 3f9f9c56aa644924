rm nosuch.txt
echo "status $?"
rm src 2>/dev/null
echo "status $?"
ls -d src
