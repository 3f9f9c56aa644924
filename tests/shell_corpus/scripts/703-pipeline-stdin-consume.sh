printf 'a\nb\nc\n' | { read x; cat; }
seq 5 | { read a; read b; echo "$a$b"; cat; }
{ head -n 1; cat; } < README.md | wc -l
{ cat; cat; } < config.ini | wc -l
x=1; echo | x=2; echo "x=$x"
echo x | (read -r _; exit 4) | cat; echo "${PIPESTATUS[@]}"
cat nosuch 2>&1 | wc -l
{ echo out; echo err >&2; } 2>&1 | cat
