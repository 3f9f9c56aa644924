head -n 2 notes/ideas.txt notes/todo.txt
tail -n 1 src/app.py src/utils.py
