echo $((0x1F)) $((010)) $((2#1011)) $((16#ff))
x=7
echo $((x*x)) $(( $x + 1 )) $((x++ + 1)) $x
unset none
echo $((none + 1))
