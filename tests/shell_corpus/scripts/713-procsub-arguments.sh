# Process substitution as arguments: <(cmd) and >(cmd) name /dev/fd paths.
echo <(true) <(true)
cat <(echo hi)
diff <(printf 'a\nb\nc\n') <(printf 'a\nc\nd\n'); echo "diff status $?"
diff <(sort data/users.csv) <(sort data/users.csv) && echo same
paste -d, <(seq 1 3) <(printf 'x\ny\nz\n')
wc -l < <(grep -v '^#' config.ini)
comm -12 <(cut -d, -f1 data/sales.csv | sort -u) <(cut -d, -f1 data/sales.csv | sort -u | head -n 2)
while read -r line; do echo "line: $line"; done < <(head -n 2 README.md)
count=0
while read -r _; do count=$((count + 1)); done < <(seq 5)
echo "count $count"
show() { cat "$1" | tr a-z A-Z; }
show <(echo piped through a function)
grep -c . <(cat logs/app.log) <(head -n 3 logs/app.log)
source <(echo "x=5; echo sourced"); echo "x=$x"
# bash runs >(cmd) beside the command: its output is last only at the end.
seq 3 | tee >(wc -l) > /dev/null
