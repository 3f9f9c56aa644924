declare -A seen
while IFS=, read -r id name email role; do
  [ "$id" = id ] && continue
  d=${email#*@}
  seen[$d]=$(( ${seen[$d]:-0} + 1 ))
done < data/users.csv
for d in "${!seen[@]}"; do echo "$d ${seen[$d]}"; done | sort
