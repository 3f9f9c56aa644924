{ echo "# report"; echo; grep -c ERROR logs/app.log; } > report.md
cat report.md
{ echo one; echo two; } | wc -l
