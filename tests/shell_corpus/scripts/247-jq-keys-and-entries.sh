jq -c 'keys' data/prices.json
jq -r 'to_entries[] | select(.value | type == "string") | "\(.key)=\(.value)"' data/prices.json
jq -c '.items[0] | to_entries | map(.key)' data/prices.json
