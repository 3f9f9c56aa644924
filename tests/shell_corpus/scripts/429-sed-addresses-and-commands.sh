sed -n '/\[server\]/,/^$/p' config.ini
sed '2q' data/users.csv
sed -n '$=' logs/app.log
sed '1d;$d' data/users.csv | tail -2
sed 'y/abc/ABC/' <<< "aabbcc"
