a=apple b=banana e=
[ "$a" = apple ] && echo "eq"
[ "$a" != "$b" ] && echo "ne"
[ -z "$e" ] && echo "empty"
[ -n "$a" ] && echo "nonempty"
[ "$a" \< "$b" ] && echo "sorted"
test "$a" && echo "test with one arg"
