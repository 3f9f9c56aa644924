grep -e ERROR -e WARN logs/app.log | wc -l
grep -c -e alice -e bob data/users.csv
printf 'admin\nops\n' > roles.txt
grep -F -f roles.txt data/users.csv | cut -d, -f2
