awk -F, 'NR>1 { rev = $4 * $5; tot += rev; if (rev > max) { max = rev; best = $1 } }
END { printf "total=%.2f max=%.2f on %s\n", tot, max, best }' data/sales.csv
