awk -F'\t' 'NR > 1 && $3 < 20 {print $1, $2, $3}' data/inventory.tsv
awk -F'\t' 'NR > 1 {q += $3} END {print "total stock", q}' data/inventory.tsv
