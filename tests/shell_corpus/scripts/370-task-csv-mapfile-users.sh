mapfile -t lines < <(tail -n +2 data/users.csv)
echo "${#lines[@]} users"
for l in "${lines[@]:0:3}"; do
  echo "${l%%,*} -> ${l##*,}"
done
echo "last: ${lines[-1]}"
