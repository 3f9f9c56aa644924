cd nosuchdir
echo "status $?"
cd README.md 2>/dev/null
echo "status $?"
cd src && cd .. && ls -d src
