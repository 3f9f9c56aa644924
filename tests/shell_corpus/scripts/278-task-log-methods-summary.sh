grep -oE 'request (GET|POST|DELETE)' logs/app.log | awk '{c[$2]++} END {for (m in c) print m, c[m]}' | sort
