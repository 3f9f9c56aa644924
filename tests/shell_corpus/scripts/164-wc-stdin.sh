cat notes/ideas.txt | wc -l
printf 'no newline' | wc -l
printf 'two words' | wc -w
wc -l < README.md
echo "hello" | wc -c
