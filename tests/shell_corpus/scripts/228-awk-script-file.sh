cat > report.awk <<'EOF2'
BEGIN { FS = "," }
NR > 1 { by_product[$3] += $4 * $5 }
END {
  for (p in by_product) printf "%s %.2f\n", p, by_product[p]
}
EOF2
awk -f report.awk data/sales.csv | sort -k2 -rn
