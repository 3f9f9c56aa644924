sort < notes/ideas.txt
tr a-z A-Z < notes/ideas.txt | head -n 1
wc -c < config.ini
