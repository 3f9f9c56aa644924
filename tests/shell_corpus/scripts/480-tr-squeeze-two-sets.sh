# Word lists the way agents build them: squeeze with two sets, -cs.
tr -s '[:space:]' '\n' < README.md | sort | uniq -c | sort -rn | head -5
echo "Hello, World! 123  go" | tr -cs '[:alnum:]' '\n'
tr -cs 'A-Za-z' '\n' < notes/todo.txt | tr 'A-Z' 'a-z' | sort -u | head -5
echo "aabbcc  dd" | tr -s 'a-c' 'x-z'
echo "a  b" | tr -s ' ' '_'
echo "abc" | tr -s 2>&1; echo "st $?"
echo "abc" | tr -d a b 2>&1; echo "st $?"
