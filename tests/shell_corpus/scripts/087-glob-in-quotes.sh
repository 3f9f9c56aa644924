echo "src/*.py"
pattern="*.md"
echo $pattern
echo "$pattern"
