touch nodir/file.txt
echo "status $?"
touch README.md && echo "existing file ok"
