cat > vars.sh <<'EOF2'
APP=inventory
greet() { echo "hi from $APP"; }
EOF2
source vars.sh
echo "$APP"
greet
. ./vars.sh
echo "dot works too"
