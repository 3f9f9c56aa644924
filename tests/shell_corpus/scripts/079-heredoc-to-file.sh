mkdir -p app
cat > app/settings.py <<EOF2
DEBUG = False
PORT = $(grep '^port' config.ini | cut -d= -f2 | tr -d ' ')
NAME = "inventory"
EOF2
cat app/settings.py
