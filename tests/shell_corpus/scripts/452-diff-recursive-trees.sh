# Comparing two copies of a tree after changes: -r, -q, -N, -s and the
# "Only in" / "Common subdirectories" lines.
cp -r docs docs-new
echo "extra line" >> docs-new/CHANGELOG.md
sed -i "1s/^/# /" docs-new/guide/faq.md
mkdir -p docs-new/added && echo new > docs-new/added/page.md
echo "only in old" > docs/old.txt
diff -r docs docs-new; echo "recursive: $?"
diff -rq docs docs-new; echo "brief: $?"
diff -rN docs docs-new | grep '^diff\|^[<>]'; echo "new-file done"
diff docs docs-new | grep -v '^[<>0-9-]'
diff -rs docs docs | head -n 3
rm -rf docs-new docs/old.txt
