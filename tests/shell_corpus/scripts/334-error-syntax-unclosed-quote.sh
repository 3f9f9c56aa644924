echo "ok"
echo "unterminated
