grep 'a\{2\}' notes/*.txt || echo none
grep '^- \[x\]' notes/todo.txt
grep 'worker-[12]\]' logs/app.log | wc -l
grep '\(GET\|POST\) /login' logs/app.log | wc -l
