echo data > nodir/out.txt
echo "status $?"
ls nodir 2>/dev/null || echo "no dir created"
