seq -w 8 11
seq -s, 1 5
seq 1 2 9 | xargs -n2
echo a b c d e | xargs -n2 echo pair:
