echo "2024-03-14" | sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/'
echo "John Smith" | sed 's/\(.*\) \(.*\)/\2, \1/'
sed -E 's/^([a-z]+) = (.*)$/\1="\2"/' config.ini | grep '="' | head -n 3
