set -u
show() { echo "value: $1"; }
show hello
show
echo "not reached"
