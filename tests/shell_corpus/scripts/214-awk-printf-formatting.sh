awk -F, 'NR>1 {printf "%-6s|%5.1f|%3d\n", $2, $5, $4}' data/sales.csv | head -n 4
awk 'BEGIN {printf "%s=%d (%x)\n", "answer", 42, 255}'
awk 'BEGIN {printf "%5.2f%%\n", 12.3456}'
