a=1; b=2
unset a
echo "a=[$a] b=[$b]"
f() { echo func; }
unset -f f
f 2>/dev/null || echo "f is gone"
arr=(1 2 3); unset arr
echo "arr=[${arr[*]}]"
