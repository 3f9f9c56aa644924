jq -r '.currency' data/prices.json
jq '.items | length' data/prices.json
jq -r '.items[0].name' data/prices.json
jq '.active' data/prices.json
