files="README.md config.ini Makefile"
for f in $files; do echo "[$f]"; done
for f in "$files"; do echo "[$f]"; done
empty=""
set -- $empty
echo "args: $#"
set -- "$empty"
echo "args: $#"
