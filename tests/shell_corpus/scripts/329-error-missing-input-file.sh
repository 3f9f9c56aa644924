wc -l < nosuch.txt
echo "status $?"
echo "still running"
