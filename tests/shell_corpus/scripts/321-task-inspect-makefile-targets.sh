grep -E '^[a-z]+:' Makefile | cut -d: -f1
grep -c $'^\t' Makefile
