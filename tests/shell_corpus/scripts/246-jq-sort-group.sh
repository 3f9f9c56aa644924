jq -r '.items | sort_by(.price) | .[] | .name' data/prices.json
jq -c '.items | map(.tags | length) | sort' data/prices.json
jq -c '[.items[].tags[]] | group_by(.) | map({tag: .[0], n: length})' data/prices.json
