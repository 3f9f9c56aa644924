printf '{"n":1}\n{"n":2}\n{"n":3}\n' | jq -s 'map(.n) | add'
printf '{"n":1}\n{"n":2}\n' | jq -c '.n * 10'
printf '[1,2,3]' | jq -c 'map(. * 2), length, (. | reverse)'
