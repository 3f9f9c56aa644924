# patch applies a hunk whose outer context lines are stale (GNU's fuzz, up
# to 2 lines), reports it, backs the file up, and fails past that.
printf 'a\nb\nc\nd\ne\nf\n' > build/f.txt
cat > build/one.diff <<'P'
--- build/f.txt
+++ build/f.txt
@@ -1,5 +1,5 @@
 a
 b
-c
+C
 d
 stale
P
patch -p0 < build/one.diff; echo "fuzz1 $?"
cat build/f.txt; ls build | sort
cat > build/two.diff <<'P'
--- build/f.txt
+++ build/f.txt
@@ -2,5 +2,5 @@
 old1
 old2
-d
+D
 e
 f
P
patch -p0 --no-backup-if-mismatch < build/two.diff; echo "fuzz2 $?"
cat build/f.txt
cat > build/three.diff <<'P'
--- build/f.txt
+++ build/f.txt
@@ -2,7 +2,7 @@
 x1
 x2
 x3
-e
+E
 y1
 y2
 y3
P
patch -p0 < build/three.diff; echo "fuzz3 $?"
cat build/f.txt.rej
printf 'q\nq\na\nb\nc\n' > build/g.txt
printf -- '--- build/g.txt\n+++ build/g.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n zzz\n' | patch -p0; echo "offset $?"
cat build/g.txt
