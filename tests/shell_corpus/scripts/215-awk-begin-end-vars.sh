awk -v threshold=30 -F, 'BEGIN {print "big sales:"} NR>1 && $4 >= threshold {c++} END {print c+0}' data/sales.csv
awk 'BEGIN {x = 3; y = 4; print sqrt(x*x + y*y)}'
awk 'BEGIN {print length("hello"), substr("inventory", 3, 4), index("hello", "ll")}'
