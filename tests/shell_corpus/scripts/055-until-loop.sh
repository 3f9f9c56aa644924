i=0
until [ $i -ge 3 ]; do
  echo "try $i"
  i=$((i + 1))
done
until false; do echo once; break; done
