jq -r '[.items[] | select(.price > 4)] | sort_by(.price) | reverse | .[].name' data/prices.json
jq '[.items[].price] | add' data/prices.json
jq -c '.items | map({(.name): .price}) | add' data/prices.json
