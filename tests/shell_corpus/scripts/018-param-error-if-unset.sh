name=${1:-world}
echo "hello $name"
( : "${REQUIRED:?must be set}" ) 2>/dev/null
echo "status $?"
