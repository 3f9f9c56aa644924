line="  lots   of    spaces  "
echo $line
echo "$line"
echo "[${line}]"
x="a*b"
echo "$x"
