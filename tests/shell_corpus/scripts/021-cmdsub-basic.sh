count=$(wc -l < data/sales.csv)
echo "sales lines: $count"
first=`head -n 1 data/users.csv`
echo "header: $first"
echo "nested: $(echo "$(echo inner)" outer)"
