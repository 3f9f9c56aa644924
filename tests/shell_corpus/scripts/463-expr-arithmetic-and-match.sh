# Old-style arithmetic and string matching with expr.
count=0
for f in data/*; do
    count=$(expr $count + 1)
done
echo "files: $count"
for f in data/users.csv notes/todo.txt README.md; do
    ext=$(expr "$f" : '.*\.\(.*\)')
    base=$(expr "$f" : '.*/\(.*\)\.') || base=$(expr "$f" : '\(.*\)\.')
    echo "$f -> base=$base ext=$ext len=$(expr length "$f")"
done
expr substr "2024-03-01" 1 4
expr index "widget" "dg"
expr \( 7 + 3 \) \* 2 / 3
expr 10 \> 9 \& 2 \< 3
if expr "v1.2.3" : 'v[0-9]' > /dev/null; then echo "looks like a version"; fi
expr 0 > /dev/null; echo "zero: status $?"
expr 5 / 0 2>&1; echo "status $?"
expr 1 + x 2>&1; echo "status $?"
expr 1 + 2>&1; echo "status $?"
