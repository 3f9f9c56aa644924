# A trailing slash (or /. or /..) names a directory: creating or reading a
# file through one fails, as the kernel makes it fail, and nothing is made.
echo data > f
mkdir -p dir
ln -s f link-to-file
ln -s dir link-to-dir
echo hi > nod/ 2>&1; echo "redirect: $?"
echo hi >> f/ 2>&1; echo "append: $?"
cat < f/ 2>&1; echo "input: $?"
cat f/ f/. f/../f 2>&1; echo "cat: $?"
head -n1 link-to-file/ 2>&1; echo "head: $?"
wc -l f/ 2>&1; echo "wc: $?"
grep data f/ 2>&1; echo "grep: $?"
sort f/ 2>&1; echo "sort: $?"
sed -i s/data/changed/ f/ 2>&1; echo "sed: $?"
cp f nodir/ 2>&1; echo "cp new: $?"
cp f f/ 2>&1; echo "cp same: $?"
cp f missing/x/ 2>&1; echo "cp deep: $?"
cp f dir/ && cp f link-to-dir/copy && echo "cp into dir: $?"
mv f nowhere/ 2>&1; echo "mv: $?"
mv f/ g 2>&1; echo "mv source: $?"
touch newdir/ 2>&1; echo "touch new: $?"
touch f/ 2>&1; echo "touch file: $?"
touch dir/ link-to-dir/; echo "touch dir: $?"
echo tee | tee out/ 2>&1; echo "tee: $?"
ls f/ 2>&1; echo "ls: $?"
ls link-to-dir/
rm f/ 2>&1; echo "rm: $?"
mkdir made/ && echo "mkdir: $?"
cat f
ls -R
