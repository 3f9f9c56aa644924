count=$(grep -c ERROR logs/app.log)
if [ "$count" -gt 20 ]; then
  echo "many errors"
elif [ "$count" -gt 5 ]; then
  echo "some errors: $count"
else
  echo "few errors"
fi
