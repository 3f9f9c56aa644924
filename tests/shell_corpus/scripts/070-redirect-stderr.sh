ls nosuchfile 2> err.txt
echo "status $?"
wc -l < err.txt
cat missing.txt 2>/dev/null || echo "cat failed quietly"
