unset a; b=""; c=val
echo "[${a:-x}] [${b:-x}] [${c:-x}]"
echo "[${a-x}] [${b-x}] [${c-x}]"
echo "[${a:+y}] [${b:+y}] [${c:+y}]"
echo "[${c/#v/V}] [${c/%l/L}]"
x=${a:=assigned}; echo "$a $x"
