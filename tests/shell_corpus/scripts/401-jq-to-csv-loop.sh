jq -r '.items[] | [.name, .price, (.tags | length)] | @csv' data/prices.json > build/items.csv
cat build/items.csv
while IFS=, read -r n p t; do echo "${n//\"/} costs $p"; done < build/items.csv
