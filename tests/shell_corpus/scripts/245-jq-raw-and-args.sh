jq -r --arg n gizmo '.items[] | select(.name == $n) | "\(.name) costs \(.price)"' data/prices.json
jq -n --arg who agent '{greeting: "hello", who: $who}'
jq -r '.items[] | [.name, (.tags | length)] | @tsv' data/prices.json
