# File descriptors 3-9: exec opens them for the rest of the script.
exec 3> out3.txt
echo hi >&3
echo there >&3
exec 3>&-
cat out3.txt
exec 3>> out3.txt
echo more >&3
exec 3>&-
wc -l < out3.txt
exec 4< config.ini
read -u 4 first
read -u 4 second
exec 4<&-
echo "first: $first"
echo "second: $second"
echo hi >&5; echo "bad fd status $?"
read -u 6 x; echo "bad read status $?"
{ echo out; echo err >&2; } 3>&1 1>&2 2>&3 | tr a-z A-Z
{ echo to3 >&3; } 3>&1
echo x 3> f3.txt >&3
cat f3.txt
exec 3>&1
echo via3 >&3
exec 3>&-
echo closed >&3; echo "closed status $?"
exec 5<&0
echo done
