tail -n +2 data/inventory.tsv | cut -f2,3 | sort > stock.txt
tail -n +2 data/sales.csv | cut -d, -f3 | sort | uniq -c | awk '{print $2 "\t" $1}' > sold.txt
while IFS=$'\t' read -r name qty; do
  s=$(grep "^$name	" sold.txt | cut -f2)
  echo "$name stock=$qty sales=${s:-0}"
done < stock.txt
