cat nosuch.txt 2>&1
echo "rc=$?"
grep foo nosuch.txt 2>&1; echo "rc=$?"
ls nosuch 2>&1; echo "rc=$?"
head -n 2 nosuch 2>&1; echo "rc=$?"
