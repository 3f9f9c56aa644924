# nl, fold and paste over files and stdin: no trailing newline, empty lines, long lines, several files, options
printf 'a\n\nb' > t1; printf '\n\n' > t2; printf 'x\ty z\n' > t3; : > empty
yes 0123456789 | head -n 40000 | tr -d '\n' > long; printf '\nend\n' >> long
nl t1 t2 t3 empty; nl -ba t1; nl -bn t2; nl -bpz nope t1 2>&1; echo "nl: $?"
nl -v 9 -i 3 -w 2 -n rz -s '|' t1 t3; nl -n ln t1 | od -c | head -n 3
nl long | tail -n 1; nl long | head -c 20; echo; nl long | wc -c
printf 'abc' | nl; nl data 2>&1; echo "nl dir: $?"
fold -w 3 t1 t3; echo; fold -b -w 2 t3; fold -s -w 3 t3; fold -w 1 empty t2 | od -c
fold -w 7 long | tail -n 3; fold -w 100000 long | wc -lc; fold nope t1 2>&1; echo " fold: $?"
printf 'x\b\by\rzz\n' | fold -w 2 | od -c
paste t1 t2 t3 empty; paste -s t1 t2 t3 empty; paste -d '\n' t1 t3; paste -d 'ab' t1 t2 t1
paste -s -d ',\0' t1 long | cut -c1-20; paste long t1 | wc -c; paste -z t1 t3 | od -c
paste t1 nope t2 2>&1; echo "paste: $?"; paste -s t1 nope t3 2>&1; echo "paste -s: $?"
paste t1 data 2>&1; echo "paste dir: $?"; paste -s t1 data t3 2>&1; echo "paste -s dir: $?"
printf '1\n2\n3\n4\n5' | paste - t1 -; printf 'a\nb\n' | paste -s - -
mkdir dd; printf 'a\n' > one; paste one dd one 2>&1; paste dd dd 2>&1; paste dd one 2>&1; echo "dirs: $?"
nl t1 nope t3 2>&1; fold t1 nope t3 2>&1; echo; seq 1 3000 > s3; nl s3 nope 2>&1 | grep -n nl:
