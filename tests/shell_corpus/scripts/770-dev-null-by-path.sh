# /dev/null named as a file, not only in a redirection: agents truncate,
# compare and copy with it.
printf 'one\ntwo\n' > notes.txt
cat /dev/null > notes.txt; echo "truncated: $? size $(wc -c < notes.txt)"
cat /dev/null; echo "cat: $?"
printf 'a\nb\n' > new.txt
diff /dev/null new.txt; echo "diff: $?"
cp /dev/null empty.txt; echo "cp: $? $(wc -c < empty.txt)"
echo hidden | tee /dev/null; echo "tee: $?"
seq 1 5 | tee -a /dev/null | wc -l
test -e /dev/null && echo "exists"
[ -d /dev ] && echo "dev is a directory"
ls /dev/null
wc -c /dev/null
head -n 3 /dev/null; echo "head: $?"
echo x > /dev/null && echo "written"
rm -f new.txt
