# diff -y (side by side) with -W, -t, --tabsize, --left-column and
# --suppress-common-lines, laid out as GNU diffutils 3.8 does.
printf 'a\nb\nc\nd\n' > d1
printf 'a\nB\nc\ne\nf\n' > d2
printf 'foo\nbar\nfoo bar\nBaz 42\n' > a.txt
printf 'x\nfoo\n\tindented\n' > b.txt
diff -y d1 d2 | od -c | head -20; echo "s=$?"
diff -y -W 40 d1 d2; echo "s=$?"
diff -y --suppress-common-lines -W40 d1 d2
diff -y --left-column -W40 d1 d2
diff -y d1 d1 -W 30; echo "s=$?"
diff -ys d1 d1 -W 30
diff -yq d1 d2
diff -yq d1 d1; echo "s=$?"
printf 'x\ty\n' > t1; printf 'long line here that is long\n' > t2
diff -y -W 30 t1 t2
printf 'a' > n1; printf 'b\n' > n2
diff -y -W20 n1 n2
diff -y -W20 n2 n1
diff -yu d1 d2 2>&1; echo "s=$?"
diff -y -t -W 30 t1 t2
diff -y --width=50 a.txt b.txt
diff -y -W 60 --tabsize=4 b.txt a.txt
diff -y -W x d1 d2 2>&1; echo "s=$?"
diff -y -W 5 d1 d2; echo "s=$?"
printf '\n\nx\n' > e1; printf '\ny\n\n' > e2
diff -y -W 30 e1 e2
mkdir s2 s3; printf 'a\n' > s2/f; printf 'b\n' > s3/f
diff -r -y -W 30 s2 s3; echo "s=$?"
