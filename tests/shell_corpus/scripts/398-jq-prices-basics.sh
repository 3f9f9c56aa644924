jq -r '.items[] | "\(.name)\t\(.price)"' data/prices.json
jq '.items | length' data/prices.json
jq -r '.currency' data/prices.json
