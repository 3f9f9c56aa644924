mkdir -p migrations
for i in $(seq -w 1 12); do
  (( 10#$i % 4 == 0 )) || continue
  echo "-- migration $i" > "migrations/${i}_step.sql"
done
ls migrations
cat migrations/012_step.sql
