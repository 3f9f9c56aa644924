key=pool_size
value=25
if grep -q "^$key *=" config.ini; then
  sed -i "s/^$key *=.*/$key = $value/" config.ini
else
  echo "$key = $value" >> config.ini
fi
grep -A 3 '^\[database\]' config.ini
