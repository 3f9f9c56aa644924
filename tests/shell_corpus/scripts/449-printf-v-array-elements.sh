# printf -v writes into an array element (indexed: arithmetic index;
# associative: the key as written), and refuses a bad name.
declare -A totals
for line in "apples 3" "pears 10" "apples 4"; do
    set -- $line
    printf -v "totals[$1]" '%d' $(( ${totals[$1]:-0} + $2 ))
done
for k in apples pears; do echo "$k=${totals[$k]}"; done
i=0
for f in a b c; do printf -v "names[i++]" '%s.txt' "$f"; done
echo "${names[@]} (${#names[@]})"
printf -v 'bad[]' x 2>&1; echo "status $?"
printf -v '9x[1]' x 2>&1; echo "status $?"
