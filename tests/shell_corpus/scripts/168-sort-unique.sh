cut -d, -f3 data/sales.csv | tail -n +2 | sort -u
printf 'b\na\nb\nc\na\n' | sort -u
printf '3\n03\n3\n' | sort -nu
