# Join users and sales by name, and lay tables out with column.
cut -d, -f2,4 data/users.csv | tail -n +2 | sort > build/roles
printf 'alice,12\nbob,7\ndave,3\nzoe,1\n' > build/counts
join -t, build/roles build/counts
join -t, -a2 -e none -o 0,1.2,2.2 build/roles build/counts
join -t, -v1 build/roles build/counts
join -t, -v2 build/roles build/counts
printf 'x 1\ny 2\n' > build/a; printf 'x b\nz c\n' > build/b
join build/a build/b; join -a1 -a2 build/a build/b
printf 'b 1\na 2\n' > build/u
join build/u build/b 2>&1; echo "unsorted: $?"
column -t -s, data/users.csv
column -t data/inventory.tsv
head -3 data/sales.csv | column -t -s, -o ' | '
seq 1 25 | column -c 60
seq 1 12 | column -x -c 40
