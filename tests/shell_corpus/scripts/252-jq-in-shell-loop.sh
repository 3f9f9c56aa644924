for name in $(jq -r '.items[].name' data/prices.json); do
  price=$(jq -r --arg n "$name" '.items[] | select(.name == $n) | .price' data/prices.json)
  echo "$name: $price"
done
