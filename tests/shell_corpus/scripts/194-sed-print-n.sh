sed -n '3p' notes/ideas.txt
sed -n '2,4p' data/users.csv
sed -n '$p' data/sales.csv
sed -n '/\[database\]/,/^$/p' config.ini
