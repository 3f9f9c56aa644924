mapfile_like=()
while IFS= read -r line; do mapfile_like+=("$line"); done < notes/ideas.txt
echo "${#mapfile_like[@]} ideas"
echo "${mapfile_like[1]}"
words=($(head -n 1 README.md))
echo "${words[1]}"
