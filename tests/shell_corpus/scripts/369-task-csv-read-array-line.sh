line=$(sed -n '2p' data/sales.csv)
IFS=, read -r -a f <<< "$line"
echo "${#f[@]} fields"
for i in "${!f[@]}"; do echo "$i=${f[$i]}"; done
