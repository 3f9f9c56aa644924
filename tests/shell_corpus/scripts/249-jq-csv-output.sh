jq -r '.items[] | [.name, .price] | @csv' data/prices.json
jq -r '["name","price"], (.items[] | [.name, .price]) | join(",")' data/prices.json
