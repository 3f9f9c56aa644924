x=$(printf 'a\n\n\n')
echo "[$x]"
y=$(printf '\n\nb')
echo "[$y]"
lines="$(cat notes/ideas.txt)"
echo "$lines" | wc -l
