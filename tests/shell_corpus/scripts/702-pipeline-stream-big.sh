seq 1 300000 | wc -l
seq 1 300000 | tail -n 1
seq 300000 | grep -c 7
seq 1 300000 | cat | cat | wc -c
seq 1 300000 | grep -n 99999 | head -n 3
cat data/*.csv | wc -l
