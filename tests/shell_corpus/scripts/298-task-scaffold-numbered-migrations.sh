mkdir -p migrations
for i in 1 2 3; do
  n=$(printf '%03d' "$i")
  echo "-- migration $n" > "migrations/${n}_init.sql"
done
ls migrations
last=$(ls migrations | tail -n 1)
echo "latest: ${last%%_*}"
