sed -i 's/^- \[ \] review PR #42/- [x] review PR #42/' notes/todo.txt
done_count=$(grep -c '^- \[x\]' notes/todo.txt)
open_count=$(grep -c '^- \[ \]' notes/todo.txt)
echo "done: $done_count, open: $open_count"
