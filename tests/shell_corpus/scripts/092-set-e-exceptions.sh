set -e
false || echo "or-list is fine"
if false; then :; fi
! true
false && echo "no"
echo "survived all exceptions"
grep -q nosuch README.md
echo "not reached"
