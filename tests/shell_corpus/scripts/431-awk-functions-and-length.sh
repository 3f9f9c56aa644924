awk -F, 'NR>1 { print toupper(substr($2,1,1)) substr($2,2), length($3), index($3, "g") }' data/users.csv | head -4
awk 'BEGIN { n = split("a:b:c", p, ":"); print n, p[1] p[3] }'
awk -F, 'NR>1 { gsub(/@.*/, "", $3); print $3 }' OFS=, data/users.csv | head -3
