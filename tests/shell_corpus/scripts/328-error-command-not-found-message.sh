notacommand 2>&1 | grep -c "command not found"
nope 2> err.txt
grep -o 'nope: command not found' err.txt
