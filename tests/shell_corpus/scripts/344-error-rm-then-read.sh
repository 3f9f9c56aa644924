rm data/users.csv
cut -d, -f2 data/users.csv | wc -l
test -f data/users.csv || echo "users.csv is gone"
exit 1
