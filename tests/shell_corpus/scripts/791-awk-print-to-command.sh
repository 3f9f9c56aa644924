# print | "cmd": the command gets what was printed when closed, or at the end
awk -F, 'NR > 1 { print $2 | "sort" } END { close("sort"); print "sorted above" }' data/users.csv
awk 'BEGIN { print "b" | "cat"; print "x"; print "a" }'
awk 'BEGIN { print "first"; print "3\n1\n2" | "sort -n"; print "9" | "cat"; print "last" }'
awk '{ print $1 | "sort | uniq -c | sort -rn > levels.txt" }' logs/app.log; head -n 3 levels.txt
awk 'BEGIN { printf "%s\n", "to stderr" | "cat 1>&2"; print "status", close("cat 1>&2") }' 2>&1
awk 'BEGIN { c = "cat > /dev/null; exit 4"; print "x" | c; print close(c), close("nothing open") }'
