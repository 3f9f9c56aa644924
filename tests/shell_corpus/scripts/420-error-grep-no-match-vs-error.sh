grep -q zzz README.md; echo "nomatch=$?"
grep -q Inventory README.md; echo "match=$?"
grep -q zzz nosuch 2>/dev/null; echo "error=$?"
grep -s zzz nosuch; echo "silent=$?"
