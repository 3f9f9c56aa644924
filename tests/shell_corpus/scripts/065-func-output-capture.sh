get_port() { grep '^port' config.ini | cut -d= -f2 | tr -d ' '; }
port=$(get_port)
echo "port is $port"
echo "next port is $((port + 1))"
