ls nosuch
cat nosuch
grep x nosuch
echo "only this line and the exit code are compared"
