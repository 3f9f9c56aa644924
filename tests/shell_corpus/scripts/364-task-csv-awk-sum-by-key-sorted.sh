awk -F, 'NR>1{s[$3]+=$4} END{for(k in s) print k, s[k]}' data/sales.csv | sort
