awk -F, 'NR==1 { next } { printf "%-8s %-10s %3d %6.2f\n", $2, $3, $4, $4*$5 }' data/sales.csv | head -5
awk -F, 'NR>1 && $2 == "west" { n++ } END { print n " west rows" }' data/sales.csv
