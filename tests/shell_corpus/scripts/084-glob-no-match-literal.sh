for f in *.nosuch; do echo "got: $f"; done
echo nothing/*.here
ls *.xyz 2>/dev/null || echo "no xyz files"
