[ 1 -eq ]
echo "status $?"
[ abc -gt 1 ] 2>/dev/null
echo "status $?"
[ ]
echo "empty test: $?"
