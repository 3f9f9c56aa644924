jq '.items[1]' data/prices.json
jq -c '.items[1]' data/prices.json
echo '{"b":1,"a":[1,2,{"c":null}]}' | jq .
