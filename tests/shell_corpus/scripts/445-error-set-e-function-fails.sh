set -e
step() { echo "step $1"; [ "$1" -lt 3 ]; }
step 1
step 2
step 3
echo "not reached"
