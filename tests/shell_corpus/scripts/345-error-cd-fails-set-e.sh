set -e
cd nosuchdir
echo "not reached"
