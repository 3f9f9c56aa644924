grep -r TODO src > /dev/null && echo "todos found"
cat /dev/null > empty.txt
wc -c < empty.txt
echo hidden > /dev/null
ls empty.txt
