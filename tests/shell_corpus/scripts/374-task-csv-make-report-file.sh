{
  echo "# Sales report"
  echo
  echo "rows: $(tail -n +2 data/sales.csv | wc -l)"
  echo "regions: $(tail -n +2 data/sales.csv | cut -d, -f2 | sort -u | tr '\n' ' ')"
} > build/report.md
cat build/report.md
