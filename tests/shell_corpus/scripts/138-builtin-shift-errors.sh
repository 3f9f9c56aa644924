set -- a b
shift 3
echo "shift status $?, still $#"
shift
echo "$1 $#"
