jq '.items |= map(if .name == "gizmo" then .price = 8 else . end)' data/prices.json > build/prices.json
jq -r '.items[] | select(.name == "gizmo") | .price' build/prices.json
jq -c '.items[2]' build/prices.json
