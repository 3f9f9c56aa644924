return 2>/dev/null
echo "status $?"
break 2>/dev/null
echo "after break"
