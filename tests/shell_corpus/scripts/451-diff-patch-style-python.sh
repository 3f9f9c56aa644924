# Unified diffs of a Python edit, with context merging: changes 6 lines
# apart share a hunk, farther ones get their own; whitespace flags.
cp src/app.py app.py.bak
sed -i '3s/$/  # edited/; 10s/^/# /' src/app.py
diff -u app.py.bak src/app.py | tail -n +3; echo "status: $?"
sed 's/    /\t/' app.py.bak > tabs.py
diff app.py.bak tabs.py | head -n 8
diff -b app.py.bak tabs.py >/dev/null; echo "-b: $?"
diff -w app.py.bak tabs.py; echo "-w: $?"
printf 'x = 1\n' > one.py; printf 'x = 1' > one-nonl.py
diff one.py one-nonl.py; echo "nonl: $?"
rm -f app.py.bak tabs.py one.py one-nonl.py
