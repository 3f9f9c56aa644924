# Associative arrays: (k v k v) pairs, [k]=v with bare words ignored, and
# the order bash lists keys in (its hash table's, not insertion).
declare -A m=(one 1 two 2 three)
declare -p m
declare -A n=([j]=1 2 3 4)
declare -p n
declare -A a
for k in xx yy zz aa bb; do a[$k]=${#k}$k; done
echo "${!a[@]}"
echo "${a[@]}"
a=(foo 'spam eggs')
declare -p a
declare -A big
for i in $(seq 1 40); do big[k$i]=$i; done
echo "${!big[@]}"
unset 'big[k7]'; big[k7]=again
echo "${big[@]}" | tr ' ' '\n' | head -n 5
