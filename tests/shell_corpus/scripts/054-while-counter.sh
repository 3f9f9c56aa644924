n=1
while [ $n -le 5 ]; do
  echo "step $n"
  n=$((n + 1))
done
