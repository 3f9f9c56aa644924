{
  echo "| id | name | role |"
  echo "|----|------|------|"
  tail -n +2 data/users.csv | while IFS=, read -r id name email role; do
    echo "| $id | $name | $role |"
  done
} > users.md
head -n 4 users.md
wc -l < users.md
