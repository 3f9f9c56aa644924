seq 5
seq 3 6
seq 0 5 20
seq 5 -2 1
seq -w 8 11
seq -s, 1 5
