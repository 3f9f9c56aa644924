true; echo $?
false; echo $?
: ignored arguments; echo $?
: > truncated.txt
wc -c < truncated.txt
while :; do echo loop; break; done
