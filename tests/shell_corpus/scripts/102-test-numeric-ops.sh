n=$(wc -l < data/users.csv)
[ "$n" -eq 9 ] && echo "nine lines"
[ "$n" -ne 3 ] && echo "not three"
[ "$n" -gt 5 ] && [ "$n" -lt 10 ] && echo "between"
[ "$n" -ge 9 -a "$n" -le 9 ] && echo "exactly nine"
[ 1 -gt 2 -o 3 -gt 2 ] && echo "or works"
