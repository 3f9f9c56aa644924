echo start
echo a ) b
