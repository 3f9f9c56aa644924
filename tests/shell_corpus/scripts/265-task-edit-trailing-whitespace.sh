printf 'a  \nb\t\nc\n' > ws.txt
grep -c '[[:space:]]$' ws.txt
sed -i 's/[[:space:]]*$//' ws.txt
grep -c '[[:space:]]$' ws.txt
wc -c < ws.txt
