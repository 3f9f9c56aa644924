echo "${CONFIG:=config.ini}"
echo "CONFIG is now $CONFIG"
: "${PORT:=8080}"
echo "port $PORT"
: ${PORT:=9090}
echo "port still $PORT"
