# system(): awk's output is flushed first; the status comes back
awk 'BEGIN { printf "before "; system("echo middle"); print "after" }'
awk 'BEGIN { print system("exit 5"), system("true"), system("false") }'
awk 'BEGIN { print "written" > "note.txt"; system("cat note.txt; rm note.txt") }'; ls note.txt 2>&1 | sed 's/.*No such/No such/'
awk 'BEGIN { r = system("nosuchcommand-xyz"); print "missing:", r }' 2>/dev/null
export COLOR=blue; SECRET=hidden; cd data; awk 'BEGIN { system("echo $COLOR [$SECRET] $(basename $PWD)") }'
awk 'BEGIN { system(""); print "empty ok" }'
