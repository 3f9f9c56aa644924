sed 3q data/users.csv
sed '/ERROR/q' logs/app.log | wc -l
sed -n '/WARN/{p;q}' logs/app.log | cut -c1-30
