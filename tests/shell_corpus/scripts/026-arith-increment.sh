i=0
((i++))
((i += 5))
echo "i=$i"
((j = i * 2))
echo "j=$j"
n=10; echo $((n--)) $n $((--n)) $n
(( 0 )) || echo "zero is false"
(( 3 > 2 )) && echo "comparison is true"
