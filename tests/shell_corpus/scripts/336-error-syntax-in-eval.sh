eval 'if then fi' 2>/dev/null
echo "eval status $?"
echo "script continues"
