# Newest log lines first, and a file through base64 and back.
tac logs/app.log | head -3
printf 'a,b,c,' | tac -s ,; echo
base64 data/users.csv > build/users.b64
head -2 build/users.b64
base64 -d build/users.b64 > build/users.csv
[ "$(cat data/users.csv)" = "$(cat build/users.csv)" ] && echo "roundtrip identical"
printf 'user:secret' | base64
echo 'dXNlcjpzZWNyZXQ=' | base64 -d; echo
printf 'hello world' | base64 -w 8
out=$(echo 'Zm9v!' | base64 -d 2>&1); echo "$out / status $?"
