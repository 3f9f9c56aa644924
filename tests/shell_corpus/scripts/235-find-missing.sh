find nosuchdir -name "*.py"
echo "status $?"
find src -name "*.nothing" | wc -l
