seq 100 | head -n 3
seq 100 | tail -n 2
printf 'a\nb\nc' | tail -n 1; echo
