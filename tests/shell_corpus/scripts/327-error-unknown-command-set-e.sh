set -e
echo "start"
missing_helper
echo "never"
