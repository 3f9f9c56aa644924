grep -E 'ERROR|WARN' logs/app.log | wc -l
grep -E '^[0-9]+,(alice|bob),' data/users.csv
grep -cE '(GET|POST) /api/items' logs/app.log
grep -E 'x{2,}' README.md || echo "no double x"
