awk -F, 'NR==1 {next} $4 == "admin" {print "admin:", $2; next} {print "user:", $2}' data/users.csv
