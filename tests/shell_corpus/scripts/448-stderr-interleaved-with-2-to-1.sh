# Under 2>&1 a command's errors land where it wrote them, among its output.
printf 'one\n' > a
printf 'two\n' > b
cat a missing b 2>&1
cat a missing b 2>&1 | head -n 2
ls a missing b 2>&1 | sort
{ cat a nothing; cat nada b; } 2>&1 | nl
echo line | tee out/ 2>&1
grep -H o a missing b 2>&1
wc -l a missing b 2>&1
echo "exit: $?"
