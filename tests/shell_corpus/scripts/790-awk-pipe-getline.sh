# "cmd" | getline: a command's output read line by line, its status from close()
awk 'BEGIN { while (("ls data" | getline f) > 0) n++; print n " files"; print "close:", close("ls data") }'
awk 'BEGIN { cmd = "wc -l < logs/app.log"; cmd | getline lines; close(cmd); print "log lines:", lines + 0 }'
awk 'BEGIN { "echo alpha beta gamma" | getline; print NF, $2 }'
awk 'BEGIN { "echo out; exit 3" | getline v; print v, close("echo out; exit 3") }'
awk -F, 'FNR > 1 && FNR < 4 { cmd = "grep -c " $1 " data/sales.csv"; cmd | getline c; close(cmd); print $1, c + 0 }' data/users.csv
awk 'BEGIN { c = "sort -r data/inventory.tsv"; c | getline first; close(c); c | getline again; print (first == again) }'
