ls README.md config.ini
ls nosuch 2>/dev/null
echo "status $?"
ls -A | head -n 3
