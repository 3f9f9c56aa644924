sed '1d' data/users.csv | head -n 2
sed '/^;/d; /^$/d' config.ini | head -n 4
sed '2,$d' README.md
sed '$d' notes/ideas.txt
