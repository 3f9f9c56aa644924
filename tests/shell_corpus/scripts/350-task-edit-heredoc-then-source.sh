cat > env.sh <<'EOF'
APP_NAME=inventory
APP_PORT=8080
greet() { echo "hello from $APP_NAME on $APP_PORT"; }
EOF
source ./env.sh
greet
APP_PORT=$((APP_PORT + 1)) greet
echo "$APP_PORT"
