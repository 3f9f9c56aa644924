set -e
trap 'echo "exit trap, status $?"; rm -f work.tmp' EXIT
touch work.tmp
echo "doing work"
false
echo "not reached"
