echo "Hello World" | tr a-z A-Z
echo "Hello World" | tr '[:upper:]' '[:lower:]'
echo "a,b,c" | tr , '\n'
echo "path/to/file" | tr / _
