grep -o '[0-9]*ms$' logs/app.log | tr -d ms | awk '{s += $1; if ($1 > m) m = $1} END {printf "n=%d avg=%.1f max=%d\n", NR, s/NR, m}'
