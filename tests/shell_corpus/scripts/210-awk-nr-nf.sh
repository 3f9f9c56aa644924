awk 'NR==2' data/users.csv
awk 'NR>1 && NR<=3 {print NR": "$0}' data/users.csv
awk '{print NF}' notes/ideas.txt
awk 'END {print NR}' logs/app.log
