true
echo "true: $?"
false
echo "false: $?"
grep -q nosuchstring README.md
echo "grep miss: $?"
(exit 42)
echo "subshell: $?"
echo "$0" | grep -c bash
