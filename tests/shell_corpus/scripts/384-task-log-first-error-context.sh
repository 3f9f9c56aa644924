n=$(grep -n ERROR logs/app.log | head -1 | cut -d: -f1)
echo "first error at $n"
sed -n "$((n-1)),$((n+1))p" logs/app.log
