first=$(grep -m1 ERROR logs/app.log | cut -d' ' -f2)
last=$(grep ERROR logs/app.log | tail -n 1 | cut -d' ' -f2)
echo "first error at $first, last at $last"
