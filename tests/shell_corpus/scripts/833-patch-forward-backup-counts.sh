# patch -N skips an applied patch without questions, -b always keeps
# FILE.orig, a hunk whose counts run past the end of the input is padded
# with empty context, and a reject file's header drops counts of 1.
printf 'alpha\nBETA\n' > build/f.txt
printf -- '--- build/f.txt\n+++ build/f.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n' > build/p.diff
patch -N -p0 < build/p.diff; echo "forward $?"
cat build/f.txt.rej; rm build/f.txt.rej
printf 'x\n' > build/g.txt
printf -- '--- build/g.txt\n+++ build/g.txt\n@@ -1 +1 @@\n-x\n+y\n' | patch -b -p0; echo "backup $?"
cat build/g.txt build/g.txt.orig
printf 'a\nb\nc\nd\n' > build/h.txt
printf -- '--- build/h.txt\n+++ build/h.txt\n@@ -1,3 +1,2 @@\n a\n-b\n' | patch -p0; echo "short $?"
cat build/h.txt
printf 'only\n' > build/r.txt
printf -- '--- build/r.txt\n+++ build/r.txt\n@@ -1,1 +1,2 @@ def f():\n-missing\n+new\n+lines\n' | patch -p0; echo "reject $?"
cat build/r.txt.rej
ls build | sort
