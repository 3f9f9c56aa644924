mkdir -p lib
cat > lib/util.sh <<'EOF'
log() { printf '[%s] %s\n' "$1" "$2"; }
count_lines() { wc -l < "$1"; }
EOF
cat > lib/main.sh <<EOF
source lib/util.sh
log info "users: \$(count_lines data/users.csv)"
log warn "generated for $(basename "$PWD" | tr -c 'a-z\n' 'x' | head -c 0)project"
EOF
source lib/main.sh
