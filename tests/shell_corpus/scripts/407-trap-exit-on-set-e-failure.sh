set -e
trap 'echo "trap rc=$?"' EXIT
echo one
false
echo two
