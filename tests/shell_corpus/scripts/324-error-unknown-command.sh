nosuchcommand --flag
echo "status $?"
