basename src/lib/helpers.py
basename src/lib/helpers.py .py
dirname src/lib/helpers.py
dirname helpers.py
basename /
dirname a/b/
basename -s .txt notes/todo.txt 2>/dev/null || basename notes/todo.txt .txt
