sort notes/ideas.txt
cut -d, -f2 data/sales.csv | tail -n +2 | sort | uniq
printf 'b\nA\na\nB\n_\n1\n' | sort
