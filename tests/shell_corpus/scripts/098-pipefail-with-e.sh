set -eo pipefail
cat data/users.csv | head -n 2
echo "ok so far"
false | cat
echo "not reached"
