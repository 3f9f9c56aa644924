tail -n +2 data/users.csv | head -n 3 | while IFS=, read -r id name email role; do
  jq -cn --arg id "$id" --arg name "$name" --arg role "$role" '{id: ($id | tonumber), name: $name, role: $role}'
done
