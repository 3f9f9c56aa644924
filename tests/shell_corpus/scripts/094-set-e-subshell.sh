set -e
( false; echo "printed: set -e is off on the left of ||" ) || echo "subshell failed"
out=$(false; echo "printed in cmdsub")
echo "$out"
echo "end"
