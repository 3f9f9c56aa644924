set -- red green blue
for color; do
  echo "color=$color"
done
