echo "h-e-l-l-o" | tr -d -
echo "too    many     spaces" | tr -s ' '
echo "phone: 555-1234" | tr -cd '0-9'; echo
cat config.ini | tr -d '\n' | wc -c
echo "aaabbbccc" | tr -s ab
