cat nosuch.txt
echo "status $?"
cat README.md nosuch.txt > /dev/null 2>&1
echo "status $?"
