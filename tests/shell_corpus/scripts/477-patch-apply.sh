# Apply agent-written unified diffs: edit, create, delete, offsets, rejects.
cat > build/fix.patch <<'P'
--- a/src/utils.py
+++ b/src/utils.py
@@ -1,3 +1,4 @@
+# patched by the agent
 import json
 import os
 
--- /dev/null
+++ b/src/new_module.py
@@ -0,0 +1,2 @@
+def hello():
+    return "hi"
P
head -3 src/utils.py
patch -p1 < build/fix.patch; echo "status $?"
head -2 src/utils.py; cat src/new_module.py
patch -p1 --dry-run < build/fix.patch; echo "again $?"
patch -R -p1 -i build/fix.patch; echo "reverse $?"
ls src
printf 'line0\n' | cat - src/utils.py > build/u && mv build/u src/utils.py
patch -p1 -i build/fix.patch; echo "offset $?"
ls src | sort
cat > build/del.patch <<'P'
--- a/notes/todo.txt
+++ /dev/null
P
sed 's/^/-/' notes/todo.txt > build/body
n=$(wc -l < notes/todo.txt)
{ cat build/del.patch; echo "@@ -1,$n +0,0 @@"; cat build/body; } > build/del2.patch
patch -p1 < build/del2.patch; echo "delete $?"; ls notes
printf -- '--- a/config.ini\n+++ b/config.ini\n@@ -1,2 +1,2 @@\n-no such line\n+x\n context\n' > build/bad.patch
patch -p1 < build/bad.patch; echo "reject $?"; cat config.ini.rej
patch -p1 < README.md; echo "garbage $?"
printf -- '--- a/missing\n+++ b/missing\n@@ -1 +1 @@\n-a\n+b\n' | patch -p1; echo "missing $?"
rm -f src/*.orig config.ini.rej
