set -e
cat config.ini > /dev/null
cat nosuch.ini
echo "not reached"
