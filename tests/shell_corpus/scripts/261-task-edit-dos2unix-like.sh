printf 'line one\r\nline two\r\n' > win.txt
grep -c $'\r' win.txt
sed -i 's/\r$//' win.txt
grep -c $'\r' win.txt
cat win.txt
