echo "hello" | sed 'y/abcdefghij/ABCDEFGHIJ/'
printf 'a b\tc\n' | sed 's/[[:space:]]/_/g'
echo "x" | sed 's/x/a\nb/'
