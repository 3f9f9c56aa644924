trap 'echo "cleanup ran"' EXIT
echo "working"
exit 3
