grep ERROR logs/app.log | tee errors.txt | wc -l
wc -l < errors.txt
echo "appended" | tee -a errors.txt > /dev/null
tail -n 1 errors.txt
echo "both" | tee one.txt two.txt
cat one.txt two.txt
