key=DEBUG
val=0
if grep -q "^$key=" .env; then
  sed -i "s/^$key=.*/$key=$val/" .env
else
  echo "$key=$val" >> .env
fi
key=NEW_FLAG
grep -q "^$key=" .env || echo "$key=yes" >> .env
cat .env
