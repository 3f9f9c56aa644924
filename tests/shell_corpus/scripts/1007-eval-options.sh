# eval skips a leading --, refuses other options (status 2), and a lone -
# is a command word.
eval -- echo hi
eval -- 'x=1; echo "x=$x"'
eval -z 2>/dev/null; echo "eval -z: $?"
eval - 2>/dev/null; echo "eval -: $?"
eval; echo "empty eval: $?"
