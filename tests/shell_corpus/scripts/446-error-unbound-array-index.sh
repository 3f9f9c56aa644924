set -u
arr=(a b)
echo "${arr[1]}"
echo "${arr[5]:-none}"
echo "${#arr[@]}"
echo "$((${#arr[@]} + 1))"
echo "${nope[0]}"
echo unreachable
