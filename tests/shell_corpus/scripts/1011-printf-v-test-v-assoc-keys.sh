# printf -v and test -v expand an associative array's key.
declare -A assoc=([K]=val [empty]='')
printf -v 'assoc["K"]' '/%s/' v2
echo "${assoc[K]}"
key=K
printf -v 'assoc[$key]' '<%s>' v3
echo "${assoc[K]} count=${#assoc[@]}"
for key in empty K missing; do
  test -v 'assoc[$key]'; echo "$key: $?"
done
declare -a idx=(a b)
n=1
printf -v 'idx[n+1]' '%s' c
echo "${idx[*]}"
