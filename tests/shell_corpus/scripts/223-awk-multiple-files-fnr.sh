awk 'FNR == 1 {print FILENAME ": " $0}' notes/ideas.txt notes/todo.txt
awk 'END {print NR}' notes/ideas.txt notes/todo.txt
