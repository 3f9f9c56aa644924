i=0
while read -r line; do
  i=$((i+1))
  [[ $line == \#* || -z $line ]] && continue
  echo "$i: ${line%% *}"
done < README.md | head -6
