jq -r '.items[] | select(.price > 5) | .name' data/prices.json
jq -c '[.items[] | {name, price}]' data/prices.json
jq '[.items[].price] | add' data/prices.json
