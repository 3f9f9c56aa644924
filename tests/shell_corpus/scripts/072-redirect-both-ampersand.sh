{ echo to-out; echo to-err >&2; } &> both.txt
sort both.txt
{ echo more >&2; } &>> both.txt
wc -l < both.txt
