printf 'a\na\nb\nc\nc\nc\nd\n' | uniq -d
printf 'a\na\nb\nc\nc\nc\nd\n' | uniq -u
printf 'x\nX\nx\n' | uniq
printf 'x\nX\nx\n' | uniq -i 2>/dev/null | wc -l
