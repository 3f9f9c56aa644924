awk -F, 'NR>1 { if ($4 > max) { max = $4; line = $0 } } END {print max; print line}' data/sales.csv
awk -F, 'NR==2 {min=$4} NR>1 && $4 < min {min=$4} END {print "min", min}' data/sales.csv
