cat <<'EOF2'
No $expansion or $(commands) here.
Backslash \n stays.
EOF2
cat <<"END"
also literal: $HOME
END
