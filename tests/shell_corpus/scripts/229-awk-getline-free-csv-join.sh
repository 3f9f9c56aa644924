awk -F, 'NR==FNR {role[$2] = $4; next} /ERROR/ && /bob/ {print "bob is", role["bob"]}' data/users.csv logs/app.log | head -n 1
