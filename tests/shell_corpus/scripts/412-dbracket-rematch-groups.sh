for x in api-42 web-7 bad_1 db-0100 -3; do
  if [[ $x =~ ^([a-z]+)-([0-9]+)$ ]]; then
    echo "$x: name=${BASH_REMATCH[1]} num=${BASH_REMATCH[2]}"
  else
    echo "$x: no match"
  fi
done
