name=svc
port=7000
workers=3
cat > gen.ini <<EOF
[${name}]
port = $port
max = $((workers * 2))
path = \$HOME/${name}
EOF
cat gen.ini
grep -c '=' gen.ini
