source nosuch.sh 2>/dev/null
echo "status $?"
. ./also-missing.sh 2>/dev/null || echo "dot failed"
