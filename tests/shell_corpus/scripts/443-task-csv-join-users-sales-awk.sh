printf 'region,manager\nnorth,alice\nsouth,bob\neast,carol\n' > build/regions.csv
awk -F, 'NR==FNR { if (FNR > 1) m[$1] = $2; next } FNR > 1 { print $2 "," ($2 in m ? m[$2] : "none") }' build/regions.csv data/sales.csv | sort | uniq -c
