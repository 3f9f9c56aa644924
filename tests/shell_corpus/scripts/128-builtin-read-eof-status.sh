if read -r x < /dev/null; then echo "read ok"; else echo "read failed at eof: $?"; fi
printf 'last line without newline' > f.txt
while read -r l; do echo "got: $l"; done < f.txt
while read -r l || [ -n "$l" ]; do echo "got: $l"; done < f.txt
