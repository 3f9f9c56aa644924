set -e
echo "before"
false
echo "never reached"
