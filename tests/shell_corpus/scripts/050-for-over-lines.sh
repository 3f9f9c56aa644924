for user in $(tail -n +2 data/users.csv | cut -d, -f2); do
  echo "user: $user"
done | head -n 3
