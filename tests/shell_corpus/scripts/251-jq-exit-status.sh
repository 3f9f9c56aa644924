echo '{"ok": false}' | jq -e '.ok' > /dev/null
echo "status $?"
echo '{"ok": true}' | jq -e '.ok' > /dev/null
echo "status $?"
echo '{"a": 1}' | jq -r '.missing // "default"'
