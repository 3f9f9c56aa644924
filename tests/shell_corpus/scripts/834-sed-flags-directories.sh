# sed: blanks between s flags, an unknown s flag, a directory operand
# (read or edited in place: the files before it are handled, then status 4)
# and -i without a file.
echo 'a a a' | sed 's/a/b/ g'
echo abc | sed 's/a/b/gz' 2>&1; echo "unknown flag $?"
echo abc | sed 's/a/b/g x' 2>&1; echo "after flags $?"
sed -n 1p src/utils.py src 2>&1; echo "read dir $?"
sed -i 's/^/# /' src config.ini 2>&1; echo "edit dir $?"
head -1 config.ini
sed -i 's/a/b/' 2>&1; echo "no files $?"
