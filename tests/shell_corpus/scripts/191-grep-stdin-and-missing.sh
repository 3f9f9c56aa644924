cat logs/app.log | grep -c DEBUG
grep ERROR nosuch.log
echo "status $?"
grep -s ERROR nosuch.log; echo "silent status $?"
