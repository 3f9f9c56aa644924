cut -d, -f4 data/sales.csv | tail -n +2 | sort -n | head -n 3
cut -d, -f4 data/sales.csv | tail -n +2 | sort -rn | head -n 3
printf '10\n9\n100\n-1\n' | sort
printf '10\n9\n100\n-1\n' | sort -n
