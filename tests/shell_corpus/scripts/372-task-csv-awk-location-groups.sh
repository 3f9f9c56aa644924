awk -F'\t' 'NR>1 { n[$4]++; q[$4] += $3 } END { for (l in n) printf "%s %d %d\n", l, n[l], q[l] }' data/inventory.tsv | sort -k3,3nr
