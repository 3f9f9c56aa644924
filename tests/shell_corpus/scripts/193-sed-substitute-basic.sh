sed 's/INFO/info/' logs/app.log | head -n 2 | cut -c1-40
echo "hello world" | sed 's/o/0/g'
echo "hello world" | sed 's/o/0/2'
echo "path/to/file" | sed 's|/|::|g'
echo "aaa" | sed 's/a/b/3'
