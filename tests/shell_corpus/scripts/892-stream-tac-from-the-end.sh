# tac reads a file from its end a piece at a time; stdin is read whole first
printf 'a\nb\nc' > t1; printf 'xaaay' > t2; printf 'a\n\n' > t3
tac t1 t3 t1; tac -b t1; echo; tac -s aa t2; echo; tac -b -s aa t2; echo; tac t3 | od -c
seq 1 100000 > big; tac big | head -n 2; tac big | tail -n 1; tac big | wc -lc
tac -s 0 big | head -c 20; echo; tac -b -s 99 big | tail -c 12; tac -s $'\n\n' big | head -n 1
yes 0123456789 | head -n 60000 | tr -d '\n' > long; printf '\nshort\n' >> long; tac long | wc -c; tac long | head -n 1
seq 1 5 | tac - t1; echo; cat t1 | tac -s b; echo; tac < big | head -n 1
tac nope t1 2>&1; echo " tac: $?"; tac data 2>&1; echo "tac dir: $?"
tac empty 2>&1; : > empty; tac empty; echo "empty: $?"
printf 'a,b,,c,' | tac -s ,; echo; printf 'a\0b\0' | tac -s '' | od -c
seq 1 3000 > s3; tac s3 nope 2>&1 | grep -n tac; tac s3 data s3 2>&1 | grep -n tac:
