awk 'BEGIN {print "[" x "]"; print x + 0; s = "a" "b" 1 + 2; print s}'
echo "5 apples" | awk '{print $1 * 2, $2 "!"}'
