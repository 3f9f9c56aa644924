trap 'rc=$?; [ $rc -ne 0 ] && echo "failed with $rc"' EXIT
set -e
mkdir -p out
cp nosuch.txt out/
echo "not reached"
