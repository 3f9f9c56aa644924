arr=(alpha beta "gamma delta")
echo "${arr[0]}"
echo "${#arr[@]}"
echo "${arr[@]}"
for x in "${arr[@]}"; do echo "<$x>"; done
echo "${arr[2]}" "${#arr[2]}"
