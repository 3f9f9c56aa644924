cat data/users.csv | tail -n +2 | cut -d, -f4 | sort | uniq -c
grep -v '^#' .editorconfig | grep -c =
echo "done"
