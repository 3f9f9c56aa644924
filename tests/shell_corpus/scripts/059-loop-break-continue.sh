for i in 1 2 3 4 5 6 7 8; do
  [ $i -eq 2 ] && continue
  [ $i -eq 6 ] && break
  echo "i=$i"
done
for i in 1 2 3; do
  for j in a b c; do
    [ $j = b ] && continue 2
    [ $i = 3 ] && break 2
    echo "$i$j"
  done
done
