set -- a b c d e
while [ $# -gt 0 ]; do
  echo "processing $1 (left: $#)"
  shift
done
set -- x y z
shift 2
echo "after shift 2: $*"
