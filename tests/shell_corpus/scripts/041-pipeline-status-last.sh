false | true
echo "status: $?"
true | false
echo "status: $?"
grep ERROR logs/app.log | head -n 1 > /dev/null
echo "head status: $?"
