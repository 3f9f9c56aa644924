fact() {
  local n=$1
  if (( n <= 1 )); then echo 1; return; fi
  local sub
  sub=$(fact $((n - 1)))
  echo $((n * sub))
}
for i in 1 5 10; do echo "$i! = $(fact $i)"; done
