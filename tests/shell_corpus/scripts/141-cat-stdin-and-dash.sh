echo "from stdin" | cat
echo "middle" | cat notes/ideas.txt - docs/CHANGELOG.md | head -n 7
