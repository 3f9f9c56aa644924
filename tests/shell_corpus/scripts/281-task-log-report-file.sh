{
  echo "# Log report"
  echo
  echo "lines: $(wc -l < logs/app.log)"
  for l in ERROR WARN; do echo "$l: $(grep -c " $l " logs/app.log)"; done
} > report.md
cat report.md
