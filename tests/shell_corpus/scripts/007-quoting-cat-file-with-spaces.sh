cat "notes/meeting notes.txt" | head -n 2
f="notes/meeting notes.txt"
wc -l < "$f"
cat notes/meeting\ notes.txt | tail -n 1
