sed -e 's/^/> /' -e 's/$/ </' notes/ideas.txt
sed 's/a/A/g; s/e/E/g' notes/ideas.txt | head -n 2
