col=product
idx=$(head -n 1 data/sales.csv | tr , '\n' | grep -n "^$col$" | cut -d: -f1)
echo "column $col is #$idx"
cut -d, -f"$idx" data/sales.csv | tail -n +2 | sort | uniq -c
