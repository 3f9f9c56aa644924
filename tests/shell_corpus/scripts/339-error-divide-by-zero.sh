echo $((10 / 2))
echo $((1 / 0))
echo "after"
