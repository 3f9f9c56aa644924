sort --bogus data/users.csv 2>/dev/null; echo "sort rc=$?"
grep -Q x README.md 2>/dev/null; echo "grep rc=$?"
head -n abc README.md 2>/dev/null; echo "head rc=$?"
cut data/users.csv 2>/dev/null; echo "cut rc=$?"
