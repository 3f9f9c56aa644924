# grep -P with what Perl syntax and the Rust regex crate share: classes,
# flags, lazy repetition, -o/-w/-x/-i, one pattern only.
printf 'foo\nbar\nfoo bar\nBaz 42\n' > a.txt
printf 'some text 12\nmore 7 text\n' > b.txt
grep -P '\d+' a.txt b.txt
grep -Po '\d+' a.txt b.txt
grep -Pc '' a.txt
grep -Pw 'ba.' a.txt
grep -Px 'foo|bar' a.txt
grep -Pi 'BAZ\s\d' a.txt
grep -Po 'f.*?o' a.txt
grep -Po '(?i)b[a-z]{2}' a.txt
grep -Pv '\s' a.txt
grep -Pn '^\w+$' a.txt
grep -P '\x{62}ar$' a.txt
grep -P '(' a.txt 2>&1; echo "s=$?"
grep -P -e a -e b a.txt 2>&1; echo "s=$?"
grep -PE a a.txt 2>&1; echo "s=$?"
grep -E -P a a.txt 2>&1; echo "s=$?"
