n=abc
if [ "$n" -gt 3 ] 2>/dev/null; then echo big; else echo "not a number (status $?)"; fi
[[ 5 -gt 3 ]] && echo "dbracket ok"
