mkdir x/y/z
echo "status $?"
mkdir src
echo "status $?"
ls -d x 2>/dev/null || echo "x not created"
