printf 'a\tb\\c\n'
printf '%b\n' 'x\ty' 'line\nbreak'
printf '%q\n' 'has space' 2>/dev/null | head -n 1
printf 'no newline at end'
