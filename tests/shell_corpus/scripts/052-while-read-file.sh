while IFS=, read -r id name email role; do
  [ "$role" = "dev" ] && echo "$id $name"
done < data/users.csv
