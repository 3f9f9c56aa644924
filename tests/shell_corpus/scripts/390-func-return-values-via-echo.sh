join_by() { local IFS="$1"; shift; echo "$*"; }
max() { local m=$1; shift; for x; do (( x > m )) && m=$x; done; echo "$m"; }
join_by , a b c
join_by / usr local bin
max 3 17 5 11
r=$(max 1 2); echo "r=$r"
