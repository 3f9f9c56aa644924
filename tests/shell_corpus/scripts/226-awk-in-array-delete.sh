awk -F, 'NR>1 {seen[$3] = 1} END {delete seen["gizmo"]; n = 0; for (k in seen) n++; print n; print ("widget" in seen), ("gizmo" in seen)}' data/sales.csv
