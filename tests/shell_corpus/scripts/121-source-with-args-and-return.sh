cat > lib.sh <<'EOF2'
echo "lib got $# args: $*"
[ "$1" = stop ] && return 5
echo "lib finished"
EOF2
source lib.sh a b
echo "status $?"
source lib.sh stop
echo "status $?"
