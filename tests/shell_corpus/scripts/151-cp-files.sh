cp README.md README.bak
cp config.ini data/
cp notes/ideas.txt notes/todo.txt docs/
ls docs data
cmp_like=$(cat README.md | wc -c)
echo "$cmp_like $(wc -c < README.bak)"
