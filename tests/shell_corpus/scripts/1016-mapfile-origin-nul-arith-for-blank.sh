# mapfile -O keeps the elements below the origin; -d '' splits on NUL and
# keeps none; an arithmetic for with blank parts loops until break.
printf '%s\0' one two three | { mapfile -d '' arr; echo "n=${#arr[@]}"; printf '[%s]\n' "${arr[@]}"; }
printf '%s\n' a0 a1 a2 | { arr=(x y z); mapfile -O 2 -t arr; echo "n=${#arr[@]} ${arr[*]}"; }
printf '%s\n' b0 b1 b2 | { arr=(x y z); mapfile -t arr; echo "n=${#arr[@]} ${arr[*]}"; }
printf '%s\n' c0 c1 c2 c3 | { mapfile -t -O 1 -n 2 arr; echo "n=${#arr[@]} ${!arr[*]} ${arr[*]}"; }
i=1
for (( ; ; i++ )); do
  [ "$i" = 4 ] && break
  echo "i=$i"
done
for ((  ;  ;  )); do echo once; break; done
