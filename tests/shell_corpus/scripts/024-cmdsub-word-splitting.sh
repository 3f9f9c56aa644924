for w in $(echo "one two  three"); do echo "<$w>"; done
for w in "$(echo "one two")"; do echo "<$w>"; done
set -- $(cut -d, -f2 data/users.csv | head -n 4)
echo "$# args, second is $2"
