cat >> config.ini <<'EOF2'

[cache]
backend = memory
ttl = 300
EOF2
grep -c '^\[' config.ini
tail -n 3 config.ini
