( exit 3 )
echo "exit was $?"
( false; true )
echo "last wins: $?"
out=$(cd docs && ls)
echo "$out"
