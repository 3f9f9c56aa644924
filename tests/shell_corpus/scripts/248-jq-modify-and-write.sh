jq '.items[0].price = 3' data/prices.json > data/prices.new.json
mv data/prices.new.json data/prices.json
jq -c '.items[0]' data/prices.json
jq '.active = false | .active' data/prices.json
