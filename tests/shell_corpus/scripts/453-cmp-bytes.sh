# cmp on text files: the first difference, -l listings, -s in conditions,
# -n limits and EOF on a shorter file.
head -n 5 logs/app.log > first5
head -n 3 logs/app.log > first3
cmp first5 first5 && echo identical
cmp first3 first5 2>&1; echo "prefix: $?"
sed '2s/./#/' first5 > changed5
cmp first5 changed5; echo "changed: $?"
cmp -l first5 changed5; echo "list: $?"
cmp -b first5 changed5
cmp -s first5 changed5 || echo "they differ (silent)"
cmp -n 10 first5 changed5; echo "first 10 bytes: $?"
cmp nothere first5 2>&1; echo "missing: $?"
printf 'abc' | cmp - first5 2>&1; echo "stdin: $?"
rm first5 first3 changed5
