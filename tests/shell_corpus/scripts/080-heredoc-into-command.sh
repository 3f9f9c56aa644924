grep -c dev <<EOF2
alice admin
bob dev
carol dev
EOF2
while read -r a b; do echo "$b:$a"; done <<EOF2
x 1
y 2
EOF2
