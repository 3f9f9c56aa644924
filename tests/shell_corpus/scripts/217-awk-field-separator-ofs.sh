awk -F, -v OFS='|' 'NR<=3 {print $1, $2}' data/users.csv
awk 'BEGIN {FS=":"} {print $1}' <<< "a:b:c"
echo "1 2 3" | awk '{$2 = "x"; print}'
echo "1 2 3" | awk -v OFS=- '{$1 = $1; print}'
