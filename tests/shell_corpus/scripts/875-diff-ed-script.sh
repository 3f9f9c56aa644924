# diff -e writes an ed script (hunks last to first, a lone dot escaped);
# --normal; conflicting output styles are refused.
printf 'a\nb\nc\nd\n' > d1
printf 'a\nB\nc\ne\nf\n' > d2
printf 'a\n.\nb\n' > dot
diff -e d1 d2; echo "s=$?"
diff -e d1 dot
diff -e d1 d1; echo "s=$?"
diff --ed d2 d1
diff -ec d1 d2 2>&1; echo "s=$?"
diff --normal d1 d2
diff --normal -u d1 d2 2>&1; echo "s=$?"
diff -e -y d1 d2 2>&1; echo "s=$?"
diff -q -s d1 d1; diff -s d1 d1
