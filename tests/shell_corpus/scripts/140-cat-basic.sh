cat notes/ideas.txt
cat -n notes/todo.txt | head -n 3
cat notes/ideas.txt notes/todo.txt | wc -l
